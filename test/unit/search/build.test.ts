// The bulk build's fast paths: the hashed part scanner (same parts as the query side's), the
// partial index a worker thread sends and its merge, data lines, and the build worker itself
// (run from source through tsx) against the one-thread build.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { chunkText, LexicalIndex, WORKER_MIN_FILES } from '../../../src/core/search';
import { forEachHashedPart, forEachPartRange, partCheck, partHash } from '../../../src/core/search/text/identifiers';
import { layOutPartial } from '../../../src/core/search/build/packedPartial';
import { engineFor, paths, TempWorkspace } from './helpers';

const stat = { mtime: 1, size: 1 };

const SAMPLE = [
  'export async function refreshAuthToken(session: Session): Promise<void> {',
  '  const HTTPServerError = utf8Decoder2 + MAX_RETRY_COUNT + $scope__value + _private_x;',
  '  // café Straße naïveCafé — “quoted” words, emoji 🙂 and a IPv6Address XMLHttpRequest',
  `  const blob = "${'QUJD'.repeat(40)}"; a b c1 2d userId ID Id iOS`,
].join('\n');

describe('search: the bulk build', () => {
  it('the indexer and the query side see the same parts, each with its partHash and partCheck', () => {
    const plain: Array<[number, number]> = [];
    forEachPartRange(SAMPLE, 0, SAMPLE.length, (s, e) => plain.push([s, e]));
    const hashed: Array<[number, number]> = [];
    forEachHashedPart(SAMPLE, 0, SAMPLE.length, {
      part: (s, e, h, g) => {
        hashed.push([s, e]);
        assert.equal(h, partHash(SAMPLE, s, e), `hash of "${SAMPLE.slice(s, e)}"`);
        assert.equal(g, partCheck(SAMPLE, s, e), `check of "${SAMPLE.slice(s, e)}"`);
      },
    });
    assert.ok(plain.length > 30);
    assert.deepEqual(hashed, plain);
    // A range inside the text.
    const from = SAMPLE.indexOf('HTTPServerError');
    const inner: string[] = [];
    forEachHashedPart(SAMPLE, from, from + 'HTTPServerError'.length, { part: (s, e) => inner.push(SAMPLE.slice(s, e)) });
    assert.deepEqual(inner, ['HTTP', 'Server', 'Error']);
  });

  it('splits words into parts at every kind of boundary (the scanner\'s fast path for lower-case runs included)', () => {
    const text = `getHTTPResponse2XXCode a1b2c3 __init__ $foo_bar déjàVu x×yz ABC aB abC 9ab ab9 AB9c HTTPServer IPv6Address ${'Ab'.repeat(33)} lastWord`;
    const parts = (from: number, to: number): string[] => {
      const out: string[] = [];
      forEachHashedPart(text, from, to, {
        part: (s, e, h, g) => {
          assert.equal(h, partHash(text, s, e), `hash of "${text.slice(s, e)}"`);
          assert.equal(g, partCheck(text, s, e), `check of "${text.slice(s, e)}"`);
          out.push(text.slice(s, e));
        },
      });
      return out;
    };
    // Parts of one letter go; a word over 64 characters goes whole; × ends a word.
    assert.deepEqual(parts(0, text.length), ['get', 'HTTP', 'Response', 'XX', 'Code', 'init', 'foo', 'bar', 'déjà', 'Vu', 'yz', 'ABC', 'ab', 'ab', 'ab', 'AB', 'HTTP', 'Server', 'Pv', 'Address', 'last', 'Word']);
    assert.deepEqual(parts(3, 30), ['HTTP', 'Response', 'XX', 'Code']);
    assert.deepEqual(parts(text.length - 4, text.length), ['Word']);
  });

  it('keeps two parts apart whose first hashes are equal (the part table keys on both hashes)', () => {
    // Two words of the same length with the same FNV-1a hash, found by a birthday search.
    assert.equal(partHash('tzddktm', 0, 7), partHash('fdgjfxa', 0, 7));
    assert.notEqual(partCheck('tzddktm', 0, 7), partCheck('fdgjfxa', 0, 7));
    const index = new LexicalIndex();
    index.setFile('a.ts', stat, chunkText('a.ts', 'const tzddktm = 1;\n'));
    index.setFile('b.ts', stat, chunkText('b.ts', 'const fdgjfxa = 2;\nconst tzddktm = 3;\n'));
    index.setFile('c.ts', stat, chunkText('c.ts', 'const fdgjfxa = 4;\n'));
    assert.deepEqual(paths(index.search('tzddktm', 5)).sort(), ['a.ts', 'b.ts']);
    assert.deepEqual(paths(index.search('fdgjfxa', 5)).sort(), ['b.ts', 'c.ts']);
  });

  it('skips data lines (1000 characters or more, not prose) but indexes the lines around them', () => {
    const index = new LexicalIndex();
    const text = `const parcelTracker = 1;\nconst x = [${'{wrapping:1,b:[2,3]},'.repeat(60)}];\nconst giftBox = 2;\n`;
    index.setFile('a.ts', stat, chunkText('a.ts', text));
    assert.deepEqual(paths(index.search('parcel tracker', 5)), ['a.ts']);
    assert.deepEqual(paths(index.search('gift box', 5)), ['a.ts']);
    assert.deepEqual(index.search('wrapping', 5), []);
  });

  it('a partial index merged into another answers like one index of every file', () => {
    const files = Array.from({ length: 60 }, (_, i) => [`src/m${i}/order${i}.ts`, `export function shipOrder${i}(parcel) {\n  // ${i % 3 ? 'refund' : 'invoice'} the customer ${i}\n  return parcel.weight * ${i};\n}\n`] as const);
    const whole = new LexicalIndex();
    for (const [path, text] of files) whole.setFile(path, stat, chunkText(path, text));
    const main = new LexicalIndex();
    const other = new LexicalIndex();
    files.forEach(([path, text], i) => (i % 2 ? other : main).setFile(path, stat, chunkText(path, text)));
    main.absorb(layOutPartial(other.toPartial()));
    assert.equal(main.fileCount, 60);
    assert.equal(main.chunkCount, whole.chunkCount);
    const sorted = (index: LexicalIndex, q: string): string[] => index.search(q, 100).map((h) => `${h.path} ${h.score.toFixed(9)} ${h.startLine}-${h.endLine} ${h.preview}`).sort();
    for (const q of ['refund customer', 'invoice parcel weight', 'ship order 7', 'order']) assert.deepEqual(sorted(main, q), sorted(whole, q), q);
    // It persists and keeps taking updates like any index.
    const back = LexicalIndex.deserialize(main.serialize('k'), 'k');
    assert.ok(back instanceof LexicalIndex);
    assert.deepEqual(sorted(back, 'refund customer'), sorted(whole, 'refund customer'));
    back.removeFile('src/m1/order1.ts');
    assert.ok(!paths(back.search('ship order 1', 100)).includes('src/m1/order1.ts'));
    assert.throws(() => back.toPartial(), /fresh/);
  });

  it('a share taken over (laid out) after this index laid out its own (a large index or not), then edited, answers like one index', () => {
    const files = Array.from({ length: 80 }, (_, i) => [`src/m${i}/order${i}.ts`, `export function shipOrder${i}(parcel) {\n  // ${i % 3 ? 'refund' : 'invoice'} the customer ${i}\n  return parcel.weight * ${i};\n}\n`] as const);
    const sorted = (index: LexicalIndex, q: string): string[] => index.search(q, 100).map((h) => `${h.path} ${h.score.toFixed(9)} ${h.startLine}-${h.endLine}`).sort();
    const queries = ['refund customer', 'invoice parcel weight', 'ship order 7', 'order', 'order 79'];
    const whole = new LexicalIndex();
    for (const [path, text] of files) whole.setFile(path, stat, chunkText(path, text));
    // Cut at 40 (laid out, then a share as large: one layout) and at 76 (a large base, then a
    // share too small for a layout: its lists go to the per-term additions).
    for (const cut of [40, 76]) {
      const main = new LexicalIndex();
      const other = new LexicalIndex();
      files.forEach(([path, text], i) => (i < cut ? main : other).setFile(path, stat, chunkText(path, text)));
      main.settle();
      main.absorb(layOutPartial(other.toPartial()));
      for (const q of queries) assert.deepEqual(sorted(main, q), sorted(whole, q), `${q} (cut at ${cut})`);
      // Files of the share removed and one edited, against the same edits on the whole index.
      const edited = new LexicalIndex();
      for (const [path, text] of files) edited.setFile(path, stat, chunkText(path, text));
      for (const index of [main, edited]) {
        index.removeFile('src/m77/order77.ts');
        index.removeFile('src/m79/order79.ts');
        index.setFile('src/m78/order78.ts', stat, chunkText('src/m78/order78.ts', 'export function shipOrder78(parcel) {\n  // refund twice\n}\n'));
        index.compact();
      }
      for (const q of queries) assert.deepEqual(sorted(main, q), sorted(edited, q), `${q} (cut at ${cut}, edited)`);
    }
  });
});

