import * as assert from 'node:assert/strict';
import { createInferenceClient, type InferenceClient } from '../../../src/core/inference';
import { rerankDocuments, searchInference, trimForRerank, type RerankFn } from '../../../src/core/search';
import type { RerankRequest } from '../../../src/core/inference/rerank/types';
import { eventually, useSandbox } from '../sandbox/helpers';
import type { Sandbox } from '../../sandbox/index';
import { engineFor, ManualTimers, TempWorkspace } from './helpers';

function client(sb: Sandbox, options: { apiKey?: string; overrides?: Record<string, 'chat' | 'rerank'> } = {}): InferenceClient {
  return createInferenceClient({
    baseUrl: sb.inferenceUrl,
    apiKey: () => Promise.resolve(options.apiKey ?? sb.credentials.apiKey),
    retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
    ...(options.overrides ? { modelKindOverrides: options.overrides } : {}),
  });
}

/** A workspace where the lexical order and the rerank model's order differ. */
function workspace(): TempWorkspace {
  const ws = new TempWorkspace();
  // A short chunk with the key words (BM25 likes it), and a long one holding every word of the
  // question (the sandbox's rerank model scores the share of the question's words present).
  ws.write('src/tokens.ts', '// refresh auth token expire\nexport const x = 1;\n');
  ws.write('src/session.ts', `// where do we refresh the auth token when it expires? here, in the session keeper\n${Array.from({ length: 12 }, (_, i) => `export const setting${i} = 'alpha beta gamma delta ${i}';`).join('\n')}\n`);
  for (let i = 0; i < 60; i++) ws.write(`gen/file${i}.ts`, `export const token${i} = "value ${i}"; // token number ${i}\n`);
  return ws;
}

const QUESTION = 'where do we refresh the auth token when it expires';

for (const profile of ['contract', 'production'] as const) {
  describe(`search: rerank against the sandbox (${profile})`, function () {
    const sandbox = useSandbox({ profile });
    let ws: TempWorkspace;
    const clients: InferenceClient[] = [];
    const make = (options: Parameters<typeof client>[1] = {}): InferenceClient => {
      const c = client(sandbox(), options);
      clients.push(c);
      return c;
    };
    before(() => {
      ws = workspace();
    });
    after(() => ws.dispose());
    afterEach(async () => {
      sandbox().control.reset();
      await Promise.all(clients.splice(0).map((c) => c.close()));
    });

    for (const version of ['v1', 'v2'] as const) {
      it(`reranks the local candidates through /${version}/rerank, best first, with billed search units`, async () => {
        const c = make();
        const { engine } = engineFor(ws.root, { settings: { rerank: { enabled: true, model: '', version, timeoutMs: 10_000, batchSize: 25, concurrency: 2 } }, inference: searchInference(() => c) });
        await engine.open();
        sandbox().control.clearRequests();
        let local: string[] = [];
        const result = await engine.search(QUESTION, { onLocal: (hits) => (local = hits.map((h) => h.path)) });
        assert.equal(result.reranked, true);
        assert.deepEqual(result.notes, []);
        assert.equal(result.hits[0]?.path, 'src/session.ts', 'the chunk with every word of the question wins');
        assert.notEqual(local[0], 'src/session.ts', 'the lexical order was different');
        const scores = result.hits.flatMap((h) => (h.rerankScore === undefined ? [] : [h.rerankScore]));
        assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
        const requests = sandbox().control.requests({ pathPrefix: `/${version}/rerank` });
        assert.equal(requests.length, Math.ceil(result.candidates / 25));
        assert.equal(result.searchUnits, requests.length, 'one search unit per request of up to 100 documents');
        const body = requests[0]?.body?.json as { model: string; top_n: number; documents: string[] };
        assert.equal(body.model, 'qwen3-reranker:4b');
        assert.equal(body.top_n, 20);
      });
    }

    it('merges parallel batches exactly: the same top N as one big request', async () => {
      const c = make();
      const base = { enabled: true, model: '', version: 'v1' as const, timeoutMs: 10_000, concurrency: 3 };
      const small = engineFor(ws.root, { settings: { rerank: { ...base, batchSize: 7 } }, inference: searchInference(() => c) });
      const big = engineFor(ws.root, { settings: { rerank: { ...base, batchSize: 1000 } }, inference: searchInference(() => c) });
      await small.engine.open();
      await big.engine.open();
      sandbox().control.clearRequests();
      const a = await small.engine.search('token value number 7');
      const batched = sandbox().control.requests({ pathPrefix: '/v1/rerank' }).length;
      const b = await big.engine.search('token value number 7');
      assert.equal(batched, Math.ceil(a.candidates / 7));
      // (Equal scores may come in another order: local ties depend on the order files were read.)
      assert.deepEqual(a.hits.map((h) => h.rerankScore), b.hits.map((h) => h.rerankScore));
      assert.equal(a.hits[0]?.path, 'gen/file7.ts');
      assert.equal(b.hits[0]?.path, 'gen/file7.ts');
    });

    it('falls back to the local order, with a note, when no rerank model is listed', async () => {
      const c = make({ overrides: { 'qwen3-reranker:4b': 'chat' } });
      const { engine } = engineFor(ws.root, { inference: searchInference(() => c) });
      await engine.open();
      const result = await engine.search(QUESTION);
      assert.equal(result.reranked, false);
      assert.deepEqual(result.notes.map((n) => n.kind), ['no_rerank_model']);
      assert.ok(result.hits.length > 0);
      assert.deepEqual(result.hits.map((h) => h.localRank), result.hits.map((_, i) => i + 1));
      assert.equal(sandbox().control.requests({ pathPrefix: '/v1/rerank' }).length, 0);
    });

    it('falls back on a server error (500 after the retry), an unknown model (404) and a rejected key (401)', async () => {
      const c = make();
      const { engine, settings } = engineFor(ws.root, { inference: searchInference(() => c) });
      await engine.open();
      sandbox().control.burst({ status: 500, count: 50, pathPrefix: '/v1/rerank' });
      const failed = await engine.search(QUESTION);
      assert.equal(failed.reranked, false);
      const note = failed.notes[0];
      assert.equal(note?.kind, 'rerank_failed');
      assert.equal(note.kind === 'rerank_failed' && (note.error as { status?: number }).status, 500);
      assert.ok(failed.hits.length > 0);

      sandbox().control.reset();
      settings.rerank.model = 'no-such-reranker:1b';
      const unknown = await engine.search(QUESTION);
      const n2 = unknown.notes[0];
      assert.equal(n2?.kind === 'rerank_failed' && (n2.error as { kind?: string; code?: string }).code, 'model_not_found');
      settings.rerank.model = '';

      const wrong = make({ apiKey: 'sk-wrong' });
      const rejected = engineFor(ws.root, { inference: searchInference(() => wrong) });
      await rejected.engine.open();
      const denied = await rejected.engine.search(QUESTION);
      const n3 = denied.notes[0];
      assert.equal(n3?.kind === 'rerank_failed' && (n3.error as { kind?: string }).kind, 'auth');
      assert.ok(denied.hits.length > 0);
    });

    it('falls back when the rerank model does not answer before the deadline (fired by hand)', async () => {
      const c = make();
      const { engine, timers } = engineFor(ws.root, { inference: searchInference(() => c) });
      await engine.open();
      sandbox().control.setLatency({ ms: 60_000, pathPrefix: '/v1/rerank' });
      const pending = engine.search(QUESTION);
      await eventually(() => sandbox().control.requests({ pathPrefix: '/v1/rerank' }).length > 0, 5000);
      assert.equal(timers.fire(10_000), 1);
      const result = await pending;
      assert.equal(result.reranked, false);
      assert.deepEqual(result.notes, [{ kind: 'rerank_timeout', timeoutMs: 10_000 }]);
      assert.ok(result.hits.length > 0);
    });

    it("the caller's cancel is a typed cancellation, not a fallback", async () => {
      const c = make();
      const { engine } = engineFor(ws.root, { inference: searchInference(() => c) });
      await engine.open();
      sandbox().control.setLatency({ ms: 60_000, pathPrefix: '/v1/rerank' });
      const controller = new AbortController();
      const pending = engine.search(QUESTION, { signal: controller.signal });
      await eventually(() => sandbox().control.requests({ pathPrefix: '/v1/rerank' }).length > 0, 5000);
      controller.abort();
      await assert.rejects(pending, (e: unknown) => (e as { kind?: string }).kind === 'cancelled');
    });
  });
}

