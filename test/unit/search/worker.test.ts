// The index worker (src/core/search/worker/indexWorker.ts, indexServer.ts) and the host's client
// (indexClient.ts): the protocol's checks both ways, answers equal to an in-thread engine's, a crash
// mid-build and mid-query (restart, reload from disk, no wrong answer), file events during a query.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel, Worker } from 'node:worker_threads';
import { silentLogger } from '../../../src/core/log';
import { DEFAULT_SEARCH_SETTINGS, IndexClient, NodeFileSystem, NodeIndexStorage, SearchEngine, type SearchSettings } from '../../../src/core/search';
import { serveIndex } from '../../../src/core/search/worker/indexServer';
import { isIndexStats, isLocalResult, parseFromWorker, parseToWorker, type FromWorker } from '../../../src/core/search/worker/protocol';
import { ManualTimers, paths, recordingLogger, TempWorkspace } from './helpers';

const WORKER = join(__dirname, '..', '..', '..', 'src', 'core', 'search', 'worker', 'indexWorker.ts');
const settings: SearchSettings = { ...DEFAULT_SEARCH_SETTINGS, rerank: { ...DEFAULT_SEARCH_SETTINGS.rerank, enabled: false } };

function fill(ws: TempWorkspace, files: number): void {
  for (let i = 0; i < files; i++) {
    ws.write(`src/mod${i % 7}/file${i}.ts`, `/** Computes the ledger balance number ${i}. */\nexport function balance${i}(ledger: Ledger) {\n  return ledger.entries.reduce((sum, e) => sum + e.amount${i}, 0);\n}\n`);
  }
  ws.write('src/auth/tokenRefresher.ts', '/** Refreshes the auth token before it expires. */\nexport async function refreshAuthToken(session: Session) {\n  return session.renew();\n}\n');
}

interface Rig {
  client: IndexClient;
  workers: Worker[];
  logs: string[];
  crashes: string[];
}

function clientFor(root: string, storageDir: string, options: { maxRestarts?: number } = {}): Rig {
  const workers: Worker[] = [];
  const logs: string[] = [];
  const crashes: string[] = [];
  const client = new IndexClient({
    makeWorker: () => {
      const w = new Worker(WORKER, { execArgv: ['--require', 'tsx/cjs'] });
      workers.push(w);
      return w;
    },
    init: { root, storageDir },
    fs: new NodeFileSystem(root),
    settings: () => settings,
    logger: recordingLogger(logs),
    onCrash: (m) => crashes.push(m),
    ...(options.maxRestarts !== undefined ? { maxRestarts: options.maxRestarts } : {}),
  });
  return { client, workers, logs, crashes };
}

