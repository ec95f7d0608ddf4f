import assert from 'node:assert/strict';
import { cachedOutcomes, contentKey, DocumentCache, parseCached, type CacheStore } from '../../../src/core/documents/cache';
import { estimateImageTokens, fitImage, MAX_ANSWER_TOKENS, ocrRequest } from '../../../src/core/documents/ocrRequest';
import type { ImageUrlPart, TextPart } from '../../../src/core/inference/chat/types';

class MemoryStore implements CacheStore {
  readonly entries = new Map<string, string>();
  failWrites = false;
  read(key: string): Promise<string | undefined> {
    return Promise.resolve(this.entries.get(key));
  }
  write(key: string, value: string): Promise<void> {
    if (this.failWrites) return Promise.reject(new Error('disk full'));
    this.entries.set(key, value);
    return Promise.resolve();
  }
}

describe('documents: cache by content hash', () => {
  it('keys a file by its bytes, not its name', () => {
    assert.equal(contentKey(Buffer.from('same')), contentKey(new Uint8Array(Buffer.from('same'))));
    assert.notEqual(contentKey(Buffer.from('same')), contentKey(Buffer.from('other')));
    assert.match(contentKey(Buffer.from('x')), /^[0-9a-f]{64}$/);
  });

  it('keeps done pages, merges later reads, and gives them back as outcomes', async () => {
    const store = new MemoryStore();
    const cache = new DocumentCache(store);
    const key = contentKey(Buffer.from('pdf'));
    await cache.put(key, 'a.pdf', 3, [
      { number: 1, action: 'text', status: 'done', markdown: 'one' },
      { number: 2, action: 'ocr', status: 'failed', reason: 'x' },
    ]);
    await cache.put(key, 'a.pdf', 3, [{ number: 2, action: 'ocr', status: 'done', markdown: 'two', model: 'deepseek-ocr:3b' }]);
    const entry = await cache.get(key);
    assert.ok(entry);
    assert.deepEqual(Object.keys(entry.pages), ['1', '2']);
    assert.deepEqual(cachedOutcomes(entry, [2, 3]), [{ number: 2, action: 'ocr', status: 'done', markdown: 'two', model: 'deepseek-ocr:3b' }]);
  });

  it('ignores damaged entries and never fails on a cache that cannot write', async () => {
    assert.equal(parseCached('{not json'), undefined);
    assert.equal(parseCached(JSON.stringify({ version: 99, fileName: 'a', pageCount: 1, pages: {} })), undefined);
    const kept = parseCached(JSON.stringify({ version: 1, fileName: 'a', pageCount: 2, pages: { 1: { action: 'text', markdown: 'ok' }, 2: { action: 'bad', markdown: 1 }, x: {} } }));
    assert.deepEqual(kept?.pages, { 1: { action: 'text', markdown: 'ok' } });
    const store = new MemoryStore();
    store.failWrites = true;
    await new DocumentCache(store).put('k', 'a.pdf', 1, [{ number: 1, action: 'text', status: 'done', markdown: 'x' }]);
    assert.equal(store.entries.size, 0);
  });
});

describe('documents: the OCR request, sized against max_model_len', () => {
  const image = { mime: 'image/png', bytes: Buffer.from('png'), width: 1000, height: 1400 };

  it('sends the image as an image_url data URI with the instruction, temperature 0', () => {
    const plan = ocrRequest({ id: 'deepseek-ocr:3b', maxModelLen: 8192 }, image);
    assert.ok(plan.ok);
    const content = plan.request.messages[0]?.content as [ImageUrlPart, TextPart];
    assert.equal(content[0].image_url.url, `data:image/png;base64,${Buffer.from('png').toString('base64')}`);
    assert.match(content[1].text, /Markdown tables/);
    assert.equal(plan.request.temperature, 0);
    // 36 x 50 patches = 1800 image tokens; the answer gets what is left, at most MAX_ANSWER_TOKENS.
    assert.equal(estimateImageTokens(1000, 1400), 1800);
    assert.equal(plan.request.max_tokens, MAX_ANSWER_TOKENS);
  });

  it('leaves the answer what the context does not spend on the image, and refuses a context too small', () => {
    const small = ocrRequest({ id: 'tiny', maxModelLen: 4096 }, image);
    assert.ok(small.ok);
    assert.ok((small.request.max_tokens ?? 0) < 4096 - 1800 && (small.request.max_tokens ?? 0) > 2000);
    const none = ocrRequest({ id: 'tiny', maxModelLen: 400 }, { ...image, width: undefined, height: undefined });
    assert.equal(none.ok, false);
    assert.match(none.ok ? '' : none.message, /tiny has a context of 400 tokens/);
  });

  it('fits large page images into half the context, keeping their shape', () => {
    const fitted = fitImage(2480, 3508, 8192);
    assert.ok(estimateImageTokens(fitted.width, fitted.height) <= 4096);
    assert.ok(Math.abs(fitted.width / fitted.height - 2480 / 3508) < 0.01);
    assert.deepEqual(fitImage(480, 640, 8192), { width: 480, height: 640 });
    assert.ok(fitImage(8000, 100, 131072).width <= 2048);
  });
});
