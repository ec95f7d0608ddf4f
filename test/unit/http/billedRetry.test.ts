// A billed POST (chat, completion, embeddings, rerank, transcription) is sent again at most once
// after a 5xx (issue 31, item 16: it was sent 4 times, each possibly billed). Counted on the
// sandbox's request log, on a fake clock (the faults harness drives it).
import assert from 'node:assert/strict';
import { ApiError, InterruptedError } from '../../../src/core/errors';
import { createInferenceClient, type InferenceClient } from '../../../src/core/inference';
import { drive, startWorld, stopWorld, type World } from '../faults/harness';

const MESSAGES = [{ role: 'user' as const, content: 'Hello sandbox' }];
/** Fake time any case may take: the longest backoff draw, a Retry-After of a few seconds. */
const BOUND_MS = 60_000;

interface Call {
  name: string;
  path: string;
  send(client: InferenceClient): Promise<unknown>;
}

const CALLS: readonly Call[] = [
  { name: 'chat', path: '/v1/chat/completions', send: (c) => c.chat({ model: 'gpt-oss:120b', messages: MESSAGES }) },
  { name: 'chat stream', path: '/v1/chat/completions', send: (c) => c.chatStream({ model: 'gpt-oss:120b', messages: MESSAGES }).consume() },
  { name: 'completion', path: '/v1/completions', send: (c) => c.complete({ model: 'gpt-oss:120b', prompt: 'Hello sandbox' }) },
  { name: 'completion stream', path: '/v1/completions', send: (c) => c.completeStream({ model: 'gpt-oss:120b', prompt: 'Hello sandbox' }).consume() },
  { name: 'embeddings', path: '/v1/embeddings', send: (c) => c.embed({ model: 'bge-m3:567m', input: ['a', 'b'] }) },
  { name: 'rerank', path: '/v1/rerank', send: (c) => c.rerank({ model: 'qwen3-reranker:4b', query: 'q', documents: ['a', 'b'] }) },
];

describe('a billed request is sent again at most once after a server error', () => {
  let world: World | undefined;
  let client: InferenceClient | undefined;

  beforeEach(async () => {
    world = await startWorld('contract');
    const w = world;
    client = createInferenceClient({ baseUrl: w.sandbox.inferenceUrl, apiKey: () => Promise.resolve(w.sandbox.credentials.apiKey), fetch: w.fetch });
  });
  afterEach(async () => {
    await client?.close();
    await stopWorld(world);
    world = undefined;
  });

  const on = (): { world: World; client: InferenceClient } => {
    if (!world || !client) throw new Error('no world');
    return { world, client };
  };
  const received = (w: World, path: string): Array<number | null | undefined> => w.sandbox.control.requests({ pathPrefix: path }).map((r) => r.status);

  for (const call of CALLS) {
    it(`${call.name}: a service that stays down (500 after 500) gets 2 requests, then the 500`, async () => {
      const { world: w, client: c } = on();
      w.sandbox.control.burst({ status: 500, count: 10, pathPrefix: call.path });
      const run = await drive(w, () => call.send(c), BOUND_MS);
      assert.ok(run.error instanceof ApiError && run.error.status === 500, String(run.error));
      assert.deepEqual(received(w, call.path), [500, 500]);
    });
  }

  it('chat stream: one 503 is retried once and answered', async () => {
    const { world: w, client: c } = on();
    w.sandbox.control.burst({ status: 503, count: 1, pathPrefix: '/v1/chat/completions' });
    const run = await drive(w, () => c.chatStream({ model: 'gpt-oss:120b', messages: MESSAGES }).consume(), BOUND_MS);
    assert.match(run.value?.text ?? String(run.error), /Hello sandbox/);
    assert.deepEqual(received(w, '/v1/chat/completions'), [503, 200]);
  });

  it("a 503's Retry-After (3 s) is waited for before the one retry", async () => {
    const { world: w, client: c } = on();
    w.sandbox.control.burst({ status: 503, count: 1, retryAfterSeconds: 3, pathPrefix: '/v1/embeddings' });
    const run = await drive(w, () => c.embed({ model: 'bge-m3:567m', input: 'a' }), BOUND_MS);
    assert.equal(run.error, undefined);
    assert.equal(run.elapsedMs, 3_000);
    assert.deepEqual(received(w, '/v1/embeddings'), [503, 200]);
  });

  it("a 503's Retry-After over the cap (an hour) is not slept through: one request, the 503", async () => {
    const { world: w, client: c } = on();
    w.sandbox.control.burst({ status: 503, count: 1, retryAfterSeconds: 3600, pathPrefix: '/v1/chat/completions' });
    const run = await drive(w, () => c.chat({ model: 'gpt-oss:120b', messages: MESSAGES }), BOUND_MS);
    assert.ok(run.error instanceof ApiError && run.error.status === 503, String(run.error));
    assert.equal(run.elapsedMs, 0);
    assert.deepEqual(received(w, '/v1/chat/completions'), [503]);
  });

  it('a 429 is a refusal, not billed: still retried as usual (2 refusals, then the answer)', async () => {
    const { world: w, client: c } = on();
    w.sandbox.control.burst({ status: 429, count: 2, pathPrefix: '/v1/chat/completions' });
    const run = await drive(w, () => c.chat({ model: 'gpt-oss:120b', messages: MESSAGES }), BOUND_MS);
    assert.equal(run.error, undefined);
    assert.deepEqual(received(w, '/v1/chat/completions'), [429, 429, 200]);
  });

  it('a stream cut after part of the answer arrived is never sent again', async () => {
    const { world: w, client: c } = on();
    // Spaced events, so what came before the fault has reached the client when it strikes.
    w.sandbox.control.setLatency({ ms: 0, chunkDelayMs: 50, pathPrefix: '/v1/chat/completions' });
    w.sandbox.control.injectStreamFault({ kind: 'drop', afterChunks: 3, pathPrefix: '/v1/chat/completions' });
    const run = await drive(w, () => c.chatStream({ model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'long 20' }] }).consume(), BOUND_MS);
    assert.ok(run.error instanceof InterruptedError, String(run.error));
    assert.equal(received(w, '/v1/chat/completions').length, 1);
  });

  it('a read (the model list) is still retried up to the attempts configured', async () => {
    const { world: w, client: c } = on();
    w.sandbox.control.burst({ status: 500, count: 10, pathPrefix: '/v1/models' });
    const run = await drive(w, () => c.models.refresh(), BOUND_MS);
    assert.ok(run.error instanceof ApiError);
    assert.equal(received(w, '/v1/models').length, 4);
  });
});
