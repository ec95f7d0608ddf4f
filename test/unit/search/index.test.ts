import * as assert from 'node:assert/strict';
import { INDEX_FILE, INDEX_FORMAT_VERSION, LexicalIndex, loadStoredIndex } from '../../../src/core/search';
import { engineFor, paths, TempWorkspace } from './helpers';

const AUTH = 'export async function refreshAuthToken(session) {\n  const token = await exchange(session.refreshToken);\n  session.accessToken = token;\n}\n';
const CART = 'export function addItemToCart(cart, item) {\n  cart.items.push(item);\n  return cart.total + item.price;\n}\n';

describe('search: index building and ignore rules', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = new TempWorkspace();
    ws.write('src/auth.ts', AUTH);
    ws.write('src/cart.ts', CART);
  });
  afterEach(() => ws.dispose());

  it('finds a natural-language question through split identifiers', async () => {
    const { engine } = engineFor(ws.root);
    const stats = await engine.open();
    assert.equal(stats.source, 'built');
    assert.equal(stats.files, 2);
    const hits = engine.lexical('where do we refresh the auth token?');
    assert.equal(hits[0]?.path, 'src/auth.ts');
    assert.deepEqual([hits[0]?.startLine, hits[0]?.endLine], [1, 4]);
    assert.match(hits[0]?.preview ?? '', /refreshAuthToken/);
    assert.deepEqual(engine.lexical('the of and'), [], 'a question of filler words matches nothing');
  });

  it('skips excluded, gitignored, binary and oversized files, and says why in the log', async () => {
    ws.write('.gitignore', 'dist/\n*.generated.ts\n');
    ws.write('dist/auth.js', AUTH);
    ws.write('src/auth.generated.ts', AUTH);
    ws.write('node_modules/lib/auth.js', AUTH);
    ws.write('vendor/auth.ts', AUTH);
    ws.write('logo.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 0x61, 0x75, 0x74, 0x68]));
    ws.write('big.ts', `// refresh auth token\n${'x'.repeat(3000)}`);
    const { engine, logs } = engineFor(ws.root, { settings: { excludeGlobs: ['**/node_modules', 'vendor'], maxFileSizeBytes: 2048 } });
    const stats = await engine.open();
    assert.deepEqual(stats.skipped, { excluded: 2, gitignored: 2, binary: 1, too_large: 1, unreadable: 0 });
    assert.deepEqual(paths(engine.lexical('refresh auth token')), ['src/auth.ts']);
    const summary = logs.find((l) => l.startsWith('info Search index built'));
    assert.match(summary ?? '', /3 files.*skipped 6: 2 excluded by files\.exclude\/search\.exclude, 2 by \.gitignore, 1 binary, 1 over 2 KB/);
    assert.ok(logs.includes('debug Search index skipped big.ts: too_large'));
  });

  it('stops when cancelled, with a typed cancellation', async () => {
    const { engine } = engineFor(ws.root);
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(engine.open({ signal: controller.signal }), (e: unknown) => (e as { kind?: string }).kind === 'cancelled');
  });

  it('reports progress up to the total', async () => {
    for (let i = 0; i < 120; i++) ws.write(`gen/f${i}.ts`, `export const value${i} = ${i};\n`);
    const { engine } = engineFor(ws.root);
    const seen: Array<[number, number]> = [];
    await engine.open({ onProgress: (p) => seen.push([p.done, p.total]) });
    assert.deepEqual(seen, [[100, 122], [122, 122]]);
  });
});

