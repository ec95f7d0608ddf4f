import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import {
  ApiError,
  CancelledError,
  InterruptedError,
  MalformedResponseError,
  NetworkError,
  OutcomeUnknownError,
  RateLimitError,
  StreamStalledError,
} from '../../../src/core/errors';
import type { ChatRequest, ChatStreamEvent } from '../../../src/core/inference';
import { ChatStreamDecoder } from '../../../src/core/inference/chat/streamDecoder';
import type { ResponseMeta } from '../../../src/core/inference/shared/meta';
import { sendJson, sendSse } from '../http/helpers/server';
import { chunk, textStream, toolCallDelta, usageChunk } from './helpers/contract';
import { API_KEY, requestJson, startRig, type Rig } from './helpers/client';

const request: ChatRequest = { model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'Hi' }] };

async function collect(stream: AsyncIterable<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const events: ChatStreamEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

function texts(events: readonly ChatStreamEvent[], type: 'text' | 'thinking'): string {
  return events.map((e) => (e.type === type ? e.text : '')).join('');
}

describe('inference/chat streaming', () => {
  let rig: Rig;
  const timers = new Set<NodeJS.Timeout>();
  before(async () => {
    rig = await startRig();
  });
  after(() => rig.close());
  afterEach(async () => {
    for (const t of timers) clearInterval(t);
    timers.clear();
    await rig.reset();
  });

  it('streams text deltas, the finish reason, then usage from a final chunk with empty choices', async () => {
    rig.handler = (_q, res) =>
      sendSse(res, [
        ...textStream(['Hel', 'lo', ' wörld']),
        usageChunk({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10, reasoning_tokens: 1 }),
      ]);
    const events = await collect(rig.client().chatStream(request));
    assert.deepEqual(
      events.slice(0, -1),
      [
        { type: 'text', text: 'Hel' },
        { type: 'text', text: 'lo' },
        { type: 'text', text: ' wörld' },
        { type: 'finish', reason: 'stop' },
        { type: 'usage', usage: { promptTokens: 7, completionTokens: 3, totalTokens: 10, reasoningTokens: 1 } },
      ],
    );
    const done = events.at(-1);
    assert.ok(done?.type === 'done');
    assert.equal(done.result.text, 'Hello wörld');
    assert.equal(done.result.finishReason, 'stop');
    assert.equal(done.result.usage?.reasoningTokens, 1);
    assert.equal(done.result.id, 'chatcmpl-abc123');
    assert.deepEqual(requestJson(rig), { ...request, stream: true });
    assert.equal(rig.server.requests[0]?.headers.accept, 'text/event-stream');
  });

  it('consume() gives the same events through a synchronous callback', async () => {
    rig.handler = (_q, res) => sendSse(res, textStream(['a', 'b']));
    const events: ChatStreamEvent[] = [];
    const result = await rig.client().chatStream(request).consume((e) => events.push(e));
    assert.deepEqual(events.map((e) => e.type), ['text', 'text', 'finish', 'done']);
    assert.equal(result.text, 'ab');
    assert.deepEqual(result.message, { role: 'assistant', content: 'ab' });
  });

  it('assembles tool calls by index: id + name first, arguments appended', async () => {
    rig.handler = (_q, res) =>
      sendSse(res, [
        chunk({ role: 'assistant', content: null }),
        toolCallDelta(0, { id: 'call_a', name: 'get_weather', args: '' }),
        toolCallDelta(0, { args: '{"ci' }),
        toolCallDelta(1, { id: 'call_b', name: 'get_time', args: '{"tz":' }),
        toolCallDelta(0, { args: 'ty":"Paris"}' }),
        toolCallDelta(1, { args: '"CET"}' }),
        chunk({}, 'tool_calls'),
        usageChunk({ prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 }),
      ]);
    const events = await collect(rig.client().chatStream(request));
    const deltas = events.filter((e) => e.type === 'tool_call_delta');
    assert.equal(deltas.length, 5);
    assert.deepEqual(deltas[0], { type: 'tool_call_delta', index: 0, id: 'call_a', name: 'get_weather', arguments: '' });
    assert.deepEqual(deltas[1], { type: 'tool_call_delta', index: 0, arguments: '{"ci' });
    const calls = events.filter((e) => e.type === 'tool_call');
    assert.deepEqual(calls, [
      { type: 'tool_call', index: 0, call: { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } } },
      { type: 'tool_call', index: 1, call: { id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{"tz":"CET"}' } } },
    ]);
    const types = events.map((e) => e.type);
    assert.ok(types.indexOf('tool_call') < types.indexOf('finish'), 'complete calls come before finish');
    const done = events.at(-1);
    assert.ok(done?.type === 'done');
    assert.equal(done.result.finishReason, 'tool_calls');
    assert.deepEqual(done.result.message, { role: 'assistant', content: null, tool_calls: done.result.toolCalls });
  });

  it('separates <think> blocks even when the tags are split across deltas', async () => {
    rig.handler = (_q, res) => sendSse(res, textStream(['<thi', 'nk>Let me ', 'think.</th', 'ink>', '\n\nThe answer', ' is 4 < 5.']));
    const events = await collect(rig.client().chatStream(request));
    assert.equal(texts(events, 'thinking'), 'Let me think.');
    assert.equal(texts(events, 'text'), 'The answer is 4 < 5.');
    const done = events.at(-1);
    assert.ok(done?.type === 'done');
    assert.equal(done.result.thinking, 'Let me think.');
    assert.deepEqual(done.result.message, { role: 'assistant', content: 'The answer is 4 < 5.' });
  });

  it('ignores unknown fields, usage:null, keep-alive comments and events after [DONE]', async () => {
    rig.handler = (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(': keep-alive\n\n');
      res.write(`data: ${JSON.stringify({ ...chunk({ content: 'x', extra: { deep: [1] } }), usage: null, service_tier: 'gold' })}\n\n`);
      res.write(`data: ${JSON.stringify(chunk({ content: '' }, 'stop'))}\n\n`);
      res.write('data: [DONE]\n\n');
      res.write(`data: ${JSON.stringify(chunk({ content: 'after done' }))}\n\n`);
      res.end();
    };
    const result = await rig.client().chatStream(request).consume();
    assert.equal(result.text, 'x');
  });

  it('handles events and multi-byte characters split across network chunks', async () => {
    const body = Buffer.from(
      textStream(['Grüße ', '🌍', '!'])
        .map((c) => `data: ${JSON.stringify(c)}\n\n`)
        .join('') + 'data: [DONE]\n\n',
    );
    rig.handler = (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let at = 0;
      const timer = setInterval(() => {
        res.write(body.subarray(at, at + 7));
        at += 7;
        if (at >= body.length) {
          clearInterval(timer);
          res.end();
        }
      }, 1);
      timers.add(timer);
    };
    const result = await rig.client().chatStream(request).consume();
    assert.equal(result.text, 'Grüße 🌍!');
  });

  it('accepts a stream that ends after finish_reason without [DONE]', async () => {
    rig.handler = (_q, res) => sendSse(res, textStream(['ok']), { done: false });
    assert.equal((await rig.client().chatStream(request).consume()).text, 'ok');
  });

  it('fails clearly when the stream ends with neither [DONE] nor a finish reason, nothing visible sent', async () => {
    rig.handler = (_q, res) => sendSse(res, [chunk({ role: 'assistant', content: '' })], { done: false });
    await assert.rejects(rig.client().chatStream(request).consume(), (e: unknown) => {
      assert.ok(e instanceof MalformedResponseError);
      assert.match(e.message, /ended before the answer was complete/);
      return true;
    });
  });

  it('reports malformed JSON in an event as MalformedResponseError, without echoing it', async () => {
    rig.handler = (_q, res) => sendSse(res, [chunk({ content: 'a' }), `{"choices": [${API_KEY}`]);
    await assert.rejects(collect(rig.client().chatStream(request)), (e: unknown) => {
      assert.ok(e instanceof MalformedResponseError);
      assert.equal(e.kind, 'malformed_response');
      assert.match(e.message, /event 2 of the stream is not valid JSON/);
      assert.ok(!e.message.includes(API_KEY));
      return true;
    });
  });

  it('turns an error object sent inside the stream into an ApiError', async () => {
    rig.handler = (_q, res) => sendSse(res, [chunk({ content: 'a' }), { error: { message: 'overloaded', type: 'server_error', code: 503 } }]);
    await assert.rejects(rig.client().chatStream(request).consume(), (e: unknown) => {
      return e instanceof ApiError && e.status === 503 && /overloaded/.test(e.message);
    });
  });

  it('fails a stream that stalls after text with InterruptedError (stalled) instead of hanging', async () => {
    rig.handler = (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify(chunk({ content: 'partial' }))}\n\n`);
    };
    const client = rig.client({ timeouts: { idleMs: 200 } });
    const events: ChatStreamEvent[] = [];
    await assert.rejects(client.chatStream(request).consume((e) => events.push(e)), (e: unknown) => {
      assert.ok(e instanceof InterruptedError, String(e));
      assert.equal(e.reason, 'stalled');
      assert.ok(e.cause instanceof StreamStalledError);
      return true;
    });
    assert.deepEqual(events, [{ type: 'text', text: 'partial' }]);
  });

  it('fails a stream that stalls before any text with StreamStalledError', async () => {
    rig.handler = (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify(chunk({ role: 'assistant', content: '' }))}\n\n`);
      res.write(`data: ${JSON.stringify(chunk({ reasoning_content: 'hmm' }))}\n\n`);
    };
    const client = rig.client({ timeouts: { idleMs: 200 } });
    await assert.rejects(client.chatStream(request).consume(), (e: unknown) => e instanceof StreamStalledError);
  });

  it('a reset after text is InterruptedError (reset); the cause is the NetworkError', async () => {
    let response: ServerResponse | undefined;
    rig.handler = (_q, res) => {
      response = res;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify(chunk({ content: 'half an' }))}\n\n`);
    };
    const events: ChatStreamEvent[] = [];
    await assert.rejects(rig.client().chatStream(request).consume((e) => {
      events.push(e);
      // The client has the text: now the server drops the connection.
      response?.destroy();
    }), (e: unknown) => {
      assert.ok(e instanceof InterruptedError, String(e));
      assert.equal(e.reason, 'reset');
      assert.ok(e.cause instanceof NetworkError);
      return true;
    });
    assert.deepEqual(events, [{ type: 'text', text: 'half an' }]);
  });

  it('a reset after the finish reason returns the whole answer (only usage and [DONE] are lost)', async () => {
    let response: ServerResponse | undefined;
    rig.handler = (_q, res) => {
      response = res;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const c of textStream(['all', ' there'])) res.write(`data: ${JSON.stringify(c)}\n\n`);
    };
    const result = await rig.client().chatStream(request).consume((e) => {
      if (e.type === 'finish') response?.destroy();
    });
    assert.equal(result.text, 'all there');
    assert.equal(result.finishReason, 'stop');
    assert.equal(result.usage, undefined);
  });

  it('maps a read failure by what had arrived: nothing, text, or a whole answer', () => {
    const decoder = (): ChatStreamDecoder => new ChatStreamDecoder(() => undefined, { label: 'POST /v1/chat/completions', meta: { status: 200, requestId: undefined, rateLimit: undefined } satisfies ResponseMeta, redact: (t) => t });
    const reset = new NetworkError('reset', 'ECONNRESET');
    const unknown = new OutcomeUnknownError('unknown', 'POST /v1/chat/completions', 'ECONNRESET');
    const cancelled = new CancelledError();
    const none = decoder();
    none.onEvent(JSON.stringify(chunk({ role: 'assistant', content: '' })), undefined);
    assert.equal(none.readFailed(reset), reset, 'nothing visible: the transport error itself');
    const some = decoder();
    some.onEvent(JSON.stringify(chunk({ content: 'x' })), undefined);
    for (const cause of [reset, unknown]) {
      const mapped = some.readFailed(cause);
      assert.ok(mapped instanceof InterruptedError && mapped.reason === 'reset' && mapped.cause === cause, String(mapped));
    }
    assert.equal(some.readFailed(cancelled), cancelled, 'a cancel stays a cancel');
    some.onEvent(JSON.stringify(chunk({ content: '' }, 'stop')), undefined);
    assert.equal(some.readFailed(reset), undefined, 'after finish_reason the answer is whole');
  });

  it('a body that ends without [DONE] or finish_reason after text is InterruptedError (ended)', async () => {
    rig.handler = (_q, res) => sendSse(res, [chunk({ content: 'par' })], { done: false });
    await assert.rejects(rig.client().chatStream(request).consume(), (e: unknown) => e instanceof InterruptedError && e.reason === 'ended');
  });

  it('cancels mid-stream on abort: CancelledError, and the server sees the connection close', async () => {
    rig.handler = (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(() => res.write(`data: ${JSON.stringify(chunk({ content: '.' }))}\n\n`), 5);
      timers.add(timer);
      res.on('close', () => clearInterval(timer));
    };
    const controller = new AbortController();
    const closed = rig.server.nextAbort();
    let n = 0;
    await assert.rejects(
      rig.client().chatStream(request, { signal: controller.signal }).consume(() => {
        if (++n === 3) controller.abort();
      }),
      (e: unknown) => e instanceof CancelledError,
    );
    await closed;
  });

  it('closes the connection when the consumer stops iterating early', async () => {
    rig.handler = (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(() => res.write(`data: ${JSON.stringify(chunk({ content: '.' }))}\n\n`), 5);
      timers.add(timer);
      res.on('close', () => clearInterval(timer));
    };
    const closed = rig.server.nextAbort();
    let n = 0;
    for await (const _e of rig.client().chatStream(request)) {
      if (++n === 2) break;
    }
    await closed;
  });

  it('retries a 429 before anything streamed, then streams', async () => {
    rig.handler = (_q, res: ServerResponse, _b, n) =>
      n === 1 ? sendJson(res, 429, { error: { message: 'slow down', type: 'rate_limit_error', code: 'rate_limit_exceeded' } }, { 'retry-after': '0' }) : sendSse(res, textStream(['fine']));
    assert.equal((await rig.client().chatStream(request).consume()).text, 'fine');
    assert.equal(rig.server.requests.length, 2);
  });

  it('surfaces a persistent 429 as RateLimitError from the first read', async () => {
    rig.handler = (_q, res) => sendJson(res, 429, { error: { message: 'slow down', type: 'rate_limit_error', code: 'rate_limit_exceeded' } }, { 'retry-after': '3600' });
    await assert.rejects(collect(rig.client().chatStream(request)), (e: unknown) => e instanceof RateLimitError && e.retryAt instanceof Date);
  });

  it('can be consumed only once', async () => {
    rig.handler = (_q, res) => sendSse(res, textStream(['x']));
    const stream = rig.client().chatStream(request);
    await stream.consume();
    await assert.rejects(stream.consume(), /only once/);
  });
});
