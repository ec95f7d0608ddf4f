import assert from 'node:assert/strict';
import { DocumentError } from '../../../src/core/documents/errors';
import { documentMarkdown } from '../../../src/core/documents/markdown';
import { openDocument } from '../../../src/core/documents/open';
import type { PdfJs } from '../../../src/core/documents/pdf';
import * as pdfjs from '../../../src/core/documents/pdfjsEntry';
import { planPages } from '../../../src/core/documents/plan';
import { ocrReader, readPages, type PageReader } from '../../../src/core/documents/run';
import type { DocumentSource, ExtractMode, PageOutcome } from '../../../src/core/documents/types';
import type { InferenceClient } from '../../../src/core/inference';
import type { UsageEvent } from '../../../src/core/usage/events';
import { createMeteredInferenceClient } from '../../../src/core/usage/meteredClient';
import { startSandbox, type Sandbox, type SandboxProfile } from '../../sandbox/index';
import { corruptPdf, imagePdf, INVOICE_MARKDOWN, INVOICE_TABLE, scanPng, textPdf } from './fixtures';

const loadPdfJs = (): Promise<PdfJs> => Promise.resolve(pdfjs as unknown as PdfJs);
const MODEL = { id: 'deepseek-ocr:3b', maxModelLen: 8192 };

async function plan(source: DocumentSource, mode: ExtractMode = 'auto') {
  const infos = [];
  for (let n = 1; n <= source.pageCount; n++) infos.push(await source.info(n));
  return planPages(infos, mode);
}

describe('documents: reading PDFs and images (pdf.js in plain Node, no canvas)', () => {
  it('reads a text-layer PDF page by page without any request', async () => {
    const source = await openDocument(await textPdf(['Datasheet\nVoltage: 12 V', 'Second page text here']), 'sheet.pdf', loadPdfJs, 8192);
    const read: PageReader = () => Promise.reject(new Error('no OCR expected'));
    const outcomes = await readPages({ source, plan: await plan(source), read, model: MODEL.id, concurrency: 2 });
    await source.close();
    assert.deepEqual(outcomes.map((p) => [p.number, p.action, p.status]), [[1, 'text', 'done'], [2, 'text', 'done']]);
    assert.equal(outcomes[0]?.markdown, 'Datasheet\nVoltage: 12 V');
  });

  it('finds the image of each scanned page and hands it over as PNG at its size', async () => {
    const source = await openDocument(await imagePdf([{ markdown: 'one' }, { markdown: 'two' }]), 'scan.pdf', loadPdfJs, 8192);
    assert.deepEqual((await plan(source)).map((p) => p.action), ['ocr', 'ocr']);
    const image = await source.image(2);
    await source.close();
    assert.equal(image?.mime, 'image/png');
    assert.deepEqual([image?.width, image?.height], [480, 640]);
  });

  it('refuses a corrupt PDF, and a file that is no document, with one clear error', async () => {
    await assert.rejects(openDocument(corruptPdf(), 'broken.pdf', loadPdfJs, 8192), (e: unknown) => e instanceof DocumentError && e.reason === 'corrupt' && /^broken\.pdf is not a readable PDF \(.+\)\. Check that the file is complete, or export it again\.$/.test(e.message));
    await assert.rejects(openDocument(Buffer.from('hello'), 'notes.txt', loadPdfJs, 8192), (e: unknown) => e instanceof DocumentError && e.reason === 'unsupported');
    const huge = Buffer.alloc(6 * 1024 * 1024);
    huge.set([0xff, 0xd8, 0xff, 0xe0]);
    await assert.rejects(openDocument(huge, 'photo.jpg', loadPdfJs, 8192), (e: unknown) => e instanceof DocumentError && e.reason === 'too_large' && e.message.startsWith('photo.jpg is 6.0 MB; an image is sent to the OCR model as it is, at most 5.0 MB.'));
  });

  it('bounds the OCR requests in flight, and cancelling keeps the pages already read', async () => {
    const source = await openDocument(await imagePdf([1, 2, 3, 4, 5, 6].map((n) => ({ markdown: `p${n}` }))), 'scan.pdf', loadPdfJs, 8192);
    const pending: Array<() => void> = [];
    let most = 0;
    let inFlight = 0;
    const read: PageReader = (_image, signal) => {
      inFlight++;
      most = Math.max(most, inFlight);
      return new Promise<string>((resolve, reject) => {
        signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        pending.push(() => resolve('read'));
      }).finally(() => inFlight--);
    };
    const until = async (condition: () => boolean): Promise<void> => {
      while (!condition()) await new Promise((resolve) => setImmediate(resolve));
    };
    const abort = new AbortController();
    const running = readPages({ source, plan: await plan(source), read, model: MODEL.id, concurrency: 2, signal: abort.signal });
    await until(() => pending.length === 2);
    for (const release of pending.splice(0)) release();
    await until(() => pending.length === 2);
    assert.equal(inFlight, 2);
    abort.abort();
    const outcomes = await running;
    await source.close();
    assert.equal(most, 2);
    assert.deepEqual(outcomes.map((p) => p.status), ['done', 'done', 'cancelled', 'cancelled', 'cancelled', 'cancelled']);
    assert.deepEqual(outcomes.map((p) => p.markdown), ['read', 'read', undefined, undefined, undefined, undefined]);
  });
});

