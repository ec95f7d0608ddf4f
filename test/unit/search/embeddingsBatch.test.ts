import * as assert from 'node:assert/strict';
import { createInferenceClient, type InferenceClient } from '../../../src/core/inference';
import { BatchError, cancelBatch, completedOrThrow, matchResults, openResults, readResults, submitBatchJob, waitForBatch, type Batch, type BatchRequest, type BatchResult } from '../../../src/core/inference/batch';
import { EmbeddingResults, lineVectors, planEmbeddingsBatch, searchInference, type EmbeddingLine, type EmbeddingsApplied } from '../../../src/core/search';
import { startBatchRig, type BatchRig } from '../batch/helpers';
import { engineFor, TempWorkspace, type EngineRig } from './helpers';

const MODEL = 'bge-m3:567m';
const STEP = 60_000;
const settings = { embeddingModel: MODEL, rerank: { enabled: false, model: '', version: 'v1' as const, timeoutMs: 1000, batchSize: 25, concurrency: 1 } };

/** Sends the requests as one batch on /v1/embeddings, waits on the sandbox clock, returns the final batch. */
async function sendAndWait(rig: BatchRig, requests: BatchRequest[]): Promise<Batch> {
  const sent = await submitBatchJob(rig.transport, requests, { endpoint: '/v1/embeddings', tmpDir: rig.tmp, name: 'embeddings' });
  assert.equal(sent.error, undefined);
  const batch = sent.parts[0]?.batch;
  assert.ok(batch);
  assert.equal(batch.endpoint, '/v1/embeddings');
  return waitForBatch(rig.transport, batch.id, { sleep: rig.sleep, initialDelayMs: 30_000, maxDelayMs: 60_000 });
}

/** Reads a completed batch's results into the index, as the batch job service hands them over. */
async function applyResults(rig: BatchRig, engine: EngineRig['engine'], lines: EmbeddingLine[], batch: Batch): Promise<EmbeddingsApplied> {
  const done = completedOrThrow(batch);
  const collector = new EmbeddingResults(lines);
  const summary = await matchResults(
    lines.map((l) => l.customId),
    readResults(await openResults(rig.transport, done.outputFileId ?? '')),
    (r: BatchResult) => collector.add(r),
  );
  return collector.store((vectors) => engine.storeEmbeddings(MODEL, vectors), summary.missing);
}

