import * as assert from 'node:assert/strict';
import { createInferenceClient, type InferenceClient } from '../../../src/core/inference';
import { EmbeddingCache, embedTexts, planEmbeddingBatches, reciprocalRankFusion, searchInference } from '../../../src/core/search';
import { useSandbox } from '../sandbox/helpers';
import { engineFor, TempWorkspace } from './helpers';

describe('search: embedding batches against max_model_len', () => {
  it('trims every input to the context and closes a batch at the input or token budget', () => {
    const texts = ['a'.repeat(100), 'b'.repeat(5000), 'c'.repeat(300), '   ', 'd'.repeat(10)];
    const batches = planEmbeddingBatches(texts, { maxModelLen: 512, maxBatchInputs: 2, maxBatchTokens: 10_000 });
    assert.deepEqual(batches.map((b) => b.indices), [[0, 1], [2, 3], [4]]);
    assert.equal(batches[0]?.inputs[1]?.length, (512 - 8) * 3, 'trimmed to the context (3 chars per token, biased high)');
    assert.equal(batches[1]?.inputs[1], '(empty)', 'a blank input is never sent empty');

    const byTokens = planEmbeddingBatches(['x'.repeat(300), 'y'.repeat(300), 'z'.repeat(300)], { maxModelLen: 512, maxBatchTokens: 200 });
    assert.deepEqual(byTokens.map((b) => b.indices), [[0, 1], [2]], '100 tokens each, 200 per request');
    assert.deepEqual(planEmbeddingBatches([], { maxModelLen: 10 }), []);
  });

  it('fuses ranked lists by reciprocal rank (k = 60)', () => {
    const fused = reciprocalRankFusion([['a', 'b', 'c'], ['c', 'd', 'a']]);
    assert.deepEqual(fused.map((f) => f.key), ['a', 'c', 'b', 'd']);
    assert.equal(fused[0]?.score, 1 / 61 + 1 / 63);
    assert.deepEqual(reciprocalRankFusion([]), []);
  });

  it('persists vectors by content hash for one model; another model, version or a damaged file is refused', () => {
    const cache = new EmbeddingCache('bge-m3:567m');
    cache.set('a'.repeat(40), new Float32Array([0.6, 0.8]));
    cache.set('b'.repeat(40), new Float32Array([1, 0]));
    const bytes = cache.serialize();
    const back = EmbeddingCache.deserialize(bytes, 'bge-m3:567m');
    assert.equal(back?.size, 2);
    assert.deepEqual([...(back?.get('a'.repeat(40)) ?? [])].map((v) => Math.round(v * 10) / 10), [0.6, 0.8]);
    assert.equal(EmbeddingCache.deserialize(bytes, 'other:1b'), undefined);
    assert.equal(EmbeddingCache.deserialize(bytes.slice(0, bytes.length - 3), 'bge-m3:567m'), undefined);
    assert.equal(EmbeddingCache.deserialize(new TextEncoder().encode('nonsense!'), 'bge-m3:567m'), undefined);
  });
});

describe('search: embeddings against the sandbox', function () {
  const sandbox = useSandbox();
  let ws: TempWorkspace;
  let client: InferenceClient;
  before(() => {
    ws = new TempWorkspace();
    ws.write('src/session.ts', 'export function keepSessionAlive() {\n  // renew credentials before expiry\n  return renew();\n}\n');
    ws.write('src/cart.ts', 'export function addItem(cart, item) { cart.items.push(item); }\n');
    ws.write('docs/long.md', `# Notes\n\n${'a long paragraph about credentials and expiry. '.repeat(200)}\n`);
  });
  beforeEach(() => {
    client = createInferenceClient({ baseUrl: sandbox().inferenceUrl, apiKey: () => Promise.resolve(sandbox().credentials.apiKey), retry: { attempts: 1 } });
  });
  afterEach(async () => {
    sandbox().control.reset();
    await client.close();
  });
  after(() => ws.dispose());

  it('a 512-token model accepts every trimmed input (the sandbox refuses longer ones with 400)', async () => {
    const vectors = await embedTexts((r, o) => client.embed(r, o), 'granite-embedding:278m', ['short', 'w '.repeat(5000)], { maxModelLen: 512 });
    assert.equal(vectors.length, 2);
    assert.equal(vectors[1]?.length, 768);
    const norm = Math.sqrt([...(vectors[0] ?? [])].reduce((s, v) => s + v * v, 0));
    assert.ok(Math.abs(norm - 1) < 1e-5, 'unit vectors');
    await assert.rejects(client.embed({ model: 'granite-embedding:278m', input: ['w '.repeat(5000)] }), (e: unknown) => (e as { status?: number }).status === 400, 'untrimmed, the same input is refused');
  });

  it('hybrid search: embedding candidates fused with lexical ones, vectors cached and persisted', async () => {
    const settings = { embeddingModel: 'bge-m3:567m', rerank: { enabled: false, model: '', version: 'v1' as const, timeoutMs: 1000, batchSize: 25, concurrency: 1 } };
    const rig = engineFor(ws.root, { settings, inference: searchInference(() => client) });
    await rig.engine.open();
    const result = await rig.engine.search('renew credentials expiry');
    assert.deepEqual(result.notes.map((n) => n.kind), ['rerank_disabled']);
    assert.ok(result.hits.some((h) => h.path === 'src/session.ts'));
    const embedRequests = sandbox().control.requests({ pathPrefix: '/v1/embeddings' });
    assert.ok(embedRequests.length >= 2, 'the chunks, then the query');

    sandbox().control.clearRequests();
    await rig.engine.search('renew credentials expiry');
    assert.equal(sandbox().control.requests({ pathPrefix: '/v1/embeddings' }).length, 1, 'only the query: chunk vectors are cached');

    const reloaded = engineFor(ws.root, { settings, storage: rig.storage, inference: searchInference(() => client) });
    await reloaded.engine.open();
    sandbox().control.clearRequests();
    await reloaded.engine.search('renew credentials expiry');
    assert.equal(sandbox().control.requests({ pathPrefix: '/v1/embeddings' }).length, 1, 'the persisted vectors were reused after a reload');
  });

  it('an embedding failure keeps the lexical candidates and says so', async () => {
    const rig = engineFor(ws.root, { settings: { embeddingModel: 'no-such-embedder:1b', rerank: { enabled: false, model: '', version: 'v1', timeoutMs: 1000, batchSize: 25, concurrency: 1 } }, inference: searchInference(() => client) });
    await rig.engine.open();
    const result = await rig.engine.search('add item cart');
    assert.equal(result.hits[0]?.path, 'src/cart.ts');
    const note = result.notes.find((n) => n.kind === 'embeddings_failed');
    assert.equal(note?.kind === 'embeddings_failed' && (note.error as { code?: string }).code, 'model_not_found');
  });
});
