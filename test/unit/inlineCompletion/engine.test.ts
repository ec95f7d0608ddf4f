import * as assert from 'node:assert/strict';
import { createClock } from '@sinonjs/fake-timers';
import { createInferenceClient, type InferenceClient } from '../../../src/core/inference';
import { InlineCompletionEngine, type DocumentSnapshot, type InlineCompletionEngineOptions } from '../../../src/core/inlineCompletion/engine';
import { UsageMeter } from '../../../src/core/usage/meter';
import { parseUsageSettings } from '../../../src/core/usage/settings';
import { startSandbox, type Sandbox } from '../../sandbox/index';

const MODEL = { id: 'qwen3-coder:30b', maxModelLen: 8192 };
const DEBOUNCE = 100;

function doc(before: string, after = '', languageId = 'typescript', path = 'src/a.ts'): DocumentSnapshot {
  return { id: `file:///ws/${path}`, languageId, relativePath: path, text: before + after, offset: before.length };
}

describe('core/inlineCompletion InlineCompletionEngine against the sandbox', () => {
  let sandbox: Sandbox;
  let client: InferenceClient;
  let clock: ReturnType<typeof createClock>;

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  after(async () => sandbox.close());
  beforeEach(() => {
    clock = createClock(Date.parse('2026-04-14T10:20:00Z'));
    client = createInferenceClient({ baseUrl: sandbox.inferenceUrl, apiKey: () => Promise.resolve(sandbox.credentials.apiKey), retry: { attempts: 1 } });
  });
  afterEach(async () => {
    await client.close();
    sandbox.control.reset();
  });

  function engine(over: Partial<InlineCompletionEngineOptions> = {}): InlineCompletionEngine {
    return new InlineCompletionEngine({
      complete: (request, signal) => client.completeStream(request, { signal }),
      model: () => MODEL,
      timers: clock,
      now: () => clock.now,
      debounceMs: DEBOUNCE,
      ...over,
    });
  }
  const completionRequests = (): number => sandbox.control.requests({ pathPrefix: '/v1/completions' }).length;

  /** Calls provide() and moves the fake clock past the debounce. */
  async function provide(e: InlineCompletionEngine, d: DocumentSnapshot, signal?: AbortSignal): Promise<ReturnType<InlineCompletionEngine['provide']> extends Promise<infer T> ? T : never> {
    const pending = e.provide(d, {}, signal);
    await clock.tickAsync(DEBOUNCE);
    return pending;
  }

  it('returns a single-line suggestion, then serves it from the cache and by type-ahead without requests', async () => {
    const e = engine();
    const items = await provide(e, doc('const total = ', ';\n'));
    assert.equal(items?.length, 1);
    const text = items?.[0]?.insertText ?? '';
    assert.match(text, /^value_[0-9a-f]{6}\(\)$/, 'the first line only, the suffix\'s ";" not repeated');
    assert.equal(items?.[0]?.source, 'network');
    assert.equal(completionRequests(), 1);
    const [body] = sandbox.control.requests({ pathPrefix: '/v1/completions' }).map((r) => r.body?.json as { messages: { role: string }[]; stream: boolean; max_tokens: number });
    assert.deepEqual(body?.messages.map((m) => m.role), ['system', 'user']);
    assert.equal(body?.stream, true);

    const typed = await e.provide(doc(`const total = ${text.slice(0, 4)}`, ';\n'));
    assert.deepEqual(typed, [{ insertText: text.slice(4), mode: 'single', source: 'typeAhead' }]);
    e.clearShown();
    const again = await e.provide(doc('const total = ', ';\n'));
    assert.deepEqual(again, [{ insertText: text, mode: 'single', source: 'cache' }]);
    assert.equal(completionRequests(), 1);
    assert.deepEqual({ ...e.stats }, { requests: 1, cacheHits: 1, typeAheadHits: 1, stoppedEarly: 1, superseded: 0, failures: 0 });
  });

  it('completes a block up to its end (TypeScript brace, Python dedent)', async () => {
    const e = engine();
    const ts = await provide(e, doc('export function f() {', ''));
    assert.match(ts?.[0]?.insertText ?? '', /^\n {4}body_[0-9a-f]{6}\(\)\n {4}return 0\n\}$/);
    assert.equal(ts?.[0]?.mode, 'multi');
    const py = await provide(e, doc('def f(x):\n    ', '\n', 'python', 'f.py'));
    assert.match(py?.[0]?.insertText ?? '', /^body_[0-9a-f]{6}\(\)\n {4}return 0$/);
  });

  it('a keystroke cancels the pending timer: only the last position is requested', async () => {
    const e = engine();
    const first = e.provide(doc('let a = '));
    await clock.tickAsync(DEBOUNCE - 1);
    const second = e.provide(doc('let ab = '));
    await clock.tickAsync(DEBOUNCE);
    assert.equal(await first, undefined);
    assert.match((await second)?.[0]?.insertText ?? '', /^value_/);
    assert.equal(completionRequests(), 1);
    assert.equal(e.stats.superseded, 1);
  });

  it('aborts the request in flight on cancellation; the sandbox sees the client go away', async () => {
    const sandboxClock = createClock(Date.now());
    const slow = await startSandbox({ port: 0, timers: sandboxClock });
    slow.control.setLatency({ ms: 10_000, pathPrefix: '/v1/completions' });
    const slowClient = createInferenceClient({ baseUrl: slow.inferenceUrl, apiKey: () => Promise.resolve(slow.credentials.apiKey), retry: { attempts: 1 } });
    try {
      const e = engine({ complete: (request, signal) => slowClient.completeStream(request, { signal }) });
      const cancel = new AbortController();
      const pending = e.provide(doc('let c = '), {}, cancel.signal);
      await clock.tickAsync(DEBOUNCE);
      for (let k = 0; k < 5000 && slow.control.requests().length === 0; k++) await new Promise((r) => setImmediate(r));
      assert.equal(slow.control.requests().length, 1, 'the request reached the server');
      cancel.abort();
      assert.equal(await pending, undefined);
      for (let k = 0; k < 5000 && !slow.control.requests()[0]?.clientClosedEarly; k++) await new Promise((r) => setImmediate(r));
      assert.equal(slow.control.requests()[0]?.clientClosedEarly, true);
      assert.equal(e.stats.failures, 0, 'a cancellation is no failure');
    } finally {
      await slowClient.close();
      await slow.close();
    }
  });

  it('cuts the stream once the suggestion is decided: the server stops generating (lock-step clock)', async () => {
    const DELAY = 20;
    const sandboxClock = createClock(Date.now());
    const paced = await startSandbox({ port: 0, timers: sandboxClock, chunkDelayMs: DELAY });
    const pacedClient = createInferenceClient({ baseUrl: paced.inferenceUrl, apiKey: () => Promise.resolve(paced.credentials.apiKey), retry: { attempts: 1 } });
    try {
      let received = 0;
      const e = engine({
        complete: (request, signal) => {
          const stream = pacedClient.completeStream(request, { signal });
          return { consume: (onEvent) => stream.consume((event) => { if (event.type === 'text') received += 1; onEvent?.(event); }) };
        },
      });
      let done = false;
      const pending = e.provide(doc('export function h() {')).finally(() => {
        done = true;
      });
      await clock.tickAsync(DEBOUNCE);
      let ticked = 0;
      for (let k = 0; k < 20_000 && !done; k++) {
        if (sandboxClock.countTimers() > 0 && received >= ticked) {
          ticked += 1;
          sandboxClock.tick(DELAY);
        }
        await new Promise((r) => setImmediate(r));
      }
      const items = await pending;
      assert.match(items?.[0]?.insertText ?? '', /^\n {4}body_[0-9a-f]{6}\(\)\n {4}return 0\n\}$/);
      for (let k = 0; k < 5000 && !paced.control.completionStreams()[0]?.abortedByClient; k++) await new Promise((r) => setImmediate(r));
      const [stream] = paced.control.completionStreams();
      assert.ok(stream?.abortedByClient, 'the engine aborted the request');
      assert.equal(stream.tokensStreamed, received, 'nothing generated past what the engine read');
      assert.ok(stream.tokensStreamed < 25 && stream.tokensPlanned > 150, `${stream.tokensStreamed} of ${stream.tokensPlanned}`);
      assert.equal(e.stats.stoppedEarly, 1);
    } finally {
      await pacedClient.close();
      await paced.close();
    }
  });

  it('stops after a 401 with one notification and sends nothing more', async () => {
    const stops: string[] = [];
    const bad = createInferenceClient({ baseUrl: sandbox.inferenceUrl, apiKey: () => Promise.resolve('not-the-sandbox-key'), retry: { attempts: 1 } });
    try {
      const e = engine({ complete: (request, signal) => bad.completeStream(request, { signal }), onStop: (s) => stops.push(s.kind === 'stopped' ? s.reason : s.kind) });
      assert.equal(await provide(e, doc('let d = ')), undefined);
      assert.equal(await provide(e, doc('let dd = ')), undefined);
      assert.deepEqual(stops, ['auth']);
      assert.equal(completionRequests(), 1);
      assert.equal(e.backoff.admit(clock.now).state.kind, 'stopped');
    } finally {
      await bad.close();
    }
  });

  it('backs off silently after a 429 instead of retrying on every keystroke', async () => {
    sandbox.control.burst({ status: 429, count: 1, retryAfterSeconds: 30, pathPrefix: '/v1/completions' });
    const e = engine();
    assert.equal(await provide(e, doc('let e = ')), undefined);
    assert.equal(await provide(e, doc('let ee = ')), undefined);
    assert.equal(completionRequests(), 1, 'paused: no request');
    clock.tick(30_000);
    assert.match((await provide(e, doc('let eee = ')))?.[0]?.insertText ?? '', /^value_/);
    assert.equal(completionRequests(), 2);
  });

  it('goes single-line only, with a longer debounce, when the tier projection nears the cap', async () => {
    const settings = parseUsageSettings({ tier: 'tier1' });
    const meter = new UsageMeter({ timeZone: 'UTC', settings: () => settings, now: () => clock.now });
    meter.record({ kind: 'chat', at: clock.now, model: 'm', promptTokens: 0, completionTokens: 140_000, reasoningTokens: 0, estimated: false });
    const e = engine();
    e.backoff.observeUsage(meter.snapshot(), clock.now);
    const pending = e.provide(doc('function g() {\n    ', '\n}\n'));
    await clock.tickAsync(DEBOUNCE);
    assert.equal(clock.countTimers(), 1, 'the debounce is longer: its timer is still pending');
    await clock.tickAsync(DEBOUNCE * 2);
    const items = await pending;
    assert.equal(items?.[0]?.mode, 'single');
    assert.match(items?.[0]?.insertText ?? '', /^body_[0-9a-f]{6}\(\)$/);
  });
});
