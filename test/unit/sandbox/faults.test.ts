import assert from 'node:assert/strict';
import { MALFORMED_EVENT } from '../../sandbox/inference/sse';
import { createClock } from '@sinonjs/fake-timers';
import { bearer, call, chat, chunks, consoleCall, consoleToken, eventually, infer, useSandbox, user, type ConsoleErrorEnvelope, type ErrorEnvelope, type Reply } from './helpers';

const STREAM = { messages: [user('one two three four five six seven eight')], stream: true };

/** Starts a streamed chat and returns a reader over its body. */
async function openStream(inferenceUrl: string, apiKey: string, controller: AbortController): Promise<{ read: () => Promise<string | undefined> }> {
  const response = await fetch(`${inferenceUrl}/chat/completions`, {
    method: 'POST',
    headers: { ...bearer(apiKey), 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-oss:120b', ...STREAM }),
    signal: controller.signal,
  });
  assert.equal(response.status, 200);
  assert.ok(response.body);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  return {
    read: async () => {
      const { value, done } = await reader.read();
      return done ? undefined : decoder.decode(value);
    },
  };
}

describe('sandbox faults', () => {
  const sb = useSandbox();
  beforeEach(() => sb().control.reset());

  describe('stream faults', () => {
    it('stall: stops after N events, keeps the socket open; the client cancel is recorded', async () => {
      sb().control.injectStreamFault({ kind: 'stall', afterChunks: 2 });
      const controller = new AbortController();
      const stream = await openStream(sb().inferenceUrl, sb().credentials.apiKey, controller);
      let text = '';
      while ((text.match(/\n\n/g) ?? []).length < 2) text += (await stream.read()) ?? '';
      assert.equal((text.match(/^data: /gm) ?? []).length, 2);
      const record = sb().control.requests({ pathPrefix: '/v1/chat' }).pop();
      assert.equal(record?.clientClosedEarly, false, 'still open');
      // A read pending when the client gives up gets no more data, only the abort (no timing:
      // had the server sent a third event, this read would resolve with it, and chunksSent be 3).
      const more = stream.read();
      controller.abort();
      await assert.rejects(more, (error: Error) => error.name === 'AbortError');
      await eventually(() => sb().control.requests({ pathPrefix: '/v1/chat' }).pop()?.clientClosedEarly === true);
      const after = sb().control.requests({ pathPrefix: '/v1/chat' }).pop();
      assert.equal(after?.chunksSent, 2);
      assert.equal(after?.fault, 'stream:stall');
      assert.equal(after?.streamed, true);
      assert.equal(after?.droppedByServer, false);
    });

    it('drop: destroys the connection after N events', async () => {
      sb().control.injectStreamFault({ kind: 'drop', afterChunks: 3 });
      const response = await fetch(`${sb().inferenceUrl}/chat/completions`, {
        method: 'POST',
        headers: { ...bearer(sb().credentials.apiKey), 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-oss:120b', ...STREAM }),
      });
      await assert.rejects(response.text());
      const record = sb().control.requests({ pathPrefix: '/v1/chat' }).pop();
      assert.equal(record?.droppedByServer, true);
      assert.equal(record?.clientClosedEarly, false);
      assert.equal(record?.chunksSent, 3);
    });

    it('malformed: one event with invalid JSON after N events, then the stream goes on to [DONE]', async () => {
      sb().control.injectStreamFault({ kind: 'malformed', afterChunks: 1 });
      const r = await chat(sb(), STREAM);
      assert.ok(r.text.includes(MALFORMED_EVENT));
      const events = r.text.split('\n\n').filter((e) => e !== '');
      assert.throws(() => JSON.parse((events[1] ?? '').slice('data: '.length)));
      assert.ok(r.text.endsWith('data: [DONE]\n\n'));
      assert.equal(chunks(r.text.replace(MALFORMED_EVENT, '')).length > 3, true);
    });

    it('truncate: half an event, then the response ends (no blank line, no [DONE])', async () => {
      sb().control.injectStreamFault({ kind: 'truncate', afterChunks: 2 });
      const r = await chat(sb(), STREAM);
      assert.equal(r.status, 200);
      assert.ok(!r.text.endsWith('\n\n'));
      assert.ok(!r.text.includes('[DONE]'));
      const events = r.text.split('\n\n');
      assert.equal(events.length, 3);
      assert.match(events[2] ?? '', /^data: \{/);
      assert.throws(() => JSON.parse((events[2] ?? '').slice(6)));
    });

    it('count and pathPrefix scope the fault; non-streamed requests are unaffected', async () => {
      sb().control.injectStreamFault({ kind: 'truncate', afterChunks: 1, count: 2, pathPrefix: '/v1/completions' });
      assert.ok((await chat(sb(), STREAM)).text.endsWith('[DONE]\n\n'), 'other path');
      assert.equal((await infer(sb(), '/completions', { model: 'gpt-oss:120b', messages: [user('x')] })).status, 200, 'not a stream');
      assert.ok(!(await infer(sb(), '/completions', { model: 'gpt-oss:120b', ...STREAM })).text.includes('[DONE]'));
      assert.ok(!(await infer(sb(), '/completions', { model: 'gpt-oss:120b', ...STREAM })).text.includes('[DONE]'));
      assert.ok((await infer(sb(), '/completions', { model: 'gpt-oss:120b', ...STREAM })).text.endsWith('[DONE]\n\n'), 'used up');
    });
  });

  describe('bursts', () => {
    it('429 with Retry-After, then 429 without, then normal (inference envelope)', async () => {
      sb().control.burst({ status: 429, count: 1, retryAfterSeconds: 2 });
      sb().control.burst({ status: 429, count: 1 });
      const a = await chat(sb(), { messages: [user('x')] });
      assert.equal(a.status, 429);
      assert.equal(a.headers.get('retry-after'), '2');
      assert.deepEqual([(a.json as ErrorEnvelope).error.type, (a.json as ErrorEnvelope).error.code], ['rate_limit_error', 'rate_limit_exceeded']);
      assert.ok(a.headers.get('x-ratelimit-limit-requests'));
      const b = await chat(sb(), { messages: [user('x')] });
      assert.equal(b.status, 429);
      assert.equal(b.headers.get('retry-after'), null);
      assert.equal((await chat(sb(), { messages: [user('x')] })).status, 200);
      assert.equal(sb().control.requests({ pathPrefix: '/v1/chat' })[0]?.fault, 'burst:429');
    });

    it('500 server_error and 503 service_unavailable_error, count honoured', async () => {
      sb().control.burst({ status: 500, count: 2 });
      for (let i = 0; i < 2; i++) {
        const r = await infer(sb(), '/embeddings', { model: 'bge-m3:567m', input: 'x' });
        assert.equal(r.status, 500);
        assert.equal((r.json as ErrorEnvelope).error.type, 'server_error');
      }
      sb().control.burst({ status: 503, count: 1, retryAfterSeconds: 1 });
      const r = await infer(sb(), '/v2/rerank', { model: 'qwen3-reranker:4b', query: 'q', documents: ['d'] });
      assert.equal(r.status, 503);
      assert.equal((r.json as ErrorEnvelope).error.type, 'service_unavailable_error');
      assert.equal(r.headers.get('retry-after'), '1');
      assert.equal((await infer(sb(), '/embeddings', { model: 'bge-m3:567m', input: 'x' })).status, 200);
    });

    it('scoped to a path prefix; console paths get the console error shape', async () => {
      const token = await consoleToken(sb());
      sb().control.burst({ status: 503, count: 1, pathPrefix: '/api/compute' });
      sb().control.burst({ status: 429, count: 1, pathPrefix: '/api/iam/v2/auth', retryAfterSeconds: 3 });
      assert.equal((await chat(sb(), { messages: [user('x')] })).status, 200);
      assert.equal((await consoleCall(sb(), token, '/api/iam/v2/roles')).status, 200);
      const r = await consoleCall(sb(), token, '/api/compute/v1/virtual-machines');
      assert.equal(r.status, 503);
      assert.deepEqual(Object.keys((r.json as ConsoleErrorEnvelope).error).sort(), ['message', 'status']);
      assert.equal((r.json as ConsoleErrorEnvelope).error.status, '503 Service Unavailable');
      const auth = await call(`${sb().consoleUrl}/api/iam/v2/auth/personal_access_token`, { body: { id: sb().credentials.patId, secret: sb().credentials.patSecret } });
      assert.equal(auth.status, 429);
      assert.equal(auth.headers.get('retry-after'), '3');
      assert.deepEqual(auth.json, { error: { status: '429 Too Many Requests', message: 'Too Many Requests' } });
      assert.equal((await consoleCall(sb(), token, '/api/compute/v1/virtual-machines')).status, 200);
      sb().control.burst({ status: 500, count: 1, pathPrefix: '/api/activity' });
      const failed = await consoleCall(sb(), token, '/api/activity/v1/activities');
      assert.equal(failed.status, 500);
      assert.equal((failed.json as ConsoleErrorEnvelope).error.status, '500 Internal Server Error');
    });
  });

  describe('deprecation headers', () => {
    it('Deprecation, Sunset and Link on a path prefix', async () => {
      sb().control.deprecate({ pathPrefix: '/api/compute/v1/virtual-machines', sunset: '2027-03-01T00:00:00Z', link: '/api/compute/v2/virtual-machines' });
      const token = await consoleToken(sb());
      const r = await consoleCall(sb(), token, '/api/compute/v1/virtual-machines');
      assert.match(r.headers.get('deprecation') ?? '', /^@\d+$/);
      assert.equal(r.headers.get('sunset'), 'Mon, 01 Mar 2027 00:00:00 GMT');
      assert.equal(r.headers.get('link'), '</api/compute/v2/virtual-machines>; rel="successor-version"');
      const other = await consoleCall(sb(), token, '/api/iam/v2/roles');
      assert.equal(other.headers.get('deprecation'), null);
      sb().control.deprecate({ pathPrefix: '/v1/completions', deprecation: '@1700000000' });
      const inf = await infer(sb(), '/completions', { model: 'gpt-oss:120b', messages: [user('x')] });
      assert.equal(inf.headers.get('deprecation'), '@1700000000');
      assert.ok(inf.headers.get('sunset'));
    });
  });

});

/**
 * Latency and pacing on a fake sandbox clock: the sandbox's waits are timers of `timers`, which
 * only fire when the test ticks it, so the assertions are about what is scheduled when, never
 * about how long a request took.
 */
describe('sandbox faults on a fake clock', () => {
  const timers = createClock(Date.now());
  const sb = useSandbox({ timers });
  beforeEach(() => sb().control.reset());
  afterEach(() => timers.reset());

  /** Starts a request and reports whether it has answered yet. */
  function pending(reply: Promise<Reply>): { done: () => boolean; reply: Promise<Reply> } {
    let done = false;
    const tracked = reply.finally(() => (done = true));
    return { done: () => done, reply: tracked };
  }

  it('latency delays responses on matching paths only, by the configured time', async () => {
    sb().control.setLatency({ ms: 150, pathPrefix: '/v1/models' });
    const models = pending(call(`${sb().inferenceUrl}/models`, { headers: bearer(sb().credentials.apiKey) }));
    await eventually(() => timers.countTimers() === 1);
    assert.equal((await chat(sb(), { messages: [user('fast')] })).status, 200, 'another path answers while /v1/models waits');
    assert.equal(models.done(), false);
    await timers.tickAsync(149);
    assert.equal(timers.countTimers(), 1, 'still waiting at 149 ms');
    await timers.tickAsync(1);
    assert.equal(timers.countTimers(), 0, 'released at 150 ms');
    assert.equal((await models.reply).status, 200);
  });

  it('chunkDelayMs spaces SSE events: one wait of exactly that time between two events', async () => {
    sb().control.setLatency({ ms: 0, chunkDelayMs: 20 });
    const stream = pending(chat(sb(), { messages: [user('a b c d')], stream: true }));
    const record = (): number => sb().control.requests({ pathPrefix: '/v1/chat' }).pop()?.chunksSent ?? 0;
    let waits = 0;
    for (;;) {
      await eventually(() => stream.done() || timers.countTimers() === 1);
      if (stream.done()) break;
      const sent = record();
      await timers.tickAsync(19);
      assert.equal(record(), sent, 'no event before 20 ms');
      await timers.tickAsync(1);
      await eventually(() => stream.done() || record() === sent + 1);
      waits += 1;
    }
    const events = chunks((await stream.reply).text).length + 1; // + [DONE]
    assert.ok(events > 3);
    assert.equal(waits, events - 1);
  });

  it('reset() clears every fault', async () => {
    sb().control.setLatency({ ms: 500 });
    sb().control.burst({ status: 500, count: 10 });
    sb().control.injectStreamFault({ kind: 'drop', afterChunks: 0, count: 10 });
    sb().control.deprecate({ pathPrefix: '/v1' });
    sb().control.reset();
    // The fake clock is never ticked: a latency left behind would hold this request forever.
    const r = await chat(sb(), STREAM);
    assert.equal(r.status, 200);
    assert.ok(r.text.endsWith('[DONE]\n\n'));
    assert.equal(r.headers.get('deprecation'), null);
    assert.equal(timers.countTimers(), 0);
    const snap = sb().control.snapshot();
    assert.deepEqual([snap.latency, snap.bursts, snap.streamFaults, snap.deprecations], [null, [], [], []]);
  });
});
