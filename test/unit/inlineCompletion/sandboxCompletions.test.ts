import * as assert from 'node:assert/strict';
import { createClock } from '@sinonjs/fake-timers';
import { createInferenceClient, type InferenceClient } from '../../../src/core/inference';
import { startSandbox, type Sandbox } from '../../sandbox/index';
import { completionContinuation, completionTokensOf } from '../../sandbox/inference/completionScript';

const MODEL = 'qwen3-coder:30b';

function prompt(before: string, after = ''): string {
  return `Language: typescript\nFile: src/a.ts\n${before}<CURSOR>${after}`;
}

/** Lets the event loop run until `done()` holds (bounded; no fixed sleep). */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let k = 0; k < 5000 && !done(); k++) await new Promise((r) => setImmediate(r));
  assert.ok(done(), `timed out waiting for ${what}`);
}

describe('sandbox: code-completion prompts on /v1/completions', () => {
  let sandbox: Sandbox;
  let client: InferenceClient;

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
    client = createInferenceClient({ baseUrl: sandbox.inferenceUrl, apiKey: () => Promise.resolve(sandbox.credentials.apiKey), retry: { attempts: 1 } });
  });
  after(async () => {
    await client.close();
    await sandbox.close();
  });
  afterEach(() => sandbox.control.reset());

  it('answers with a continuation that depends on the text before the marker, one token per delta', async () => {
    const deltas: string[] = [];
    const result = await client.completeStream({ model: MODEL, prompt: prompt('const total = ') }).consume((e) => {
      if (e.type === 'text') deltas.push(e.text);
    });
    const expected = completionContinuation(prompt('const total = ')) ?? '';
    assert.match(expected, /^value_[0-9a-f]{6}\(\)\nnext_[0-9a-f]{6}\(\)\nfiller_1\(\)\n/);
    assert.equal(result.text, expected);
    assert.deepEqual(deltas, completionTokensOf(expected));
    assert.notEqual(completionContinuation(prompt('const other = ')), expected);
    assert.equal(completionContinuation(prompt('const total = ', 'ignored after')), expected, 'only the text before the marker counts');
    const [stream] = sandbox.control.completionStreams();
    assert.deepEqual(stream && { ...stream, seq: 0 }, { seq: 0, model: MODEL, tokensPlanned: deltas.length, tokensStreamed: deltas.length, abortedByClient: false, complete: true });
  });

  it('opens and closes blocks for block openers and doc comments', () => {
    const block = completionContinuation('function f() {<CURSOR>') ?? '';
    assert.match(block, /^\n {4}body_[0-9a-f]{6}\(\)\n {4}return 0\n\}\nafter_/);
    const inside = completionContinuation('def f(x):\n    <CURSOR>') ?? '';
    assert.match(inside, /^body_[0-9a-f]{6}\(\)\n {4}return 0\nafter_/);
    const doc = completionContinuation('  /**<CURSOR>') ?? '';
    assert.match(doc, /^\n {3}\* Doc [0-9a-f]{6}\.\n {3}\*\/\n {2}after_/);
    assert.equal(completionContinuation('no marker here'), undefined);
  });

  it('cuts the continuation at max_tokens and finishes with length', async () => {
    const result = await client.complete({ model: MODEL, prompt: prompt('x = '), max_tokens: 3 });
    assert.equal(result.finishReason, 'length');
    assert.equal(result.text.length <= 12, true);
  });

  it('serves the stream log over HTTP and clears it', async () => {
    await client.complete({ model: MODEL, prompt: prompt('y = ') }).catch(() => undefined);
    await client.completeStream({ model: MODEL, prompt: prompt('y = ') }).consume();
    const listed = (await (await fetch(`${sandbox.controlUrl}/completions`)).json()) as { streams: { tokensStreamed: number; complete: boolean }[] };
    assert.equal(listed.streams.length, 1, 'only streamed answers are logged');
    assert.equal(listed.streams[0]?.complete, true);
    assert.equal((await fetch(`${sandbox.controlUrl}/completions`, { method: 'DELETE' })).status, 200);
    assert.deepEqual(sandbox.control.completionStreams(), []);
  });
});

describe('sandbox: a completion stream aborted by the client stops generating', () => {
  const DELAY = 20;
  let sandbox: Sandbox;
  let client: InferenceClient;
  let clock: ReturnType<typeof createClock>;

  before(async () => {
    clock = createClock(Date.now());
    sandbox = await startSandbox({ port: 0, timers: clock, chunkDelayMs: DELAY });
    client = createInferenceClient({ baseUrl: sandbox.inferenceUrl, apiKey: () => Promise.resolve(sandbox.credentials.apiKey), retry: { attempts: 1 } });
  });
  after(async () => {
    await client.close();
    await sandbox.close();
  });

  it('records the tokens streamed before the abort (lock-step: one token per tick)', async () => {
    const abort = new AbortController();
    let received = 0;
    let ticked = 0;
    let finished = false;
    let text = '';
    const run = client
      .completeStream({ model: MODEL, prompt: prompt('let x = ') }, { signal: abort.signal })
      .consume((e) => {
        if (e.type !== 'text') return;
        received += 1;
        text += e.text;
        if (text.includes('\n')) abort.abort();
      })
      .then(
        () => 'done',
        (error: unknown) => (error as { kind?: string }).kind ?? 'error',
      )
      .finally(() => {
        finished = true;
      });
    // Advance the sandbox clock one chunk delay at a time, only once the previous token arrived.
    await until(() => {
      if (!finished && clock.countTimers() > 0 && received >= ticked) {
        ticked += 1;
        clock.tick(DELAY);
      }
      return finished;
    }, 'the client to stop');
    assert.equal(await run, 'cancelled');
    await until(() => sandbox.control.completionStreams()[0]?.abortedByClient === true, 'the server to see the abort');
    const [stream] = sandbox.control.completionStreams();
    assert.ok(stream);
    assert.equal(stream.tokensStreamed, completionTokensOf(text).length, 'no token written after the one that decided');
    assert.ok(stream.tokensPlanned > 100 && stream.tokensStreamed < 10);
    assert.equal(stream.complete, false);
  });
});