for (const profile of ['contract', 'production'] as const) {
  describe(`search embeddings as a batch job over real HTTP (${profile})`, () => {
    let rig: BatchRig;
    let ws: TempWorkspace;
    let client: InferenceClient;
    let search: EngineRig;

    beforeEach(async () => {
      rig = await startBatchRig({ profile, batchStepMs: STEP, retry: { attempts: 1 } });
      client = createInferenceClient({ baseUrl: rig.sandbox.inferenceUrl, apiKey: () => Promise.resolve(rig.sandbox.credentials.apiKey), retry: { attempts: 1 } });
      ws = new TempWorkspace();
      ws.write('src/session.ts', 'export function keepSessionAlive() {\n  // renew credentials before expiry\n  return renew();\n}\n');
      ws.write('src/cart.ts', 'export function addItem(cart, item) { cart.items.push(item); }\n');
      ws.write('docs/tokens.md', '# Tokens\n\nAccess tokens rotate hourly; the refresh grant keeps a login going.\n');
      search = engineFor(ws.root, { settings, inference: searchInference(() => client) });
      await search.engine.open();
    });
    afterEach(async () => {
      search.engine.dispose();
      await client.close();
      await rig.close();
      ws.dispose();
    });

    it('sends the chunks without vectors as /v1/embeddings lines at both prices; once completed the index stores them and a search uses them with only the query embedded', async () => {
      const pending = await search.engine.pendingEmbeddings(MODEL);
      assert.equal(pending.length, 3, 'one chunk per small file');
      const plan = planEmbeddingsBatch(pending, MODEL, 8192);
      assert.equal(plan.files, 3);
      assert.ok(plan.estimate.inputTokens > 0 && plan.estimate.outputTokens === 0);
      assert.ok(Math.abs(plan.estimate.batchEur * 2 - plan.estimate.standardEur) < 1e-12, 'embedding inputs at half the input rate');
      rig.sandbox.control.clearRequests();
      const final = await sendAndWait(rig, plan.requests);
      assert.equal(final.status, 'completed');
      assert.equal(rig.sandbox.control.requests({ pathPrefix: '/v1/embeddings' }).length, 0, 'nothing embedded interactively');

      const applied = await applyResults(rig, search.engine, plan.lines, final);
      assert.deepEqual(applied, { stored: 3, stale: 0, failed: [] });
      assert.deepEqual(await search.engine.pendingEmbeddings(MODEL), [], 'every chunk has its vector');

      rig.sandbox.control.clearRequests();
      const result = await search.engine.search('tokens rotate hourly refresh');
      assert.ok(result.hits.some((h) => h.path === 'docs/tokens.md'));
      const embedCalls = rig.sandbox.control.requests({ pathPrefix: '/v1/embeddings' });
      assert.equal(embedCalls.length, 1, 'only the query was embedded: the chunk vectors came from the batch');
    });

    it('a chunk whose file changed since it was sent is not stored with the stale vector', async () => {
      const pending = await search.engine.pendingEmbeddings(MODEL);
      const plan = planEmbeddingsBatch(pending, MODEL, 8192);
      const final = await sendAndWait(rig, plan.requests);
      ws.write('src/cart.ts', 'export function removeItem(cart, item) { cart.items = cart.items.filter((i) => i !== item); }\n');
      search.engine.notifyChanged('src/cart.ts');
      search.timers.fire();
      await search.engine.flush();
      const applied = await applyResults(rig, search.engine, plan.lines, final);
      assert.equal(applied.stored, 2);
      assert.equal(applied.stale, 1, 'the old text of src/cart.ts');
      const still = await search.engine.pendingEmbeddings(MODEL);
      assert.deepEqual(still.map((p) => p.path), ['src/cart.ts'], 'its new text still has no vector');
      assert.match(still[0]?.text ?? '', /removeItem/);
    });

    it('a chunk whose file changed before its events were applied is not sent (never keyed by the hash of its old text)', async () => {
      assert.equal((await search.engine.pendingEmbeddings(MODEL)).length, 3);
      ws.write('src/cart.ts', 'export function emptyCart(cart) { cart.items = []; }\n');
      const pending = await search.engine.pendingEmbeddings(MODEL);
      assert.deepEqual(pending.map((p) => p.path).sort(), ['docs/tokens.md', 'src/session.ts']);
    });

    it('a partly failed batch stores the good lines and lists the failed ones with why', async () => {
      const pending = await search.engine.pendingEmbeddings(MODEL);
      const plan = planEmbeddingsBatch(pending, MODEL, 8192);
      const bad = { customId: 'emb-bad', body: { model: 'no-such-embedder:1b', input: ['x'] } };
      const lines = [...plan.lines, { customId: 'emb-bad', hashes: ['f'.repeat(40)] }];
      const final = await sendAndWait(rig, [...plan.requests, bad]);
      assert.equal(final.requestCounts.failed, 1);
      const applied = await applyResults(rig, search.engine, lines, final);
      assert.equal(applied.stored, 3);
      assert.deepEqual(applied.failed.map((f) => [f.customId, f.chunks]), [['emb-bad', 1]]);
      assert.match(applied.failed[0]?.message ?? '', /no-such-embedder/);
    });

    it('a cancelled or expired batch gives no vectors: nothing is stored', async () => {
      const pending = await search.engine.pendingEmbeddings(MODEL);
      const plan = planEmbeddingsBatch(pending, MODEL, 8192);
      const sent = await submitBatchJob(rig.transport, plan.requests, { endpoint: '/v1/embeddings', tmpDir: rig.tmp });
      const id = sent.parts[0]?.batch.id ?? '';
      await rig.sleep(STEP);
      const cancelled = await cancelBatch(rig.transport, id);
      assert.throws(() => completedOrThrow(cancelled), (e: unknown) => e instanceof BatchError && e.reason === 'cancelled');

      rig.sandbox.control.setBatches({ hold: true });
      const held = await sendAndWait(rig, plan.requests);
      assert.equal(held.status, 'expired');
      await assert.rejects(applyResults(rig, search.engine, plan.lines, held), (e: unknown) => e instanceof BatchError && e.reason === 'expired');
      assert.equal((await search.engine.pendingEmbeddings(MODEL)).length, 3, 'still without vectors');
    });

    for (const [available, status] of [['not_found', 404], ['forbidden', 403]] as const) {
      it(`an account without the Batch API (${status}): BatchError unavailable, nothing created`, async () => {
        rig.sandbox.control.setBatches({ available });
        const plan = planEmbeddingsBatch(await search.engine.pendingEmbeddings(MODEL), MODEL, 8192);
        const sent = await submitBatchJob(rig.transport, plan.requests, { endpoint: '/v1/embeddings', tmpDir: rig.tmp });
        assert.equal(sent.parts.length, 0);
        assert.ok(sent.error instanceof BatchError && sent.error.reason === 'unavailable');
      });
    }
  });
}

describe('search embeddings batch: lines and answers', () => {
  it('groups inputs as the interactive pass does, trimmed to the context, and keeps the hashes in order', () => {
    const pending = Array.from({ length: 70 }, (_, i) => ({ hash: i.toString(16).padStart(40, '0'), path: `f${i % 7}.ts`, text: `chunk ${i} ${'w '.repeat(i === 3 ? 5000 : 1)}` }));
    const plan = planEmbeddingsBatch(pending, MODEL, 512);
    assert.deepEqual(plan.lines.map((l) => l.hashes.length), [64, 6]);
    assert.equal(plan.lines.flatMap((l) => l.hashes).join(), pending.map((p) => p.hash).join());
    const inputs = (plan.requests[0]?.body as { input: string[] }).input;
    assert.ok((inputs[3]?.length ?? 0) <= (512 - 8) * 3, 'trimmed to the model context');
    assert.equal(plan.files, 7);
  });

  it('an answer missing a vector, out of range or not numbers gives no vectors for the line', () => {
    const line = { customId: 'emb-0', hashes: ['a'.repeat(40), 'b'.repeat(40)] };
    assert.deepEqual(lineVectors(line, { data: [{ index: 1, embedding: [0, 1] }, { index: 0, embedding: [1, 0] }] }), { vectors: [{ hash: 'a'.repeat(40), vector: Float32Array.from([1, 0]) }, { hash: 'b'.repeat(40), vector: Float32Array.from([0, 1]) }] });
    assert.ok('error' in lineVectors(line, { data: [{ index: 0, embedding: [1, 0] }] }));
    assert.ok('error' in lineVectors(line, { data: [{ index: 0, embedding: [1, 0] }, { index: 5, embedding: [1] }] }));
    assert.ok('error' in lineVectors(line, { data: [{ index: 0, embedding: ['x'] }, { index: 1, embedding: [1] }] }));
    assert.ok('error' in lineVectors(line, { choices: [] }));
  });
});
