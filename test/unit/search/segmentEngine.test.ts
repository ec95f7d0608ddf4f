import * as assert from 'node:assert/strict';
import { INDEX_FILE, LexicalIndex, LIVE_FILE, loadStoredIndex } from '../../../src/core/search';
import { readHeader, segmentLayout } from '../../../src/core/search/store/segmentFormat';
import { engineFor, paths, TempWorkspace } from './helpers';

// The engine over the v6 storage: the segment written once after a build, the changes since in
// the live file beside it, a merge past the threshold, a damaged segment found by a query.

const AUTH = 'export async function refreshAuthToken(session) {\n  return exchange(session.refreshToken);\n}\n';
const CART = 'export function addItemToCart(cart, item) {\n  cart.items.push(item);\n}\n';
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('search engine: the segmented index on storage', function () {
  this.timeout(60_000);
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = new TempWorkspace();
    ws.write('src/auth.ts', AUTH);
    ws.write('src/cart.ts', CART);
    ws.write('src/ship.ts', 'export const shipParcel = (parcel) => courier.send(parcel);\n');
  });
  afterEach(() => ws.dispose());

  it('changes after the first save go to the live file, not a rewrite of the segment; a reload applies them without re-reading', async () => {
    const rig = engineFor(ws.root);
    await rig.engine.open();
    await rig.engine.persisted();
    const segment = rig.storage.files.get(INDEX_FILE);
    assert.ok(segment && !rig.storage.files.has(LIVE_FILE));
    ws.write('src/cart.ts', `${CART}// gift wrapping\n`);
    ws.remove('src/ship.ts');
    rig.engine.notifyChanged('src/cart.ts');
    rig.engine.notifyDeleted('src/ship.ts');
    await rig.engine.flush();
    assert.equal(rig.timers.fire(10_000), 1, 'the save');
    await rig.engine.persisted();
    assert.equal(rig.storage.files.get(INDEX_FILE), segment, 'the segment is not rewritten');
    assert.ok(rig.storage.files.has(LIVE_FILE));

    const again = engineFor(ws.root, { storage: rig.storage });
    const stats = await again.engine.open();
    assert.equal(stats.source, 'loaded');
    assert.deepEqual([stats.indexed, stats.removed], [0, 0], 'the live file had the changes: nothing re-read');
    assert.deepEqual(paths(again.engine.lexical('gift wrapping')), ['src/cart.ts']);
    assert.deepEqual(again.engine.lexical('ship parcel courier'), []);
    assert.equal(again.engine.stats.files, 2);
  });

  it('past the threshold (a quarter of the segment removed) a save merges into a new segment and drops the live file', async () => {
    for (let i = 0; i < 1300; i++) ws.write(`gen/g${i}.ts`, `export const wombat${i} = ${i};\n`);
    const rig = engineFor(ws.root);
    await rig.engine.open();
    await rig.engine.persisted();
    const first = readHeader(Buffer.from(rig.storage.files.get(INDEX_FILE) ?? new Uint8Array()));
    for (let i = 0; i < 1200; i++) {
      ws.remove(`gen/g${i}.ts`);
      rig.engine.notifyDeleted(`gen/g${i}.ts`);
    }
    await rig.engine.flush();
    ws.write('gen/g0.ts', 'export const quokka = 0;\n');
    rig.engine.notifyChanged('gen/g0.ts');
    await rig.engine.flush();
    await rig.engine.save();
    const merged = readHeader(Buffer.from(rig.storage.files.get(INDEX_FILE) ?? new Uint8Array()));
    assert.notEqual(merged.generation, first.generation, rig.logs.join('\n'));
    assert.equal(merged.files, 104);
    assert.ok(!rig.storage.files.has(LIVE_FILE));
    assert.deepEqual(paths(rig.engine.lexical('quokka')), ['gen/g0.ts']);
    assert.equal(paths(rig.engine.lexical('1250'))[0], 'gen/g1250.ts');
    const wombats = paths(rig.engine.lexical('wombat', 2000));
    assert.equal(wombats.length, 100, 'removed chunks are gone from the merged segment');
    assert.ok(wombats.every((p) => Number(/g(\d+)/.exec(p)?.[1]) >= 1200));

    const reloaded = await loadStoredIndex(rig.storage, rig.engine.settingsKey());
    assert.ok(reloaded?.index instanceof LexicalIndex);
    assert.equal(reloaded.index.idSpace, reloaded.index.chunkCount + 1, 'ids compact');
    assert.deepEqual(paths(reloaded.index.search('quokka', 5)), ['gen/g0.ts']);
  });

  it('a damaged postings list is found by the query that reads it: reported once, nothing answered from it, rebuilt', async () => {
    const good = engineFor(ws.root);
    await good.engine.open();
    await good.engine.persisted();
    const bytes = Buffer.from(good.storage.files.get(INDEX_FILE) ?? new Uint8Array());
    const l = segmentLayout(readHeader(bytes));
    for (let at = l.postings; at < l.total; at += 4) bytes.writeUInt32LE(0xfffffff1, at);
    const rig = engineFor(ws.root);
    await rig.storage.write(INDEX_FILE, bytes);
    const stats = await rig.engine.open();
    assert.equal(stats.source, 'loaded', 'the lists are not read at load');
    assert.deepEqual(rig.engine.lexical('refresh auth token'), [], 'no answer from a damaged list');
    assert.deepEqual(rig.engine.lexical('add item cart'), []);
    await rig.engine.open();
    await rig.engine.persisted();
    assert.equal(rig.logs.filter((l) => l.startsWith('warn Search index in storage is damaged')).length, 1, rig.logs.join('\n'));
    assert.deepEqual(paths(rig.engine.lexical('refresh auth token')), ['src/auth.ts'], 'rebuilt');
    const stored = await loadStoredIndex(rig.storage, rig.engine.settingsKey());
    assert.ok(stored?.index instanceof LexicalIndex);
    assert.deepEqual(paths(stored.index.search('add item cart', 5)), ['src/cart.ts'], 'the rebuilt index replaced the damaged file');
  });

  it('dispose writes the last changes, then closes the segment\'s file: stats stay, queries answer nothing, no throw', async () => {
    const rig = engineFor(ws.root);
    await rig.engine.open();
    await rig.engine.persisted();
    ws.write('src/cart.ts', `${CART}// gift wrapping\n`);
    rig.engine.notifyChanged('src/cart.ts');
    await rig.engine.flush();
    rig.engine.dispose();
    await rig.engine.persisted();
    assert.equal(rig.engine.stats.files, 3);
    assert.deepEqual(rig.engine.lexical('refresh auth token'), []);
    const stored = await loadStoredIndex(rig.storage, rig.engine.settingsKey());
    assert.ok(stored?.index instanceof LexicalIndex);
    assert.deepEqual(paths(stored.index.search('gift wrapping', 5)), ['src/cart.ts']);
  });

  it('an index file of format v5 is reported old_version and rebuilt', async () => {
    const json = Buffer.from(JSON.stringify({ format: 'stratus-search-index', key: 'k', nextId: 1, files: [], chunks: [] }));
    const head = Buffer.alloc(12);
    head.writeUInt32LE(0x53545349, 0);
    head.writeUInt32LE(5, 4);
    head.writeUInt32LE(json.length, 8);
    const rig = engineFor(ws.root);
    await rig.storage.write(INDEX_FILE, Buffer.concat([head, json, Buffer.alloc(64)]));
    const stats = await rig.engine.open();
    assert.deepEqual(stats.rejected, { reason: 'old_version', found: 5 });
    assert.equal(stats.source, 'built');
  });

  it('while a new segment is written queries answer from the index as it was, and updates wait for it (never a mix)', async () => {
    const rig = engineFor(ws.root);
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const write = rig.storage.write.bind(rig.storage);
    rig.storage.write = async (name, data) => {
      if (name === INDEX_FILE) await gate;
      return write(name, data);
    };
    await rig.engine.open();
    const saving = rig.engine.persisted();
    await tick();
    await tick();
    assert.deepEqual(paths(rig.engine.lexical('add item cart')), ['src/cart.ts'], 'answers during the write');
    ws.write('src/cart.ts', 'export function addItemToBasket(basket, item) {}\n');
    rig.engine.notifyChanged('src/cart.ts');
    let flushed = false;
    const flushing = rig.engine.flush().then(() => (flushed = true));
    await tick();
    await tick();
    assert.equal(flushed, false, 'the update waits for the segment');
    assert.deepEqual(rig.engine.lexical('basket'), []);
    assert.deepEqual(paths(rig.engine.lexical('add item cart')), ['src/cart.ts']);
    release();
    await saving;
    await flushing;
    assert.deepEqual(paths(rig.engine.lexical('basket')), ['src/cart.ts'], 'applied once the segment is in');
    await rig.engine.save();
    const stored = await loadStoredIndex(rig.storage, rig.engine.settingsKey());
    assert.ok(stored?.index instanceof LexicalIndex);
    assert.deepEqual(paths(stored.index.search('basket', 5)), ['src/cart.ts'], 'saved in the live file beside it');
    assert.ok(rig.storage.files.has(LIVE_FILE));
  });

  it('queries interleaved with an update batch see each file either before or after its change, never a half-indexed one', async () => {
    for (let i = 0; i < 60; i++) ws.write(`src/p${i}.ts`, `export const platypus${i} = 'old';\n`);
    const rig = engineFor(ws.root);
    await rig.engine.open();
    await rig.engine.persisted();
    for (let i = 0; i < 60; i++) {
      ws.write(`src/p${i}.ts`, `export const echidna${i} = 'new';\n`);
      rig.engine.notifyChanged(`src/p${i}.ts`);
    }
    let done = false;
    const flushing = rig.engine.flush().finally(() => (done = true));
    let seen = 0;
    let mixed = 0;
    // Queries between the steps of the batch (each file is read, then indexed, between awaits).
    while (!done) {
      const before = new Set(paths(rig.engine.lexical('platypus', 100)));
      const after = new Set(paths(rig.engine.lexical('echidna', 100)));
      for (const p of before) assert.ok(!after.has(p), `${p} both before and after its change`);
      assert.equal(before.size + after.size, 60, 'every file answers one way or the other');
      if (before.size > 0 && after.size > 0) mixed++;
      seen++;
      await Promise.resolve();
    }
    await flushing;
    assert.ok(mixed > 0, 'some queries ran in the middle of the batch');
    assert.ok(seen > 1, `queries ran during the batch (${seen})`);
    assert.equal(rig.engine.lexical('echidna', 100).length, 60);
  });
});