describe('search: incremental updates from file events', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = new TempWorkspace();
    ws.write('src/auth.ts', AUTH);
    ws.write('src/cart.ts', CART);
  });
  afterEach(() => ws.dispose());

  it('edit: debounced, applied once the quiet time passes', async () => {
    const { engine, timers } = engineFor(ws.root);
    await engine.open();
    ws.write('src/cart.ts', `${CART}\nexport function applyDiscountCoupon(cart, coupon) { return cart.total * coupon.rate; }\n`);
    let updates = 0;
    engine.onDidUpdate = () => void updates++;
    engine.notifyChanged('src/cart.ts');
    engine.notifyChanged('src/cart.ts');
    assert.equal(timers.count, 1, 'one debounce timer for a burst of events');
    assert.deepEqual(engine.lexical('discount coupon'), [], 'not applied before the debounce fires');
    timers.fire();
    await engine.flush();
    assert.equal(updates, 1);
    assert.deepEqual(paths(engine.lexical('discount coupon')), ['src/cart.ts']);
  });

  it('delete (a file or a whole folder) and rename', async () => {
    ws.write('lib/deep/util.ts', 'export function formatCurrency(amount) { return amount.toFixed(2); }\n');
    const { engine } = engineFor(ws.root);
    await engine.open();
    ws.remove('src/auth.ts');
    engine.notifyDeleted('src/auth.ts');
    await engine.flush();
    assert.deepEqual(engine.lexical('refresh auth token'), []);

    ws.remove('lib');
    engine.notifyDeleted('lib');
    await engine.flush();
    assert.deepEqual(engine.lexical('format currency'), []);

    ws.write('src/basket.ts', CART);
    ws.remove('src/cart.ts');
    engine.notifyRenamed('src/cart.ts', 'src/basket.ts');
    await engine.flush();
    assert.deepEqual(paths(engine.lexical('add item to cart')), ['src/basket.ts']);
    assert.equal(engine.stats.files, 1);
  });

  it('ignores events under excluded folders, and re-reads the rules when a .gitignore changes', async () => {
    const { engine } = engineFor(ws.root, { settings: { excludeGlobs: ['**/node_modules'] } });
    await engine.open();
    ws.write('node_modules/x/auth.js', AUTH);
    engine.notifyChanged('node_modules/x/auth.js');
    await engine.flush();
    assert.deepEqual(paths(engine.lexical('refresh auth token')), ['src/auth.ts']);

    ws.write('.gitignore', 'src/auth.ts\n');
    engine.notifyChanged('.gitignore');
    await engine.flush();
    assert.deepEqual(paths(engine.lexical('refresh auth token')), ['.gitignore'], 'src/auth.ts is now ignored (the rule file itself is text)');
  });

  it('a folder copied in and reported alone (no event for its files) has its files indexed, rules applied', async () => {
    const { engine } = engineFor(ws.root, { settings: { excludeGlobs: ['**/node_modules'] } });
    await engine.open();
    ws.write('lib/deep/util.ts', 'export function formatCurrency(amount) { return amount.toFixed(2); }\n');
    ws.write('lib/billing.ts', 'export function issueInvoice(order) { return order.total; }\n');
    ws.write('lib/node_modules/dep/index.js', 'export function formatCurrencyElsewhere() {}\n');
    ws.write('lib/.gitignore', 'generated.ts\n');
    ws.write('lib/generated.ts', 'export function formatCurrencyGenerated() {}\n');
    engine.notifyChanged('lib');
    await engine.flush();
    assert.deepEqual(paths(engine.lexical('format currency')), ['lib/deep/util.ts'], 'excluded and gitignored files stay out');
    assert.deepEqual(paths(engine.lexical('issue invoice')), ['lib/billing.ts']);
    assert.equal(engine.stats.files, 5, 'src/auth.ts, src/cart.ts, lib/deep/util.ts, lib/billing.ts, lib/.gitignore');
  });

  it('an event for a file that vanished before the update removes it', async () => {
    const { engine } = engineFor(ws.root);
    await engine.open();
    ws.remove('src/auth.ts');
    engine.notifyChanged('src/auth.ts');
    await engine.flush();
    assert.deepEqual(engine.lexical('refresh auth token'), []);
  });
});