describe('search: the index worker protocol', () => {
  it('accepts the well-formed messages and drops every malformed one, both ways', () => {
    assert.ok(parseToWorker({ t: 'lexical', id: 3, query: 'token', limit: 10 }));
    assert.ok(parseToWorker({ t: 'update', events: [['changed', 'a.ts'], ['deleted', 'b']] }));
    assert.ok(parseToWorker({ t: 'answer', id: 1, ok: false, error: { message: 'no', cancelled: false, ref: 2 } }));
    assert.ok(parseToWorker({ t: 'init', init: { root: '/w', inference: false }, settings }));
    const bad: unknown[] = [
      null, 42, 'open', [], {}, { t: 'nope' }, { t: 'open', id: 0, rebuild: false }, { t: 'open', id: 1.5, rebuild: false }, { t: 'open', id: 1 },
      { t: 'lexical', id: 1, query: 3, limit: 1 }, { t: 'lexical', id: 1, query: 'q', limit: -1 }, { t: 'lexical', id: 1, query: 'q', limit: 1e9 },
      { t: 'update', events: 'a' },
      { t: 'answer', id: 1, ok: false, error: 'boom' }, { t: 'answer', id: 1, ok: 'yes' },
      { t: 'init', init: { root: '', inference: false }, settings }, { t: 'init', init: { root: '/w', inference: false }, settings: { ...settings, candidates: 'many' } },
      { t: 'settings', settings: { ...settings, rerank: { ...settings.rerank, version: 'v9' } } },
    ];
    for (const m of bad) assert.equal(parseToWorker(m), undefined, JSON.stringify(m));
    assert.deepEqual(parseToWorker({ t: 'update', events: [['moved', 'a'], ['changed'], ['changed', 'ok.ts'], ['deleted', 'y'.repeat(4097)]] }), { t: 'update', events: [['changed', 'ok.ts']], dropped: 3 });
    assert.ok(parseFromWorker({ t: 'status', ready: true, files: 3, chunks: 9 }));
    const badFrom: unknown[] = [
      { t: 'status', ready: 'yes', files: 1, chunks: 1 }, { t: 'progress', id: 1, done: -1, total: 2 }, { t: 'call', id: 1, op: 'rerank' },
      { t: 'log', level: 'fatal', message: 'x' }, { t: 'updated', paths: Array.from({ length: 201 }, () => 'a') }, { t: 'failed', id: 1, error: {} },
    ];
    for (const m of badFrom) assert.equal(parseFromWorker(m), undefined, JSON.stringify(m));
    assert.equal(isIndexStats({ source: 'built', files: 1 }), false);
    assert.equal(isLocalResult({ hits: [{ id: 1, path: 'a', startLine: 1, endLine: 2, preview: '', localRank: 'first' }], notes: [] }), false);
    assert.equal(isLocalResult({ hits: [], notes: [{ kind: 'rerank_failed', error: 'x' }] }), false);
  });

  it('the server drops a malformed message with a warning and answers the next good one', async () => {
    const ws = new TempWorkspace();
    try {
      fill(ws, 3);
      const { port1, port2 } = new MessageChannel();
      serveIndex(port2, () => assert.fail('no build worker'));
      const received: FromWorker[] = [];
      port1.on('message', (m: FromWorker) => received.push(m));
      const next = (pred: (m: FromWorker) => boolean): Promise<FromWorker> =>
        new Promise((resolve) => {
          const check = (): void => {
            const m = received.find(pred);
            if (m) resolve(m);
            else setImmediate(check);
          };
          check();
        });
      port1.postMessage({ t: 'open', id: 1, rebuild: false });
      const uninitialised = await next((m) => m.t === 'failed' && m.id === 1);
      assert.match(uninitialised.t === 'failed' ? uninitialised.error.message : '', /not initialised/);
      port1.postMessage({ t: 'init', init: { root: ws.root, inference: false }, settings });
      port1.postMessage({ t: 'lexical', id: 2, query: 'token', limit: 'all' });
      port1.postMessage({ t: 'open', id: 3, rebuild: false });
      const warned = await next((m) => m.t === 'log' && /malformed message was dropped \(kind lexical\)/.test(m.message));
      assert.ok(warned);
      const opened = await next((m) => m.t === 'done' && m.id === 3);
      assert.ok(opened.t === 'done' && isIndexStats(opened.value));
      port1.postMessage({ t: 'lexical', id: 4, query: 'refresh the auth token', limit: 5 });
      const answer = await next((m) => m.t === 'done' && m.id === 4);
      assert.equal(answer.t === 'done' && Array.isArray(answer.value) ? (answer.value[0] as { path: string }).path : '', 'src/auth/tokenRefresher.ts');
      assert.equal(received.some((m) => m.t === 'done' && m.id === 2), false, 'the malformed request got no answer');
      port1.close();
    } finally {
      ws.dispose();
    }
  });

  it('drops only the bad event of an update batch (a path over 4,096 characters), logs it, and applies the rest (issue 34)', async () => {
    const ws = new TempWorkspace();
    try {
      fill(ws, 2);
      const { port1, port2 } = new MessageChannel();
      serveIndex(port2, () => assert.fail('no build worker'));
      const received: FromWorker[] = [];
      port1.on('message', (m: FromWorker) => received.push(m));
      const next = (pred: (m: FromWorker) => boolean): Promise<FromWorker> =>
        new Promise((resolve) => {
          const check = (): void => {
            const m = received.find(pred);
            if (m) resolve(m);
            else setImmediate(check);
          };
          check();
        });
      port1.postMessage({ t: 'init', init: { root: ws.root, inference: false }, settings });
      port1.postMessage({ t: 'open', id: 1, rebuild: false });
      await next((m) => m.t === 'done' && m.id === 1);
      ws.write('src/billing/invoiceMailer.ts', '/** Mails the quarterly invoice to the customer. */\nexport function mailQuarterlyInvoice() {}\n');
      port1.postMessage({ t: 'update', events: [['changed', `src/${'x'.repeat(5000)}.ts`], ['changed', 'src/billing/invoiceMailer.ts']] });
      port1.postMessage({ t: 'flush', id: 2 });
      await next((m) => m.t === 'done' && m.id === 2);
      port1.postMessage({ t: 'lexical', id: 3, query: 'mail the quarterly invoice', limit: 5 });
      const answer = await next((m) => m.t === 'done' && m.id === 3);
      assert.equal(answer.t === 'done' && Array.isArray(answer.value) ? (answer.value[0] as { path: string } | undefined)?.path : '', 'src/billing/invoiceMailer.ts');
      assert.ok(received.some((m) => m.t === 'log' && m.level === 'warn' && /1 file event dropped/.test(m.message)));
      port1.close();
    } finally {
      ws.dispose();
    }
  });
});

