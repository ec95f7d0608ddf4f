import assert from 'node:assert/strict';
import { MARKDOWN_DEMO } from '../../sandbox/inference/script';
import { chat, chunks, sseData, streamedContent, useSandbox, user, type Chunk } from './helpers';

const weather = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

function assembleToolCalls(list: Chunk[]): Array<{ id: string; name: string; arguments: string }> {
  const calls: Array<{ id: string; name: string; arguments: string }> = [];
  for (const c of list) {
    for (const delta of c.choices[0]?.delta.tool_calls ?? []) {
      const call = (calls[delta.index] ??= { id: '', name: '', arguments: '' });
      if (delta.id) call.id = delta.id;
      if (delta.function?.name) call.name = delta.function.name;
      call.arguments += delta.function?.arguments ?? '';
    }
  }
  return calls;
}

describe('sandbox inference: SSE streaming (contract profile)', () => {
  const sb = useSandbox();

  it('sends text/event-stream, no-cache, data events separated by blank lines, then [DONE]', async () => {
    const r = await chat(sb(), { messages: [user('stream me please')], stream: true });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'text/event-stream');
    assert.equal(r.headers.get('cache-control'), 'no-cache');
    assert.ok(r.headers.get('x-ratelimit-remaining-requests'));
    const data = sseData(r.text);
    assert.equal(data[data.length - 1], '[DONE]');
    assert.match(r.text, /^data: \{/);
    assert.ok(r.text.endsWith('data: [DONE]\n\n'));
  });

  it('splits the content into several incremental deltas; the last chunk has finish_reason stop and empty content', async () => {
    const list = chunks((await chat(sb(), { messages: [user('stream me please')], stream: true })).text);
    const ids = new Set(list.map((c) => c.id));
    assert.equal(ids.size, 1);
    assert.match([...ids][0] ?? '', /^chatcmpl-/);
    for (const c of list) {
      assert.equal(c.object, 'chat.completion.chunk');
      assert.equal(c.model, 'gpt-oss:120b');
      assert.ok(Number.isInteger(c.created));
    }
    assert.equal(list[0]?.choices[0]?.delta.role, 'assistant');
    const withText = list.filter((c) => (c.choices[0]?.delta.content ?? '') !== '');
    assert.ok(withText.length >= 4, 'several deltas');
    assert.equal(streamedContent(list), 'Echo (gpt-oss:120b): stream me please');
    const last = list[list.length - 1];
    assert.equal(last?.choices[0]?.finish_reason, 'stop');
    assert.equal(last?.choices[0]?.delta.content, '');
    for (const c of list.slice(0, -1)) assert.equal(c.choices[0]?.finish_reason, null);
    assert.equal(list.some((c) => c.usage !== undefined), false, 'no usage chunk unless asked in the contract profile');
  });

  it('stream_options.include_usage adds a usage chunk with empty choices before [DONE]', async () => {
    const list = chunks((await chat(sb(), { messages: [user('count me')], stream: true, stream_options: { include_usage: true } })).text);
    const usageChunk = list[list.length - 1];
    assert.deepEqual(usageChunk?.choices, []);
    assert.deepEqual(usageChunk?.usage, { prompt_tokens: 6, completion_tokens: 8, total_tokens: 14 });
    assert.equal(list[list.length - 2]?.choices[0]?.finish_reason, 'stop');
  });

  it('streams the markdown demo and "long N" (one delta per number)', async () => {
    const md = chunks((await chat(sb(), { messages: [user('markdown demo')], stream: true })).text);
    assert.equal(streamedContent(md), MARKDOWN_DEMO);
    const long = chunks((await chat(sb(), { messages: [user('long 300')], stream: true, max_tokens: 2000 })).text);
    const deltas = long.map((c) => c.choices[0]?.delta.content ?? '').filter((d) => d !== '');
    assert.equal(deltas.length, 300);
    assert.equal(deltas[0], '1 ');
    assert.equal(deltas[299], '300');
  });

  it('streams <think> inside content for a reasoning model', async () => {
    const list = chunks((await chat(sb(), { model: 'qwen3:30b', messages: [user('think')], stream: true })).text);
    assert.match(streamedContent(list), /^<think>\n[\s\S]*\n<\/think>\n\nEcho \(qwen3:30b\): think$/);
  });

  it('a stream cut by max_tokens finishes with "length"', async () => {
    const list = chunks((await chat(sb(), { messages: [user('long 50')], stream: true, max_tokens: 3 })).text);
    assert.equal(list[list.length - 1]?.choices[0]?.finish_reason, 'length');
    assert.equal(streamedContent(list), '1 2 3 4 5 6 ');
  });

  it('tool-call deltas: by index, first delta carries id and name, arguments split across many events', async () => {
    const r = await chat(sb(), { messages: [user('use get_weather {"city": "Strasbourg", "days": 3} and ping')], stream: true, tools: [weather, { type: 'function', function: { name: 'ping' } }] });
    const list = chunks(r.text);
    const deltas = list.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    const first = deltas.filter((d) => d.id !== undefined);
    assert.equal(first.length, 2);
    assert.deepEqual(
      first.map((d) => [d.index, d.type, d.function?.name, d.function?.arguments]),
      [
        [0, 'function', 'get_weather', ''],
        [1, 'function', 'ping', ''],
      ],
    );
    const argumentEvents = deltas.filter((d) => d.index === 0 && d.id === undefined);
    assert.ok(argumentEvents.length >= 5, 'arguments split across many events');
    for (const d of argumentEvents) assert.equal(d.function?.name, undefined);
    const calls = assembleToolCalls(list);
    assert.deepEqual(JSON.parse(calls[0]?.arguments ?? ''), { city: 'Strasbourg', days: 3 });
    assert.equal(calls[1]?.arguments, '{"city":"Strasbourg","days":3}');
    assert.equal(list[list.length - 1]?.choices[0]?.finish_reason, 'tool_calls');
    assert.equal(list[list.length - 1]?.choices[0]?.delta.content, '');
  });

  it('the streamed tool call equals the non-streamed one', async () => {
    const body = { messages: [user('use get_weather')], tools: [weather] };
    const plain = (await chat(sb(), body)).json as { choices: Array<{ message: { tool_calls: Array<{ id: string; function: { name: string; arguments: string } }> } }> };
    const streamed = assembleToolCalls(chunks((await chat(sb(), { ...body, stream: true })).text));
    const call = plain.choices[0]?.message.tool_calls[0];
    assert.deepEqual(streamed, [{ id: call?.id, name: call?.function.name, arguments: call?.function.arguments }]);
  });

  it('validation errors on a streamed request are plain JSON errors, not streams', async () => {
    const r = await chat(sb(), { messages: [user('x')], stream: true, temperature: 5 });
    assert.equal(r.status, 400);
    assert.match(r.headers.get('content-type') ?? '', /application\/json/);
  });
});

describe('sandbox inference: SSE streaming (production profile)', () => {
  const sb = useSandbox({ profile: 'production' });

  it('always ends with a usage chunk (empty choices, reasoning_tokens) and carries unknown extra fields', async () => {
    const list = chunks((await chat(sb(), { model: 'qwen3:30b', messages: [user('think hard')], stream: true })).text);
    const usageChunk = list[list.length - 1];
    assert.deepEqual(usageChunk?.choices, []);
    assert.equal(typeof usageChunk?.usage?.reasoning_tokens, 'number');
    assert.ok((usageChunk?.usage?.reasoning_tokens ?? 0) > 0);
    for (const c of list) assert.equal(c.system_fingerprint, 'fp_sandbox');
    const choice = list[1]?.choices[0] as Record<string, unknown> | undefined;
    assert.ok(choice && 'logprobs' in choice && 'stop_reason' in choice);
  });
});
