import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { UsageEvent } from '../../../src/core/usage/events';
import { UsageMeter } from '../../../src/core/usage/meter';
import { BASE_FILE, LOCK_DIR, UsageStore } from '../../../src/core/usage/store';
import { DAY_MS } from '../../../src/core/usage/time';

const ROOT = path.resolve(__dirname, '../../..');
const TSX = path.resolve(ROOT, 'node_modules/tsx/dist/cli.mjs');

const chat = (model: string, completion = 10, at = Date.now()): UsageEvent => ({ kind: 'chat', at, model, promptTokens: 1, completionTokens: completion, reasoningTokens: 0, estimated: false });

function totals(store: UsageStore): Promise<Map<string, number>> {
  return store.load().then(({ ledger }) => new Map([...ledger.byModel(-Infinity, Infinity)].map(([m, c]) => [m, c.output])));
}

function runWriter(dir: string, count: number, model: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSX, 'test/unit/usage/fixtures/writer.ts', dir, String(count), model], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer ${model} exited ${code}: ${err}`))));
  });
}

describe('usage store shared by windows', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'stratus-usage-'));
  });
  afterEach(async () => {
    // A meter writes in the background; a write landing during the removal is retried, not fatal.
    await fs.rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  });

  it('persists across restarts and counts each event once after compaction', async () => {
    const first = new UsageMeter({ store: new UsageStore({ dir, timeZone: 'UTC' }), timeZone: 'UTC' });
    first.record(chat('a', 10));
    first.record(chat('a', 5));
    await first.flush();
    await first.refresh({ compact: true });
    first.record(chat('a', 1));
    await first.flush();
    const restarted = new UsageStore({ dir, timeZone: 'UTC' });
    assert.deepEqual(await totals(restarted), new Map([['a', 16]]));
    await restarted.compact();
    await restarted.compact();
    assert.deepEqual(await totals(restarted), new Map([['a', 16]]), 'compacting twice changes nothing');
    const files = await fs.readdir(dir);
    assert.ok(files.includes(BASE_FILE));
    assert.ok(!files.includes(LOCK_DIR), 'the lock is released');
  });

  it('loses no event when two writers in one process append and compact at once', async () => {
    const a = new UsageMeter({ store: new UsageStore({ dir, timeZone: 'UTC' }), timeZone: 'UTC', compactEvery: 3 });
    const b = new UsageMeter({ store: new UsageStore({ dir, timeZone: 'UTC' }), timeZone: 'UTC', compactEvery: 4 });
    const work: Promise<void>[] = [];
    for (let i = 0; i < 150; i++) {
      a.record(chat('a'));
      b.record(chat('b'));
      if (i % 10 === 0) work.push(a.refresh({ compact: true }), b.refresh({ compact: i % 20 === 0 }));
    }
    await Promise.all([...work, a.flush(), b.flush()]);
    await Promise.all([a.refresh(), b.refresh()]);
    const expected = new Map([['a', 1500], ['b', 1500]]);
    assert.deepEqual(await totals(new UsageStore({ dir, timeZone: 'UTC' })), expected);
    // Both windows see the same merged figures.
    assert.equal(a.snapshot().month.outputTokens, 3000);
    assert.equal(b.snapshot().month.outputTokens, 3000);
  });

  it('loses no event when two processes write and compact the same directory at once', async function () {
    this.timeout(60_000);
    await Promise.all([runWriter(dir, 120, 'p1'), runWriter(dir, 90, 'p2')]);
    assert.deepEqual(await totals(new UsageStore({ dir, timeZone: 'UTC' })), new Map([['p1', 1200], ['p2', 900]]));
  });

  it('never shows a reader a partial total when another window compacts between its reads', async () => {
    const writer = new UsageStore({ dir, timeZone: 'UTC' });
    await writer.append(Array.from({ length: 5 }, () => chat('w', 1)));
    let compactions = 0;
    // The worst moment: the reader holds the old base, then the writer folds its file into a new
    // base and deletes the file, then the reader lists the files.
    const reader = new UsageStore({ dir, timeZone: 'UTC', afterBaseRead: async () => {
      if (compactions++ === 0) assert.equal(await writer.compact(), true);
    } });
    const loaded = await reader.load();
    assert.equal(loaded.ledger.total(-Infinity, Infinity).output, 5);
    assert.equal(compactions, 2, 'the reader noticed the new base and read again');
  });

  it('recovers from a corrupt base and corrupt or partial lines', async () => {
    const store = new UsageStore({ dir, timeZone: 'UTC' });
    await store.append([chat('a', 7)]);
    await fs.writeFile(path.join(dir, BASE_FILE), '{"format":1,"version":3,"buck', 'utf8');
    await fs.appendFile(path.join(dir, 'events-dead.0.jsonl'), `{"w":"dead","s":1,"e":{"kind":"chat","at":${Date.now()},"model":"x","promptTokens":1,"completionTokens":2,"reasoningTokens":0,"estimated":false}}\nnot json\n{"w":"dead","s":2,"e":{"kind":"bogus"}}\n{"w":"dead","s":3,"e":{"kind":"chat"`, 'utf8');
    const loaded = await store.load();
    assert.equal(loaded.baseRecovered, true);
    assert.equal(loaded.skippedLines, 3);
    assert.equal(loaded.ledger.total(-Infinity, Infinity).output, 9);
    assert.equal(await store.compact(), true);
    const after = await store.load();
    assert.equal(after.baseRecovered, false);
    assert.equal(after.ledger.total(-Infinity, Infinity).output, 9);
    assert.ok((await fs.readdir(dir)).some((f) => f.startsWith(`${BASE_FILE}.corrupt-`)), 'the unreadable base is kept aside');
  });

  it('drops stored buckets of the wrong shape', async () => {
    await fs.writeFile(path.join(dir, BASE_FILE), JSON.stringify({ format: 1, version: 1, hwm: {}, buckets: [
      { g: 'd', s: Date.now() - DAY_MS, m: 'ok', c: { requests: 1, input: 1, output: 4, reasoning: 0, embeddings: 0, rerankTokens: 0, searchUnits: 0, audioSeconds: 0, audioMinutes: 0, estimated: 0 } },
      { g: 'd', s: 0, m: 'bad', c: { output: 'many' } },
      { g: 'y', s: 0, m: 'bad', c: {} },
    ] }), 'utf8');
    assert.deepEqual(await totals(new UsageStore({ dir, timeZone: 'UTC' })), new Map([['ok', 4]]));
  });

  it('does not compact while another window holds the lock, and takes over a stale lock', async () => {
    const store = new UsageStore({ dir, timeZone: 'UTC' });
    await store.append([chat('a')]);
    await fs.mkdir(path.join(dir, LOCK_DIR));
    assert.equal(await store.compact(), false);
    assert.equal((await store.load()).ledger.total(-Infinity, Infinity).output, 10, 'still counted from the file');
    const old = new Date(Date.now() - 60_000);
    await fs.utimes(path.join(dir, LOCK_DIR), old, old);
    assert.equal(await store.compact(), true);
  });

  it('tells listeners when another window counted something, and only then', async () => {
    const a = new UsageMeter({ store: new UsageStore({ dir, timeZone: 'UTC' }), timeZone: 'UTC' });
    const b = new UsageStore({ dir, timeZone: 'UTC' });
    let changes = 0;
    a.onDidChange(() => changes++);
    await a.refresh();
    await a.refresh();
    assert.equal(changes, 0, 'nothing new');
    await b.append([chat('b', 4)]);
    await a.refresh();
    assert.equal(changes, 1);
    assert.equal(a.snapshot().hour.used, 4);
    a.record(chat('a', 1));
    assert.equal(changes, 2, 'own events notify at once');
    // The record's append is written in the background: let it land before the folder goes.
    await a.flush();
  });

  it('resets the statistics of every window', async () => {
    const a = new UsageMeter({ store: new UsageStore({ dir, timeZone: 'UTC' }), timeZone: 'UTC' });
    const b = new UsageMeter({ store: new UsageStore({ dir, timeZone: 'UTC' }), timeZone: 'UTC' });
    a.record(chat('a'));
    b.record(chat('b'));
    await Promise.all([a.flush(), b.flush()]);
    await a.reset();
    await b.refresh();
    assert.equal(a.snapshot().month.outputTokens, 0);
    assert.equal(b.snapshot().month.outputTokens, 0);
    b.record(chat('b', 3));
    await b.flush();
    await a.refresh();
    assert.equal(a.snapshot().month.outputTokens, 3, 'events after the reset count');
  });
});
