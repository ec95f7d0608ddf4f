// The index worker with the service's models (against the sandbox, both profiles): embeddings are
// asked of the host (which holds the client and its credentials) and fused in the worker as in
// one thread; rerank runs in the host; a failure's note carries the host's own typed error.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { createInferenceClient, type InferenceClient } from '../../../src/core/inference';
import { silentLogger } from '../../../src/core/log';
import { DEFAULT_SEARCH_SETTINGS, IndexClient, NodeFileSystem, searchInference, type SearchSettings } from '../../../src/core/search';
import { useSandbox } from '../sandbox/helpers';
import { engineFor, paths, TempWorkspace } from './helpers';

const WORKER = join(__dirname, '..', '..', '..', 'src', 'core', 'search', 'worker', 'indexWorker.ts');

for (const profile of ['contract', 'production'] as const) {
  describe(`search: the index worker with embeddings and rerank (${profile})`, function () {
    this.timeout(60_000);
    const sandbox = useSandbox({ profile });
    let ws: TempWorkspace;
    let storage: string;
    let client: InferenceClient;
    const open: IndexClient[] = [];

    before(() => {
      ws = new TempWorkspace();
      ws.write('src/session.ts', 'export function keepSessionAlive() {\n  // renew credentials before expiry\n  return renew();\n}\n');
      ws.write('src/cart.ts', 'export function addItem(cart, item) { cart.items.push(item); }\n');
      ws.write('src/auth/tokenRefresher.ts', '/** Refreshes the auth token before it expires. */\nexport async function refreshAuthToken(session) {\n  return session.renew();\n}\n');
    });
    beforeEach(() => {
      storage = mkdtempSync(join(tmpdir(), 'stratus-worker-inference-'));
      client = createInferenceClient({ baseUrl: sandbox().inferenceUrl, apiKey: () => Promise.resolve(sandbox().credentials.apiKey), retry: { attempts: 1 } });
    });
    afterEach(async () => {
      for (const c of open.splice(0)) await c.close();
      sandbox().control.reset();
      await client.close();
      rmSync(storage, { recursive: true, force: true });
    });
    after(() => ws.dispose());

    const indexClient = (settings: SearchSettings): IndexClient => {
      const c = new IndexClient({
        makeWorker: () => new Worker(WORKER, { execArgv: ['--require', 'tsx/cjs'] }),
        init: { root: ws.root, storageDir: storage },
        fs: new NodeFileSystem(ws.root),
        settings: () => settings,
        logger: silentLogger,
        inference: () => searchInference(() => client),
      });
      open.push(c);
      return c;
    };

    it('hybrid candidates from the worker equal those of one thread; the embedding calls go through the host', async () => {
      const settings: SearchSettings = { ...DEFAULT_SEARCH_SETTINGS, embeddingModel: 'bge-m3:567m', rerank: { ...DEFAULT_SEARCH_SETTINGS.rerank, enabled: false } };
      const local = engineFor(ws.root, { settings, inference: searchInference(() => client) });
      await local.engine.open();
      const expected = await local.engine.search('renew credentials expiry');
      const remote = indexClient(settings);
      await remote.open();
      sandbox().control.clearRequests();
      const result = await remote.search('renew credentials expiry');
      assert.deepEqual(paths(result.hits), paths(expected.hits));
      assert.deepEqual(result.notes, [{ kind: 'rerank_disabled' }]);
      assert.ok(sandbox().control.requests({ pathPrefix: '/v1/embeddings' }).length >= 1, 'the worker asked the host to embed');
    });

    it('a batch job\'s vectors go through the worker: the chunks without one listed, stored, then used with only the query embedded', async () => {
      const settings: SearchSettings = { ...DEFAULT_SEARCH_SETTINGS, embeddingModel: 'bge-m3:567m', rerank: { ...DEFAULT_SEARCH_SETTINGS.rerank, enabled: false } };
      const remote = indexClient(settings);
      await remote.open();
      const pending = await remote.pendingEmbeddings('bge-m3:567m');
      assert.deepEqual(pending.map((p) => p.path).sort(), ['src/auth/tokenRefresher.ts', 'src/cart.ts', 'src/session.ts']);
      const answer = await client.embed({ model: 'bge-m3:567m', input: pending.map((p) => p.text) });
      const vectors = pending.map((p, i) => ({ hash: p.hash, vector: Float32Array.from(answer.embeddings[i] ?? []) }));
      assert.deepEqual(await remote.storeEmbeddings('bge-m3:567m', [...vectors, { hash: 'e'.repeat(40), vector: new Float32Array([1, 0]) }]), { stored: 3, stale: 1 });
      assert.deepEqual(await remote.pendingEmbeddings('bge-m3:567m'), []);
      sandbox().control.clearRequests();
      await remote.search('renew credentials expiry');
      assert.equal(sandbox().control.requests({ pathPrefix: '/v1/embeddings' }).length, 1, 'only the query');
    });

    it('an embedding failure keeps the lexical order, and its note is the host client\'s own error', async () => {
      const remote = indexClient({ ...DEFAULT_SEARCH_SETTINGS, embeddingModel: 'no-such-embedder:1b', rerank: { ...DEFAULT_SEARCH_SETTINGS.rerank, enabled: false } });
      await remote.open();
      const result = await remote.search('add item cart');
      assert.equal(result.hits[0]?.path, 'src/cart.ts');
      const note = result.notes.find((n) => n.kind === 'embeddings_failed');
      assert.equal(note?.kind === 'embeddings_failed' && (note.error as { code?: string }).code, 'model_not_found');
    });

    it('reranks in the host over the worker\'s candidates', async () => {
      const remote = indexClient(DEFAULT_SEARCH_SETTINGS);
      await remote.open();
      const local: string[] = [];
      const result = await remote.search('where do we refresh the auth token', { onLocal: (hits) => local.push(...paths(hits)) });
      assert.equal(result.reranked, true, JSON.stringify(result.notes));
      assert.ok(local.includes('src/auth/tokenRefresher.ts'));
      assert.equal(result.hits[0]?.path, 'src/auth/tokenRefresher.ts');
      assert.ok(sandbox().control.requests({ pathPrefix: '/v1/rerank' }).length >= 1);
    });
  });
}
