import assert from 'node:assert/strict';
import { createInferenceClient } from '../../../src/core/inference';
import { extraBodyLayers, mergeUnder, parseExtraBody } from '../../../src/core/inference/shared/extraBody';
import { Fixtures, json } from '../console/helpers';

describe('extraBody: stratus.models.extraBody', () => {
  it('drops the fields that make the request what it is, and values that are not objects', () => {
    const parsed = parseExtraBody({ '*': { top_k: 20, model: 'other', messages: [], stream: false, tools: [], prompt: 'x' }, bad: 3 });
    assert.deepEqual(parsed.table, { '*': { top_k: 20 } });
    assert.deepEqual(parsed.ignored, ['*.model (set by Stratus)', '*.messages (set by Stratus)', '*.stream (set by Stratus)', '*.tools (set by Stratus)', '*.prompt (set by Stratus)', 'bad (not a JSON object)']);
  });

  it('layers apply least specific first: `*`, then globs, then the exact id', () => {
    const { table } = parseExtraBody({ 'qwen3:8b': { top_k: 3 }, '*': { top_k: 1, repetition_penalty: 1.1 }, 'qwen3*': { top_k: 2 } });
    assert.deepEqual(mergeUnder({}, extraBodyLayers(table, 'qwen3:8b')), { top_k: 3, repetition_penalty: 1.1 });
    assert.deepEqual(mergeUnder({}, extraBodyLayers(table, 'qwen3:32b')), { top_k: 2, repetition_penalty: 1.1 });
    assert.deepEqual(mergeUnder({}, extraBodyLayers(table, 'llama3')), { top_k: 1, repetition_penalty: 1.1 });
  });

  it('never overrides the request\'s own fields; nested objects merge one level with the request winning', () => {
    const body = { model: 'm', messages: [], stream: true, max_tokens: 100, chat_template_kwargs: { enable_thinking: true } };
    const merged = mergeUnder(body, [{ model: 'x', stream: false, max_tokens: 5, top_k: 20, chat_template_kwargs: { enable_thinking: false, custom: 1 } }]);
    assert.deepEqual(merged, { model: 'm', messages: [], stream: true, max_tokens: 100, top_k: 20, chat_template_kwargs: { enable_thinking: true, custom: 1 } });
  });

  it('a protected field in a layer is never added, even when the request lacks it', () => {
    assert.deepEqual(mergeUnder({ model: 'm' }, [{ tools: [{}], tool_choice: 'auto', prompt: 'p' }]), { model: 'm' });
  });

  it('reaches chat and completions requests on the wire, for the request\'s model', async () => {
    const fx = new Fixtures();
    const stub = await fx.stub((_req, res) => json(res, 200, { id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] }));
    const { table } = parseExtraBody({ '*': { top_k: 20 }, 'qwen3*': { chat_template_kwargs: { enable_thinking: false } } });
    const client = createInferenceClient({ baseUrl: `${stub.url}/v1`, apiKey: async () => 'sk-extra-body-key', extraBody: (model) => extraBodyLayers(table, model) });
    try {
      await client.chat({ model: 'qwen3:8b', messages: [{ role: 'user', content: 'hi' }], max_tokens: 10 });
      await client.complete({ model: 'llama3', prompt: 'a' });
      const bodies = stub.requests.map((r) => JSON.parse(r.body) as Record<string, unknown>);
      assert.equal(bodies[0]?.top_k, 20);
      assert.deepEqual(bodies[0]?.chat_template_kwargs, { enable_thinking: false });
      assert.equal(bodies[0]?.model, 'qwen3:8b');
      assert.equal(bodies[1]?.top_k, 20);
      assert.equal(bodies[1]?.chat_template_kwargs, undefined);
    } finally {
      await client.close();
      await fx.closeAll();
    }
  });
});
