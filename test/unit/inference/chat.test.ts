import assert from 'node:assert/strict';
import { NotFoundError, ValidationError } from '../../../src/core/errors';
import type { ChatRequest } from '../../../src/core/inference';
import { sendJson } from '../http/helpers/server';
import { completion } from './helpers/contract';
import { API_KEY, requestJson, startRig, type Rig } from './helpers/client';

describe('inference/chat (non-streamed)', () => {
  let rig: Rig;
  before(async () => {
    rig = await startRig();
  });
  after(() => rig.close());
  afterEach(() => rig.reset());

  const base: ChatRequest = { model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'Hi' }] };

  it('sends every documented parameter that is set, and only those, to /v1/chat/completions', async () => {
    rig.handler = (_q, res) =>
      sendJson(res, 200, completion({ content: 'Hello!' }), {
        'x-request-id': 'req-42',
        'x-ratelimit-limit-requests': '100',
        'x-ratelimit-remaining-requests': '99',
        'x-ratelimit-reset-requests': '30',
      });
    const request: ChatRequest = {
      ...base,
      temperature: 0.2,
      max_tokens: 64,
      top_p: 0.9,
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
      user: 'user-1',
      tools: [{ type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: {} } } }],
      tool_choice: 'auto',
    };
    const result = await rig.client().chat(request);
    const seen = rig.server.requests[0];
    assert.equal(seen?.url, '/v1/chat/completions');
    assert.equal(seen?.headers.authorization, `Bearer ${API_KEY}`);
    assert.deepEqual(requestJson(rig), request);
    assert.equal(result.text, 'Hello!');
    assert.equal(result.finishReason, 'stop');
    assert.equal(result.id, 'chatcmpl-abc123');
    assert.equal(result.model, 'gpt-oss:120b');
    assert.deepEqual(result.usage, { promptTokens: 12, completionTokens: 5, totalTokens: 17 });
    assert.deepEqual(result.message, { role: 'assistant', content: 'Hello!' });
    assert.equal(result.meta.requestId, 'req-42');
    assert.equal(result.meta.rateLimit?.limitRequests, 100);
    assert.equal(result.meta.rateLimit?.remainingRequests, 99);
    assert.ok(result.meta.rateLimit?.resetRequestsAt instanceof Date);
  });

  it('sends the minimal body when nothing optional is set', async () => {
    rig.handler = (_q, res) => sendJson(res, 200, completion({ content: 'ok' }));
    await rig.client().chat(base);
    assert.deepEqual(requestJson(rig), base);
  });

  it('separates <think> blocks from the answer and reads reasoning_tokens', async () => {
    rig.handler = (_q, res) =>
      sendJson(res, 200, completion({ content: '<think>The user greets.</think>\n\nHello there.' }, 'stop', {
        prompt_tokens: 3,
        completion_tokens: 9,
        total_tokens: 12,
        reasoning_tokens: 4,
      }));
    const result = await rig.client().chat(base);
    assert.equal(result.text, 'Hello there.');
    assert.equal(result.thinking, 'The user greets.');
    assert.equal(result.usage?.reasoningTokens, 4);
    assert.deepEqual(result.message, { role: 'assistant', content: 'Hello there.' });
  });

  it('returns tool calls (content null, finish_reason tool_calls) ready for the next turn', async () => {
    const call = { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };
    rig.handler = (_q, res) => sendJson(res, 200, completion({ content: null, tool_calls: [call] }, 'tool_calls'));
    const result = await rig.client().chat(base);
    assert.equal(result.finishReason, 'tool_calls');
    assert.deepEqual(result.toolCalls, [call]);
    assert.deepEqual(result.message, { role: 'assistant', content: null, tool_calls: [call] });
  });

  it('surfaces an unknown model as NotFoundError with code model_not_found', async () => {
    rig.handler = (_q, res) =>
      sendJson(res, 404, {
        error: { message: 'The model `nope` does not exist', type: 'invalid_request_error', param: 'model', code: 'model_not_found' },
      });
    await assert.rejects(rig.client().chat({ ...base, model: 'nope' }), (e: unknown) => {
      return e instanceof NotFoundError && e.code === 'model_not_found' && e.param === 'model';
    });
  });

  describe('client-side validation with the contract ranges', () => {
    const bad: Array<[string, Partial<ChatRequest> | Record<string, unknown>]> = [
      ['model', { model: '' }],
      ['messages', { messages: [] }],
      ['temperature', { temperature: 2.1 }],
      ['temperature', { temperature: -0.01 }],
      ['temperature', { temperature: Number.NaN }],
      ['max_tokens', { max_tokens: 0 }],
      ['max_tokens', { max_tokens: 10.5 }],
      ['top_p', { top_p: 1.01 }],
      ['presence_penalty', { presence_penalty: -2.5 }],
      ['frequency_penalty', { frequency_penalty: 2.5 }],
      ['user', { user: 42 }],
      ['messages[0].role', { messages: [{ role: 'bot', content: 'x' }] }],
      ['messages[0].content', { messages: [{ role: 'user', content: null }] }],
      ['messages[1].tool_call_id', { messages: [{ role: 'user', content: 'x' }, { role: 'tool', content: '{}' }] }],
      ['messages[0].content[0].image_url.url', { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x/cat.png' } }] }] }],
      ['messages[0].content[0].type', { messages: [{ role: 'user', content: [{ type: 'audio', data: 'x' }] }] }],
      ['messages[0].tool_calls[0].function.arguments', { messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: {} } }] }] }],
      ['tools[0].function.name', { tools: [{ type: 'function', function: { name: 'has space' } }] }],
      ['tools[0].type', { tools: [{ type: 'retrieval' }] }],
      ['tool_choice', { tool_choice: 'required' }],
      ['tool_choice', { tools: [], tool_choice: { type: 'function', function: { name: 'missing' } } }],
    ];
    for (const [param, patch] of bad) {
      it(`rejects ${param} = ${JSON.stringify(Object.values(patch)[0])?.slice(0, 60)} before sending`, async () => {
        rig.handler = (_q, res) => sendJson(res, 200, completion({ content: 'unreachable' }));
        const request = { ...base, ...patch } as ChatRequest;
        await assert.rejects(rig.client().chat(request), (e: unknown) => {
          assert.ok(e instanceof ValidationError, String(e));
          assert.equal(e.kind, 'validation');
          assert.equal(e.param, param);
          return true;
        });
        assert.throws(() => rig.client().chatStream(request), ValidationError);
        assert.equal(rig.server.requests.length, 0);
      });
    }

    it('accepts the range bounds, both image forms and a tool conversation', async () => {
      rig.handler = (_q, res) => sendJson(res, 200, completion({ content: 'ok' }));
      const png = 'data:image/png;base64,iVBORw0KGgo=';
      await rig.client().chat({
        model: 'qwen3-vl:8b',
        temperature: 2,
        top_p: 0,
        presence_penalty: -2,
        frequency_penalty: 2,
        max_tokens: 1,
        tools: [{ type: 'function', function: { name: 'get_weather' } }],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: png } }, { type: 'image', image: png }] },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'call_1', content: '{"t":21}' },
        ],
      });
      assert.equal(rig.server.requests.length, 1);
    });

    it('omits an empty tools array', async () => {
      rig.handler = (_q, res) => sendJson(res, 200, completion({ content: 'ok' }));
      await rig.client().chat({ ...base, tools: [] });
      assert.equal('tools' in requestJson(rig), false);
    });
  });
});