describe('search: the build worker', function () {
  this.timeout(60_000);
  let ws: TempWorkspace;
  before(() => {
    ws = new TempWorkspace();
    for (let i = 0; i < WORKER_MIN_FILES + 20; i++) ws.write(`src/d${i % 17}/file${i}.ts`, `export function handle${i % 2 ? 'Refund' : 'Invoice'}${i}(order) {\n  return order.total + ${i}; // parcel ${i}\n}\n`);
    ws.write('logo.png', new Uint8Array([0x89, 0x50, 0, 0, 1]));
    ws.write('src/big.ts', `// parcel\n${'x'.repeat(3000)}\n`);
  });
  after(() => ws.dispose());

  it('shares the list with a worker thread (front and back): the same index as one thread, chunk ids included, skips counted', async () => {
    const settings = { maxFileSizeBytes: 2048 };
    const one = engineFor(ws.root, { settings });
    const oneStats = await one.engine.open();
    const workerScript = join(__dirname, '..', '..', '..', 'src', 'core', 'search', 'build', 'buildWorker.ts');
    let started = 0;
    const two = engineFor(ws.root, {
      settings,
      buildWorker: () => {
        started++;
        return new Worker(workerScript, { execArgv: ['--require', 'tsx/cjs'] });
      },
    });
    const progress: number[] = [];
    const twoStats = await two.engine.open({ onProgress: (p) => progress.push(p.done) });
    assert.equal(started, 1);
    assert.deepEqual([twoStats.files, twoStats.chunks, twoStats.indexed, twoStats.skipped], [oneStats.files, oneStats.chunks, oneStats.indexed, oneStats.skipped]);
    assert.equal(progress[progress.length - 1], WORKER_MIN_FILES + 22);
    assert.ok(!two.logs.some((l) => l.startsWith('warn')), two.logs.join('\n'));
    for (const q of ['refund order total', 'invoice parcel 7', 'handle refund 13']) assert.deepEqual(two.engine.lexical(q, 1000), one.engine.lexical(q, 1000), q);
    // A reload of what it wrote needs no worker and re-reads nothing.
    await two.engine.persisted();
    const again = engineFor(ws.root, { settings, storage: two.storage, buildWorker: () => assert.fail('no worker for a reload') });
    const reloaded = await again.engine.open();
    assert.deepEqual([reloaded.source, reloaded.indexed], ['loaded', 0]);
  });

  it('a worker that fails leaves its share to the main thread, with a warning', async () => {
    const rig = engineFor(ws.root, { buildWorker: () => new Worker('throw new Error("no such bundle")', { eval: true }) });
    const stats = await rig.engine.open();
    assert.equal(stats.files, WORKER_MIN_FILES + 21);
    assert.equal(rig.engine.lexical('handle refund 13', 5)[0]?.path, 'src/d13/file13.ts');
    assert.ok(rig.logs.some((l) => /^warn Search index: the build worker failed \(.*no such bundle/.test(l)), rig.logs.join('\n'));
  });

  it('the worker starts before the walk; too few files to share: it is ended quietly and one thread builds', async () => {
    const small = new TempWorkspace();
    try {
      const words = ['refund', 'invoice', 'parcel', 'basket', 'courier'];
      words.forEach((w, i) => small.write(`src/f${i}.ts`, `export const ${w} = ${i};\n`));
      let exited: Promise<number> | undefined;
      const rig = engineFor(small.root, {
        buildWorker: () => {
          const worker = new Worker('require("node:worker_threads").parentPort.on("message", () => { throw new Error("no share was expected"); })', { eval: true });
          exited = new Promise<number>((resolve) => worker.once('exit', resolve));
          return worker;
        },
      });
      const progress: number[] = [];
      const stats = await rig.engine.open({ onProgress: (p) => progress.push(p.done) });
      // Started before the walk knew the files were too few to share.
      assert.ok(exited, 'a worker was started for the build from nothing');
      assert.equal(progress[progress.length - 1], 5);
      assert.equal(typeof (await exited), 'number', 'the worker was terminated');
      assert.equal(stats.files, 5);
      assert.equal(rig.engine.lexical('basket', 5)[0]?.path, 'src/f3.ts');
      assert.ok(!rig.logs.some((l) => l.startsWith('warn')), rig.logs.join('\n'));
    } finally {
      small.dispose();
    }
  });

  it('a share that comes back malformed is not used: the main thread indexes it, with a warning', async () => {
    const settings = { maxFileSizeBytes: 2048 };
    const one = engineFor(ws.root, { settings });
    await one.engine.open();
    // Takes no file (the main thread takes them all) and answers with a partial index whose one
    // posting names a chunk it does not have.
    const script = `
      const { parentPort } = require('node:worker_threads');
      parentPort.once('message', (r) => {
        const shared = new Int32Array(r.claims, 0, 3);
        while (Atomics.load(shared, 1) < 0) Atomics.wait(shared, 2, Atomics.load(shared, 2), 1000);
        const total = Atomics.load(shared, 1);
        const text = (list) => ({ text: list.join(''), lengths: Int32Array.from(list, (s) => s.length) });
        const partial = { terms: text(['refund']), paths: text([]), fileNumbers: new Float64Array(0), previews: { bytes: new Uint8Array(0), ends: new Uint32Array(0) },
          postingOffsets: new Uint32Array([0, 1]), postingData: new Uint32Array([7 << 4 | 1]), lines: new Int32Array(0), lengths: new Int32Array(0) };
        parentPort.postMessage({ kind: 'done', result: { partial, skipped: [], indexed: 0, from: total } });
      });`;
    const rig = engineFor(ws.root, { settings, buildWorker: () => new Worker(script, { eval: true }) });
    const stats = await rig.engine.open();
    assert.equal(stats.files, one.engine.stats.files);
    assert.ok(rig.logs.some((l) => /^warn Search index: the build worker's share was not used \(malformed partial index: postings of term 0 out of range\)/.test(l)), rig.logs.join('\n'));
    for (const q of ['refund order total', 'handle invoice 400']) assert.deepEqual(rig.engine.lexical(q, 1000), one.engine.lexical(q, 1000), q);
  });

  it('a worker that exits at once, perhaps before it is given its share, leaves that share to the main thread', async () => {
    const rig = engineFor(ws.root, { buildWorker: () => new Worker('process.exit(3)', { eval: true }) });
    const stats = await rig.engine.open();
    assert.equal(stats.files, WORKER_MIN_FILES + 21);
    assert.equal(rig.engine.lexical('handle refund 13', 5)[0]?.path, 'src/d13/file13.ts');
    assert.ok(rig.logs.some((l) => /^warn Search index: the build worker failed \(exited with code 3\)/.test(l)), rig.logs.join('\n'));
  });

  it('cancelling stops the worker too, with a typed cancellation', async () => {
    const controller = new AbortController();
    let exited: Promise<number> | undefined;
    const rig = engineFor(ws.root, {
      buildWorker: () => {
        const worker = new Worker('require("node:worker_threads").parentPort.on("message", () => {})', { eval: true });
        exited = new Promise<number>((resolve) => worker.once('exit', resolve));
        return worker;
      },
    });
    const opening = rig.engine.open({ signal: controller.signal, onProgress: () => controller.abort() });
    await assert.rejects(opening, (e: unknown) => (e as { kind?: string }).kind === 'cancelled');
    assert.ok(exited, 'a worker was started');
    assert.equal(typeof (await exited), 'number', 'the worker was terminated');
  });
});