describe('search: persistence', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = new TempWorkspace();
    ws.write('src/auth.ts', AUTH);
    ws.write('src/cart.ts', CART);
  });
  afterEach(() => ws.dispose());

  it('a reload uses the stored index and only re-reads what changed while closed', async () => {
    const first = engineFor(ws.root);
    await first.engine.open();
    assert.ok(!first.storage.files.has(INDEX_FILE), 'ready to query before the index is written');
    await first.engine.persisted();
    assert.ok(first.storage.files.has(INDEX_FILE));
    ws.write('src/cart.ts', `${CART}// shipping estimate\n`);
    ws.write('src/new.ts', 'export const shippingZones = [];\n');
    ws.remove('src/auth.ts');
    const second = engineFor(ws.root, { storage: first.storage });
    const stats = await second.engine.open();
    assert.equal(stats.source, 'loaded');
    assert.equal(stats.indexed, 2, 'the changed and the new file, not the unchanged ones');
    assert.equal(stats.removed, 1);
    assert.deepEqual(paths(second.engine.lexical('shipping')).sort(), ['src/cart.ts', 'src/new.ts']);
    assert.deepEqual(second.engine.lexical('refresh auth token'), []);
  });

  const rejectedWith = async (bytes: Uint8Array, reason: string): Promise<void> => {
    const rig = engineFor(ws.root);
    await rig.storage.write(INDEX_FILE, bytes);
    const stats = await rig.engine.open();
    assert.equal(stats.source, 'built');
    assert.equal(stats.rejected?.reason, reason, JSON.stringify(stats.rejected));
    assert.ok(rig.logs.some((l) => l.startsWith('warn Search index in storage not used')));
    assert.deepEqual(paths(rig.engine.lexical('refresh auth token')), ['src/auth.ts'], 'rebuilt and usable');
    await rig.engine.persisted();
    const reread = LexicalIndex.deserialize((await rig.storage.read(INDEX_FILE)) ?? new Uint8Array(), rig.engine.settingsKey());
    assert.ok(reread instanceof LexicalIndex, 'the rebuilt index replaced the bad file');
  };

  const stored = async (): Promise<Buffer> => {
    const good = engineFor(ws.root);
    await good.engine.open();
    await good.engine.persisted();
    return Buffer.from((await good.storage.read(INDEX_FILE)) ?? new Uint8Array());
  };

  it('a corrupt file (foreign bytes, truncated, flipped table bytes, trailing bytes) is rebuilt, never trusted', async () => {
    const good = await stored();
    assert.ok(LexicalIndex.deserialize(good, engineFor(ws.root).engine.settingsKey()) instanceof LexicalIndex, 'the intact file loads');
    await rejectedWith(new TextEncoder().encode('garbage'), 'corrupt');
    await rejectedWith(good.subarray(0, good.length - 5), 'corrupt');
    await rejectedWith(Buffer.concat([good, Buffer.from([1, 2, 3, 4])]), 'corrupt');
    const flipped = Buffer.from(good);
    flipped[200] = (flipped[200] ?? 0) ^ 0xff; // inside the tables: the checksum fails
    await rejectedWith(flipped, 'corrupt');
  });

  it('an older format version (v5 included) or other settings are rebuilt', async () => {
    const good = await stored();
    const old = Buffer.from(good);
    old.writeUInt32LE(INDEX_FORMAT_VERSION - 1, 4);
    await rejectedWith(old, 'old_version');
    const other = engineFor(ws.root, { settings: { maxFileSizeBytes: 12_345 } });
    await other.engine.open();
    await other.engine.persisted();
    await rejectedWith((await other.storage.read(INDEX_FILE)) ?? new Uint8Array(), 'settings_changed');
  });

  it('after file events the index is written once the save delay passes, and on dispose', async () => {
    const rig = engineFor(ws.root);
    await rig.engine.open();
    ws.write('src/cart.ts', `${CART}// gift wrapping\n`);
    rig.engine.notifyChanged('src/cart.ts');
    rig.timers.fire(); // the debounce
    await rig.engine.flush();
    // The stored index is the segment and the live file beside it (the changes since).
    const reload = async (): Promise<string[]> => {
      const idx = (await loadStoredIndex(rig.storage, rig.engine.settingsKey()))?.index;
      return idx instanceof LexicalIndex ? paths(idx.search('gift wrapping', 5)) : [];
    };
    assert.deepEqual(await reload(), [], 'not written yet');
    assert.equal(rig.timers.fire(10_000), 1);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(await reload(), ['src/cart.ts']);

    ws.write('src/auth.ts', `${AUTH}// gift wrapping too\n`);
    rig.engine.notifyChanged('src/auth.ts');
    rig.timers.fire(300);
    await rig.engine.flush();
    rig.engine.dispose();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual((await reload()).sort(), ['src/auth.ts', 'src/cart.ts'], 'dispose wrote the pending change');
  });

  it('a failed write only logs (the next start rebuilds)', async () => {
    const rig = engineFor(ws.root);
    rig.storage.write = () => Promise.reject(new Error('disk full'));
    const stats = await rig.engine.open();
    assert.equal(stats.files, 2);
    await rig.engine.persisted();
    assert.ok(rig.logs.includes('warn Search index not saved: disk full (searches go on from memory; not said again until a save succeeds)'));
    // A full disk fails every save: warned once, the next failures only at debug level.
    await rig.engine.save();
    await rig.engine.save();
    assert.equal(rig.logs.filter((l) => l.startsWith('warn Search index not saved')).length, 1);
    assert.equal(rig.logs.filter((l) => l === 'debug Search index not saved: disk full').length, 2);
    // Space is back: said so, and the next failure is warned about again.
    rig.storage.write = () => Promise.resolve();
    await rig.engine.save();
    assert.ok(rig.logs.includes('info Search index saved again.'));
    rig.storage.write = () => Promise.reject(new Error('disk full'));
    await rig.engine.save();
    assert.equal(rig.logs.filter((l) => l.startsWith('warn Search index not saved')).length, 2);
  });
});
