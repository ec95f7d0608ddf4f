import * as assert from 'node:assert/strict';
import { createClock } from '@sinonjs/fake-timers';
import { createInferenceClient, type InferenceClient } from '../../../src/core/inference';
import { InlineCompletionEngine, ORPHAN_GRACE_MS, type DocumentSnapshot, type InlineCompletionEngineOptions } from '../../../src/core/inlineCompletion/engine';
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
    assert.deepEqual(typed, [{ insertText: text.slice(4), mode: 'single', source: 'typeAhead', requestSeq: 1 }]);
    e.clearShown();
    const again = await e.provide(doc('const total = ', ';\n'));
    assert.deepEqual(again, [{ insertText: text, mode: 'single', source: 'cache' }]);
    assert.equal(completionRequests(), 1);
    assert.deepEqual({ ...e.stats }, { requests: 1, cacheHits: 1, typeAheadHits: 1, stoppedEarly: 1, superseded: 0, abandoned: 0, failures: 0 });
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
    // Mid-word: not a pause point, so the debounce applies.
    const first = e.provide(doc('let a'));
    await clock.tickAsync(DEBOUNCE - 1);
    const second = e.provide(doc('let ab'));
    await clock.tickAsync(DEBOUNCE);
    assert.equal(await first, undefined);
    assert.match((await second)?.[0]?.insertText ?? '', /^value_/);
    assert.equal(completionRequests(), 1);
    assert.equal(e.stats.superseded, 1);
  });

  it('aborts the request in flight when the caller cancels and no newer call follows; the sandbox sees the client go away', async () => {
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
      // No newer call within the grace (VS Code calls again at once when the user typed): abort.
      await clock.tickAsync(ORPHAN_GRACE_MS);
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

  it('requests at once at a pause point (no debounce), after the debounce mid-word', async () => {
    const e = engine();
    const atOnce = e.provide(doc('const now = ', ';\n'));
    await clock.tickAsync(0);
    for (let k = 0; k < 5000 && completionRequests() === 0; k++) await new Promise((r) => setImmediate(r));
    assert.equal(completionRequests(), 1, 'sent before any debounce');
    assert.match((await atOnce)?.[0]?.insertText ?? '', /^value_/);
    const midWord = e.provide(doc('const lat', ';\n'));
    await clock.tickAsync(DEBOUNCE - 1);
    assert.equal(completionRequests(), 1, 'still waiting mid-word');
    await clock.tickAsync(1);
    assert.match((await midWord)?.[0]?.insertText ?? '', /^value_/);
    assert.equal(completionRequests(), 2);
  });

  describe('speculative reuse (a slow server on a fake clock)', () => {
    let slow: Sandbox;
    let slowClient: InferenceClient;
    let serverClock: ReturnType<typeof createClock>;
    beforeEach(async () => {
      serverClock = createClock(Date.now());
      slow = await startSandbox({ port: 0, timers: serverClock });
      slow.control.setLatency({ ms: 1_000, pathPrefix: '/v1/completions' });
      slowClient = createInferenceClient({ baseUrl: slow.inferenceUrl, apiKey: () => Promise.resolve(slow.credentials.apiKey), retry: { attempts: 1 } });
    });
    afterEach(async () => {
      await slowClient.close();
      await slow.close();
    });
    const slowEngine = (): InlineCompletionEngine => engine({ complete: (request, signal) => slowClient.completeStream(request, { signal }) });
    /** Runs both clocks until `done()` (the server's latency passes, the engine's timers fire). */
    async function until(done: () => boolean): Promise<void> {
      for (let k = 0; k < 20_000 && !done(); k++) {
        if (serverClock.countTimers() > 0) serverClock.tick(1_000);
        await clock.tickAsync(1);
        await new Promise((r) => setImmediate(r));
      }
    }
    const settled = <T>(p: Promise<T>): { value: T | undefined; done: boolean } => {
      const state: { value: T | undefined; done: boolean } = { value: undefined, done: false };
      void p.then((v) => Object.assign(state, { value: v, done: true }));
      return state;
    };

    it('the user types what the answer in flight says before it arrives: served by type-ahead, one request', async () => {
      const e = slowEngine();
      const first = e.provide(doc('const total = ', ';\n'));
      await until(() => slow.control.requests().length === 1);
      const second = e.provide(doc('const total = v', ';\n'));
      const third = settled(e.provide(doc('const total = valu', ';\n')));
      assert.equal(await first, undefined, 'superseded by the keystroke');
      assert.equal(await second, undefined);
      await until(() => third.done);
      assert.deepEqual(third.value?.map((i) => [i.source, i.requestSeq]), [['typeAhead', 1]]);
      assert.match(third.value?.[0]?.insertText ?? '', /^e_[0-9a-f]{6}\(\)$/, 'the rest of "value_<h>()"');
      assert.equal(slow.control.requests().length, 1, 'no second request');
      assert.deepEqual([e.stats.requests, e.stats.abandoned], [1, 0]);
    });

    it('the user types something the streamed answer contradicts: it is aborted, and the new position gets its own request', async () => {
      slow.control.setLatency({ ms: 1_000, chunkDelayMs: 1_000, pathPrefix: '/v1/completions' });
      const e = slowEngine();
      void e.provide(doc('let n = ', ';\n'));
      await until(() => slow.control.requests().length === 1);
      const typed = settled(e.provide(doc('let n = x', ';\n')));
      await until(() => typed.done);
      assert.match(typed.value?.[0]?.insertText ?? '', /^value_[0-9a-f]{6}\(\)$/);
      assert.equal(typed.value?.[0]?.requestSeq, 2);
      const [aborted] = slow.control.completionStreams();
      assert.equal(aborted?.abortedByClient, true, 'the first request was aborted');
      assert.ok((aborted?.tokensStreamed ?? 99) <= 2, `it stopped after ${aborted?.tokensStreamed} tokens`);
      assert.deepEqual([e.stats.requests, e.stats.abandoned], [2, 1]);
    });

    it('a deletion or another line makes the request in flight useless: aborted at once', async () => {
      const e = slowEngine();
      void e.provide(doc('let m = ', ';\n'));
      await until(() => slow.control.requests().length === 1);
      void e.provide(doc('let m =', ';\n'));
      await until(() => slow.control.requests()[0]?.clientClosedEarly === true);
      assert.equal(slow.control.requests()[0]?.clientClosedEarly, true);
      assert.equal(e.stats.abandoned, 1);
      e.cancel();
    });
  });

  it('an explicit request returns a fresh suggestion and the type-ahead one (Alt+] cycles), deduplicated', async () => {
    const e = engine();
    const first = (await provide(e, doc('const pair = ', ';\n')))?.[0]?.insertText ?? '';
    assert.match(first, /^value_/);
    const typed = await e.provide(doc('const pair = v', ';\n'));
    assert.deepEqual(typed?.map((i) => i.source), ['typeAhead']);
    const pending = e.provide(doc('const pair = v', ';\n'), {}, undefined, { explicit: true });
    await clock.tickAsync(0);
    const both = await pending;
    assert.deepEqual(both?.map((i) => i.source), ['network', 'typeAhead']);
    assert.equal(both?.[1]?.insertText, first.slice(1));
    assert.notEqual(both?.[0]?.insertText, both?.[1]?.insertText);
    // At the first position the cache and type-ahead hold the same text: one item.
    const same = await e.provide(doc('const pair = ', ';\n'), {}, undefined, { explicit: true });
    assert.deepEqual(same?.map((i) => [i.source, i.insertText]), [['cache', first]]);
    assert.equal(completionRequests(), 2);
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
