import assert from 'node:assert/strict';
import { chat, infer, useSandbox, user, type ErrorEnvelope } from './helpers';

const tool = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } };

/** [title, body overrides, expected param] - every case must answer 400 invalid_request_error. */
const CASES: Array<[string, Record<string, unknown>, string | undefined]> = [
  ['model missing', { model: undefined }, 'model'],
  ['model not a string', { model: 42 }, 'model'],
  ['model is an embedding model', { model: 'bge-m3:567m' }, 'model'],
  ['messages missing', { messages: undefined }, 'messages'],
  ['messages empty', { messages: [] }, 'messages'],
  ['messages not an array', { messages: 'hi' }, 'messages'],
  ['prompt instead of messages', { messages: undefined, prompt: 'hi' }, 'messages'],
  ['message not an object', { messages: ['hi'] }, 'messages'],
  ['unknown role', { messages: [{ role: 'robot', content: 'x' }] }, 'messages'],
  ['user content a number', { messages: [{ role: 'user', content: 5 }] }, 'messages'],
  ['user content empty array', { messages: [{ role: 'user', content: [] }] }, 'messages'],
  ['unknown content part', { messages: [user([{ type: 'audio', audio: 'x' }])] }, 'messages'],
  ['text part without text', { messages: [user([{ type: 'text' }])] }, 'messages'],
  ['image part on a system message', { model: 'qwen3-vl:8b', messages: [{ role: 'system', content: [{ type: 'image', image: 'data:image/png;base64,AAAA' }] }, user('x')] }, 'messages'],
  ['assistant null content without tool_calls', { messages: [user('a'), { role: 'assistant', content: null }, user('b')] }, 'messages'],
  ['assistant tool_calls malformed', { messages: [user('a'), { role: 'assistant', content: null, tool_calls: [{ id: 'x' }] }] }, 'messages'],
  ['tool message without tool_call_id', { messages: [user('a'), { role: 'tool', content: 'r' }] }, 'messages'],
  ['tool message answering an unknown call', { messages: [user('a'), { role: 'tool', tool_call_id: 'call_nope', content: 'r' }] }, 'messages'],
  ['temperature > 2', { temperature: 2.5 }, 'temperature'],
  ['temperature < 0', { temperature: -0.1 }, 'temperature'],
  ['temperature a string', { temperature: '1' }, 'temperature'],
  ['top_p > 1', { top_p: 1.5 }, 'top_p'],
  ['top_p < 0', { top_p: -1 }, 'top_p'],
  ['presence_penalty > 2', { presence_penalty: 3 }, 'presence_penalty'],
  ['presence_penalty < -2', { presence_penalty: -3 }, 'presence_penalty'],
  ['frequency_penalty > 2', { frequency_penalty: 2.1 }, 'frequency_penalty'],
  ['frequency_penalty < -2', { frequency_penalty: -2.1 }, 'frequency_penalty'],
  ['max_tokens 0', { max_tokens: 0 }, 'max_tokens'],
  ['max_tokens fractional', { max_tokens: 1.5 }, 'max_tokens'],
  ['stream not a boolean', { stream: 'yes' }, 'stream'],
  ['stream_options not an object', { stream: true, stream_options: true }, 'stream_options'],
  ['user not a string', { user: 5 }, 'user'],
  ['tools empty', { tools: [] }, 'tools'],
  ['tool without function', { tools: [{ type: 'function' }] }, 'tools'],
  ['tool with a bad name', { tools: [{ type: 'function', function: { name: 'has space' } }] }, 'tools'],
  ['duplicate tool names', { tools: [tool, tool] }, 'tools'],
  ['tools on a model without tool support', { model: 'qwen3-vl:8b', tools: [tool] }, 'tools'],
  ['tool_choice "required" (not in the contract)', { tools: [tool], tool_choice: 'required' }, 'tool_choice'],
  ['tool_choice names a tool not offered', { tools: [tool], tool_choice: { type: 'function', function: { name: 'other' } } }, 'tool_choice'],
  ['forced tool_choice without tools', { tool_choice: { type: 'function', function: { name: 'get_weather' } } }, 'tool_choice'],
  ['tool_choice malformed object', { tools: [tool], tool_choice: { type: 'function' } }, 'tool_choice'],
];