describe('search: the index in a worker thread', function () {
  this.timeout(60_000);
  let ws: TempWorkspace;
  let storageDir: string;
  const rigs: Rig[] = [];

  beforeEach(() => {
    ws = new TempWorkspace();
    storageDir = mkdtempSync(join(tmpdir(), 'stratus-index-storage-'));
  });
  afterEach(async () => {
    // Closed before the folders go: a closing worker writes what changed.
    await Promise.all(rigs.splice(0).map((r) => r.client.close()));
    ws.dispose();
    rmSync(storageDir, { recursive: true, force: true });
  });

  const rig = (options?: { maxRestarts?: number }): Rig => {
    const r = clientFor(ws.root, storageDir, options);
    rigs.push(r);
    return r;
  };

  it('answers as the engine in this thread does, persists, and a new client reloads without reading the files again', async () => {
    fill(ws, 60);
    const local = new SearchEngine({ fs: new NodeFileSystem(ws.root), logger: silentLogger, settings: () => settings });
    await local.open();
    const { client } = rig();
    const progress: number[] = [];
    const stats = await client.open({ onProgress: (p) => progress.push(p.done) });
    assert.equal(stats.source, 'built');
    assert.equal(stats.files, 61);
    assert.equal(client.isReady, true);
    assert.deepEqual(client.stats, local.stats);
    for (const q of ['refresh the auth token', 'ledger balance number 17', 'amount reduce']) {
      assert.deepEqual(await client.query(q, 10), local.lexical(q, 10), q);
      const result = await client.search(q);
      assert.deepEqual(paths(result.hits), paths(local.lexical(q, settings.candidates).slice(0, settings.results)), q);
      assert.deepEqual(result.notes, [{ kind: 'rerank_disabled' }]);
    }
    await client.persisted();
    await client.close();
    const again = rig().client;
    // Asked at once: answered from the stored index (it waits for the load, not for the check of every file).
    const opening = again.open();
    assert.deepEqual(paths(await again.query('refresh the auth token', 3)), ['src/auth/tokenRefresher.ts']);
    const reloaded = await opening;
    assert.equal(reloaded.source, 'loaded');
    assert.equal(reloaded.indexed, 0, 'nothing read again');
  });

  it('follows file events (batched to the worker, debounced there), also during a query', async () => {
    fill(ws, 20);
    const { client } = rig();
    await client.open();
    const updated: string[] = [];
    client.onDidUpdate = (paths) => updated.push(...paths);
    ws.write('src/billing/voucher.ts', 'export function redeemLoyaltyVoucher(total: number) {\n  return total * 0.9;\n}\n');
    ws.remove('src/auth/tokenRefresher.ts');
    client.notifyChanged('src/billing/voucher.ts');
    const during = client.query('redeem loyalty voucher', 5);
    client.notifyDeleted('src/auth/tokenRefresher.ts');
    // A query sent with events queued answers either before or after them, never a mix that breaks.
    const first = await during;
    assert.ok(first.length === 0 || first[0]?.path === 'src/billing/voucher.ts');
    await client.flush();
    // One update or two (a loaded machine may let the debounce end between the events).
    assert.deepEqual([...new Set(updated)].sort(), ['src/auth/tokenRefresher.ts', 'src/billing/voucher.ts']);
    assert.deepEqual(paths(await client.query('redeem loyalty voucher', 5)), ['src/billing/voucher.ts']);
    assert.deepEqual(await client.query('refresh auth token', 5), []);
  });

  it('survives a crash mid-build: restarts, reports it once, and the build still answers', async () => {
    fill(ws, 400);
    const r = rig();
    let killed: Promise<number> | undefined;
    const stats = await r.client.open({
      onProgress: () => {
        killed ??= r.workers[0]?.terminate();
      },
    });
    assert.ok(killed, 'the worker was stopped mid-build');
    // On a loaded machine the build's last answer may already be queued when the stop lands: wait
    // for the stop itself (its exit is what restarts the worker), not for whichever comes first.
    await killed;
    assert.equal(r.workers.length, 2, 'a new worker was started');
    assert.equal(stats.files, 401);
    assert.equal(r.crashes.length, 1);
    assert.match(r.crashes[0] ?? '', /search index worker stopped/);
    assert.deepEqual(paths(await r.client.query('refresh the auth token', 1)), ['src/auth/tokenRefresher.ts']);
  });

  it('survives a crash mid-query: the query is answered by the reloaded index, never by a partial one', async () => {
    fill(ws, 200);
    const r = rig();
    await r.client.open();
    await r.client.persisted();
    const expected = await r.client.query('ledger balance number 42', 10);
    // The worker is told to stop before the query is posted, so the query is in flight when it dies.
    const dying = r.workers[0]?.terminate();
    const asked = r.client.query('ledger balance number 42', 10);
    await dying;
    assert.deepEqual(await asked, expected);
    // The next request waits for the reload (an answer that beat the stop does not mean it is done).
    assert.deepEqual(await r.client.query('ledger balance number 42', 10), expected);
    assert.equal(r.client.isReady, true);
    assert.equal(r.crashes.length, 1);
    // A second crash is logged, not reported again.
    const second = r.client.query('refresh the auth token', 1);
    await r.workers[1]?.terminate();
    assert.deepEqual(paths(await second), ['src/auth/tokenRefresher.ts']);
    assert.equal(r.workers.length, 3);
    assert.equal(r.crashes.length, 1);
    assert.ok(r.logs.filter((l) => /Restarting it/.test(l)).length === 2, r.logs.join('\n'));
  });

  it('gives up after its restarts with a clear error instead of hanging', async () => {
    fill(ws, 5);
    const r = rig({ maxRestarts: 0 });
    await r.client.open();
    const asked = r.client.query('token', 5);
    await r.workers[0]?.terminate();
    await assert.rejects(asked, /Reload the window to search again/);
    await assert.rejects(r.client.query('token', 5), /stopped/);
  });

  it('a cancelled search rejects with a cancellation and the worker keeps answering', async () => {
    fill(ws, 20);
    const { client } = rig();
    await client.open();
    const controller = new AbortController();
    const asked = client.search('ledger balance', { signal: controller.signal });
    controller.abort();
    await assert.rejects(asked, (e: Error) => e.name === 'CancelledError');
    assert.ok((await client.query('ledger balance', 3)).length > 0);
  });

  it('the index files are those of the engine in this thread (the same storage format)', async () => {
    fill(ws, 10);
    const { client } = rig();
    await client.open();
    await client.persisted();
    const timers = new ManualTimers();
    const engine = new SearchEngine({ fs: new NodeFileSystem(ws.root), storage: new NodeIndexStorage(storageDir), logger: silentLogger, settings: () => settings, setTimer: timers.set });
    const stats = await engine.open();
    assert.equal(stats.source, 'loaded');
    assert.equal(stats.indexed, 0);
  });
});
