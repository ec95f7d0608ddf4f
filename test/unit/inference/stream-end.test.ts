import assert from 'node:assert/strict';
import type { ChatRequest, ChatStreamEvent } from '../../../src/core/inference';
import { chunk, textStream } from './helpers/contract';
import { startRig, type Rig } from './helpers/client';

const request: ChatRequest = { model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'Hi' }] };

/** An index-less tool-call fragment, each in its own chunk (as some servers stream them). */
function unindexed(part: { id?: string; name?: string; args?: string }): Record<string, unknown> {
  const fn: Record<string, unknown> = {};
  if (part.name) fn.name = part.name;
  if (part.args !== undefined) fn.arguments = part.args;
  return chunk({ tool_calls: [{ ...(part.id ? { id: part.id, type: 'function' } : {}), function: fn }] });
}

describe('inference/chat stream end and tool-call assembly', () => {
  let rig: Rig;
  before(async () => {
    rig = await startRig();
  });
  after(() => rig.close());
  afterEach(() => rig.reset());

  /** Writes the answer and `[DONE]`, then keeps the connection open (as some proxies do). */
  const keepOpen = (): void => {
    rig.handler = (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const c of textStream(['still ', 'open'])) res.write(`data: ${JSON.stringify(c)}\n\n`);
      res.write('data: [DONE]\n\n');
    };
  };

  it('[DONE] ends consume() at once and closes the connection the server keeps open', async () => {
    keepOpen();
    const closed = rig.server.nextAbort();
    // An idle timeout far beyond the test's: only [DONE] can end this stream.
    const result = await rig.client({ timeouts: { idleMs: 600_000 } }).chatStream(request).consume();
    assert.equal(result.text, 'still open');
    await closed;
  });

  it('[DONE] ends a for-await read at once and closes the connection the server keeps open', async () => {
    keepOpen();
    const closed = rig.server.nextAbort();
    const types: string[] = [];
    for await (const e of rig.client({ timeouts: { idleMs: 600_000 } }).chatStream(request)) types.push(e.type);
    assert.equal(types.at(-1), 'done');
    await closed;
  });

  it('tool-call deltas without index in separate chunks: a new id starts a new call', async () => {
    rig.handler = (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const c of [
        chunk({ role: 'assistant', content: null }),
        unindexed({ id: 'call_a', name: 'get_weather', args: '' }),
        unindexed({ args: '{"city":' }),
        unindexed({ args: '"Paris"}' }),
        unindexed({ id: 'call_b', name: 'get_time', args: '{"tz":' }),
        unindexed({ args: '"CET"}' }),
        chunk({}, 'tool_calls'),
      ]) res.write(`data: ${JSON.stringify(c)}\n\n`);
      res.end('data: [DONE]\n\n');
    };
    const events: ChatStreamEvent[] = [];
    const result = await rig.client().chatStream(request).consume((e) => events.push(e));
    assert.deepEqual(result.toolCalls, [
      { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      { id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{"tz":"CET"}' } },
    ]);
    const deltas = events.flatMap((e) => (e.type === 'tool_call_delta' ? [e.index] : []));
    assert.deepEqual(deltas, [0, 0, 0, 1, 1], 'the deltas name the call they belong to');
  });

  it('index-less whole calls listed in one chunk stay separate calls, with or without ids', async () => {
    rig.handler = (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify(chunk({ tool_calls: [{ function: { name: 'a', arguments: '{}' } }, { function: { name: 'b', arguments: '{"x":1}' } }] }))}\n\n`);
      res.write(`data: ${JSON.stringify(chunk({}, 'tool_calls'))}\n\n`);
      res.end('data: [DONE]\n\n');
    };
    const result = await rig.client().chatStream(request).consume();
    assert.deepEqual(result.toolCalls.map((c) => [c.id, c.function.name, c.function.arguments]), [['call_0', 'a', '{}'], ['call_1', 'b', '{"x":1}']]);
  });
});