describe('sandbox inference: chat parameter validation', () => {
  const sb = useSandbox();

  for (const [title, overrides, param] of CASES) {
    it(`400 ${param ?? '(no param)'}: ${title}`, async () => {
      const body: Record<string, unknown> = { model: 'gpt-oss:120b', messages: [user('hello')], ...overrides };
      for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
      const r = await infer(sb(), '/chat/completions', body);
      assert.equal(r.status, 400, r.text);
      const err = (r.json as ErrorEnvelope).error;
      assert.equal(err.type, 'invalid_request_error');
      assert.equal(err.param, param);
      assert.ok(err.message.length > 0);
    });
  }

  it('the same validation applies to /v1/completions', async () => {
    const r = await infer(sb(), '/completions', { model: 'gpt-oss:120b', messages: [user('x')], temperature: 9 });
    assert.equal(r.status, 400);
    assert.equal((r.json as ErrorEnvelope).error.param, 'temperature');
  });

  it('a body that is not JSON, or empty, is a 400 without param', async () => {
    for (const raw of ['{not json', '']) {
      const r = await infer(sb(), '/chat/completions', raw);
      assert.equal(r.status, 400);
      const err = (r.json as ErrorEnvelope).error;
      assert.equal(err.type, 'invalid_request_error');
      assert.equal(err.param, undefined);
    }
    const array = await infer(sb(), '/chat/completions', [1, 2]);
    assert.equal(array.status, 400);
  });

  it('an unknown model is a 404 model_not_found with param "model"', async () => {
    const r = await chat(sb(), { model: 'gpt-5:9000b', messages: [user('x')] });
    assert.equal(r.status, 404);
    assert.deepEqual((r.json as ErrorEnvelope).error, {
      message: "The model 'gpt-5:9000b' does not exist or you do not have access to it.",
      type: 'invalid_request_error',
      param: 'model',
      code: 'model_not_found',
    });
  });

  describe('max_model_len (tokens = ceil(chars/4), 4 per message)', () => {
    it('rejects messages longer than the context with param "messages"', async () => {
      // 2040 chars -> 510 tokens + 4 = 514 > 512
      const r = await chat(sb(), { model: 'smollm2:135m', messages: [user('x'.repeat(2040))] });
      assert.equal(r.status, 400);
      const err = (r.json as ErrorEnvelope).error;
      assert.equal(err.param, 'messages');
      assert.match(err.message, /maximum context length is 512 tokens/);
    });

    it('rejects prompt + max_tokens over the context with param "max_tokens"', async () => {
      // 400 chars -> 100 + 4 = 104 prompt tokens; 104 + 409 = 513 > 512
      const over = await chat(sb(), { model: 'smollm2:135m', messages: [user('y'.repeat(400))], max_tokens: 409 });
      assert.equal(over.status, 400);
      assert.equal((over.json as ErrorEnvelope).error.param, 'max_tokens');
      const exact = await chat(sb(), { model: 'smollm2:135m', messages: [user('y'.repeat(400))], max_tokens: 408 });
      assert.equal(exact.status, 200);
    });

    it('without max_tokens the reply fits the room left in the context', async () => {
      const r = await chat(sb(), { model: 'smollm2:135m', messages: [user(`long 1000 ${'z'.repeat(1600)}`)] });
      assert.equal(r.status, 200);
      const usage = (r.json as { usage: { prompt_tokens: number; completion_tokens: number } }).usage;
      assert.equal(usage.prompt_tokens + usage.completion_tokens, 512);
    });

    it('images count 85 tokens each', async () => {
      const r = await chat(sb(), {
        model: 'qwen3-vl:8b',
        messages: [user([{ type: 'text', text: 'abcd' }, { type: 'image', image: 'data:image/png;base64,AAAA' }])],
      });
      assert.equal((r.json as { usage: { prompt_tokens: number } }).usage.prompt_tokens, 4 + 1 + 85);
    });
  });
});
