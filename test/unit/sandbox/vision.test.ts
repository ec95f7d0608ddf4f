import assert from 'node:assert/strict';
import { chat, PNG_BYTES, PNG_DATA_URI, useSandbox, user, type Completion, type ErrorEnvelope } from './helpers';

describe('sandbox inference: image input', () => {
  const sb = useSandbox();

  it('a vision model accepts the standard image_url form and the simplified image form', async () => {
    const r = await chat(sb(), {
      model: 'qwen3-vl:8b',
      messages: [user([{ type: 'text', text: 'what is this?' }, { type: 'image_url', image_url: { url: PNG_DATA_URI } }, { type: 'image', image: PNG_DATA_URI }])],
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(
      (r.json as Completion).choices[0]?.message.content,
      `Echo (qwen3-vl:8b): what is this?\n[image 1: image/png, ${PNG_BYTES} bytes]\n[image 2: image/png, ${PNG_BYTES} bytes]`,
    );
  });

  it('mistral-small3.2 takes images too', async () => {
    const r = await chat(sb(), { model: 'mistral-small3.2:24b', messages: [user([{ type: 'image_url', image_url: { url: PNG_DATA_URI } }])] });
    assert.equal(r.status, 200);
  });

  it('a non-vision model rejects image parts: 400 param messages', async () => {
    for (const part of [{ type: 'image_url', image_url: { url: PNG_DATA_URI } }, { type: 'image', image: PNG_DATA_URI }]) {
      const r = await chat(sb(), { model: 'gpt-oss:120b', messages: [user([{ type: 'text', text: 'x' }, part])] });
      assert.equal(r.status, 400);
      const err = (r.json as ErrorEnvelope).error;
      assert.equal(err.param, 'messages');
      assert.match(err.message, /does not accept image input/);
    }
  });

  it('images must be base64 image data URIs', async () => {
    const bad = [
      { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
      { type: 'image_url', image_url: { url: 'data:text/plain;base64,aGVsbG8=' } },
      { type: 'image_url', image_url: { url: 'data:image/png,rawbytes' } },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,***' } },
      { type: 'image_url', image_url: 'data:image/png;base64,AAAA' },
      { type: 'image', image: 42 },
    ];
    for (const part of bad) {
      const r = await chat(sb(), { model: 'qwen3-vl:8b', messages: [user([part])] });
      assert.equal(r.status, 400, JSON.stringify(part));
      assert.equal((r.json as ErrorEnvelope).error.param, 'messages');
    }
  });
});