describe('search: rerank batching against max_model_len', () => {
  it('trims each document so query + document fit the context (estimate biased high)', () => {
    const query = 'q'.repeat(30); // 10 tokens at 3 chars/token
    assert.equal(trimForRerank(query, 'd'.repeat(1000), 100)?.length, (100 - 10 - 16) * 3);
    assert.equal(trimForRerank(query, 'short', 100), 'short');
    assert.equal(trimForRerank('q'.repeat(300), 'doc', 100), undefined);
  });

  it('sends batches of the configured size with top_n = min(topN, batch) and at most `concurrency` in flight', async () => {
    const seen: RerankRequest[] = [];
    let inFlight = 0;
    let peak = 0;
    const release: Array<() => void> = [];
    const fake: RerankFn = async (request) => {
      seen.push(request);
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise<void>((resolve) => release.push(resolve));
      inFlight--;
      return { id: 'r', searchUnits: 1, meta: {} as never, results: request.documents.map((d, index) => ({ index, relevanceScore: d.length / 1000 })) };
    };
    const docs = Array.from({ length: 23 }, (_, i) => 'x'.repeat(10 + i * 40));
    const timers = new ManualTimers();
    const pending = rerankDocuments(fake, 'which', docs, { model: 'm', maxModelLen: 200, version: 'v2', topN: 4, batchSize: 5, concurrency: 2, timeoutMs: 1000, setTimer: timers.set });
    while (seen.length < 5) {
      await new Promise((resolve) => setImmediate(resolve));
      release.splice(0).forEach((r) => r());
    }
    const outcome = await pending;
    assert.equal(peak, 2);
    assert.deepEqual(seen.map((r) => r.documents.length), [5, 5, 5, 5, 3]);
    assert.deepEqual(seen.map((r) => r.top_n), [4, 4, 4, 4, 3]);
    assert.ok(seen.every((r) => r.version === 'v2' && r.documents.every((d) => d.length <= (200 - 2 - 16) * 3)));
    assert.ok(outcome.ok);
    assert.equal(outcome.ok && outcome.searchUnits, 5);
    // Documents from #14 on are trimmed to the same length, so they tie; ties keep the submitted order.
    assert.deepEqual(outcome.ok && outcome.scores.map((s) => s.index), [14, 15, 16, 17]);
    assert.equal(timers.count, 0, 'the deadline is cleared');
  });

  it('a query longer than the context falls back without any request', async () => {
    let calls = 0;
    const fake: RerankFn = () => {
      calls++;
      return Promise.reject(new Error('not expected'));
    };
    const outcome = await rerankDocuments(fake, 'long '.repeat(100), ['doc'], { model: 'm', maxModelLen: 50, version: 'v1', topN: 5, timeoutMs: 1000 });
    assert.deepEqual(outcome, { ok: false, reason: 'query_too_long' });
    assert.equal(calls, 0);
  });
});