for (const profile of ['contract', 'production'] as SandboxProfile[]) {
  describe(`documents: OCR against the sandbox (${profile} profile)`, function () {
    let sandbox: Sandbox;
    let client: InferenceClient;
    const events: UsageEvent[] = [];

    before(async () => {
      sandbox = await startSandbox({ port: 0, profile });
      client = createMeteredInferenceClient({ baseUrl: sandbox.inferenceUrl, apiKey: async () => sandbox.credentials.apiKey, retry: { baseDelayMs: 1, maxDelayMs: 5 }, onUsage: (e) => events.push(e) });
    });
    afterEach(() => {
      sandbox.control.reset();
      events.length = 0;
    });
    after(async () => {
      await client.close();
      await sandbox.close();
    });

    it('turns a PNG with text and a table into Markdown, metered as kind ocr', async () => {
      const source = await openDocument(scanPng({ markdown: INVOICE_MARKDOWN, nonce: `png-${profile}` }), 'invoice.png', loadPdfJs, 8192);
      const outcomes = await readPages({ source, plan: await plan(source), read: ocrReader(client, MODEL), model: MODEL.id, concurrency: 2 });
      assert.equal(outcomes[0]?.status, 'done');
      assert.equal(outcomes[0]?.markdown, ['# Invoice 2024-017', '', 'Sovereign Cloud SAS, 12 rue des Nuages, Lyon', '', INVOICE_TABLE, '', 'Total: 40.50 EUR'].join('\n'));
      const ocr = events.filter((e) => e.kind === 'ocr');
      assert.equal(ocr.length, 1);
      assert.equal(ocr[0]?.kind === 'ocr' && ocr[0].model, 'deepseek-ocr:3b');
      assert.equal(events.filter((e) => e.kind === 'chat').length, 0);
      const body = sandbox.control.requests({ pathPrefix: '/v1/chat/completions' }).at(-1)?.body as { json?: { max_tokens?: number } } | undefined;
      assert.equal(body?.json?.max_tokens, 4096);
    });

    it('reads 5 scanned pages with a 429 on page 3: retried after Retry-After, every page done, in order', async () => {
      const pages = [1, 2, 3, 4, 5].map((n) => ({ markdown: `Page ${n} body`, nonce: `429-${profile}-${n}`, ...(n === 3 ? { faults: [{ status: 429, times: 1, retryAfter: 0 }] } : {}) }));
      const source = await openDocument(await imagePdf(pages), 'scan.pdf', loadPdfJs, 8192);
      const seen: PageOutcome[] = [];
      const outcomes = await readPages({ source, plan: await plan(source), read: ocrReader(client, MODEL), model: MODEL.id, concurrency: 2, onChange: (p) => seen.push(p) });
      await source.close();
      assert.deepEqual(outcomes.map((p) => [p.status, p.markdown]), [1, 2, 3, 4, 5].map((n) => ['done', `Page ${n} body`]));
      assert.equal(sandbox.control.requests({ pathPrefix: '/v1/chat/completions' }).filter((r) => r.status === 429).length, 1);
      assert.deepEqual(seen.filter((p) => p.number === 3).map((p) => p.status), ['queued', 'reading', 'done']);
      assert.equal(events.filter((e) => e.kind === 'ocr').length, 5);
    });

    it('a page that keeps failing is failed with its reason; the others are done', async () => {
      const pages = [1, 2, 3].map((n) => ({ markdown: `P${n}`, nonce: `fail-${profile}-${n}`, ...(n === 2 ? { faults: [{ status: 429, times: 9, retryAfter: 0 }] } : {}) }));
      const source = await openDocument(await imagePdf(pages), 'scan.pdf', loadPdfJs, 8192);
      const outcomes = await readPages({ source, plan: await plan(source), read: ocrReader(client, MODEL), model: MODEL.id, concurrency: 1 });
      await source.close();
      assert.deepEqual(outcomes.map((p) => p.status), ['done', 'failed', 'done']);
      assert.match(outcomes[1]?.reason ?? '', /rate|limit|429/i);
      const markdown = documentMarkdown('scan.pdf', outcomes);
      assert.match(markdown, /## Page 2\n\n_Not read: .+_\n\n## Page 3/);
    });
  });
}
