// The cold build's two-thread share: the shared claims on the file list (front and back), the
// build worker's batches put back in list order, the packed transfer (round trip and rejection of
// malformed input), the native NUL probe and the worker's JIT warm-up.
import * as assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { chunkText, LexicalIndex, looksBinary } from '../../../src/core/search';
import { MessageChannel } from 'node:worker_threads';
import { buildShare, indexLoaded, nulInProbe } from '../../../src/core/search/build/bulk';
import { FileClaims } from '../../../src/core/search/build/fileClaims';
import { NodeFileSystem } from '../../../src/core/search/shared/files';
import { PathFilter } from '../../../src/core/workspace/ignoreRules';
import { Indexer } from '../../../src/core/search/build/indexer';
import { TF_BITS, type LaidOutPartial, type PartialIndex } from '../../../src/core/search/shared/indexTypes';
import { batchesInListOrder, layOutPartial, MalformedPartialError, packPartial, packStrings, unpackPartial, unpackStrings, type PackedPartial } from '../../../src/core/search/build/packedPartial';
import { TempWorkspace } from './helpers';
import { silentLogger } from '../../../src/core/log';
import { DEFAULT_SEARCH_SETTINGS } from '../../../src/core/search';

const stat = { mtime: 1, size: 1 };

/** Generated files, some of several chunks, some empty (no chunk), words shared across files. */
function corpus(n: number): Array<[string, string]> {
  const words = ['refund', 'invoice', 'parcel', 'basket', 'courier', 'ledger', 'token', 'session'];
  return Array.from({ length: n }, (_, i): [string, string] => {
    if (i % 13 === 5) return [`src/empty/e${i}.ts`, '\n\n'];
    const fns = 1 + (i % 4);
    // Some previews are not ASCII: they travel between threads as UTF-8 bytes.
    let text = `// ${words[i % 8]} helpers ${i}${i % 5 === 2 ? ' — café 🙂' : ''}\n`;
    for (let f = 0; f < fns; f++) {
      text += `export function ${words[(i + f) % 8]}${i}x${f}(order) {\n`;
      for (let l = 0; l < 12; l++) text += `  const ${words[(i * 3 + l) % 8]}Total = order.${words[(f + l) % 8]} + ${l}; // ${words[(i + l) % 8]} note\n`;
      text += '}\n\n';
    }
    return [`src/m${i % 9}/file${String(i).padStart(3, '0')}.ts`, text];
  });
}

const describeIndex = (index: LexicalIndex): unknown => ({
  // The chunks as plain values (a chunk's meta object is a view over the index's columns).
  chunks: [...index.allChunks()].map(([id, c]) => [id, c.path, c.startLine, c.endLine, c.preview, c.hash]),
  hits: ['refund parcel', 'invoice total', 'courier note 7', 'ledger session', 'empty'].map((q) => index.search(q, 1000).map((h) => `${h.id} ${h.path}:${h.startLine} ${h.score.toFixed(12)}`)),
});

describe('search: the cold build share (front and back of one file list)', () => {
  it('two takers from the two ends never take the same file and leave none, the back leaving its `leave`', () => {
    const claims = FileClaims.create();
    const other = new FileClaims(claims.buffer);
    // While the list is being walked, only the back takes, and only what it was sent.
    assert.equal(claims.total, -1);
    assert.equal(other.take(11, 20, 8), 8);
    assert.equal(other.take(11, 20, 8), 0);
    claims.publish(30);
    assert.equal(other.published, 30);
    let back = 8 + other.take(11, 20, 30);
    claims.end(103);
    assert.equal(other.total, 103);
    let front = 0;
    for (let round = 0; ; round++) {
      const a = claims.take(7);
      const b = other.take(round % 2 ? 5 : 11, 20, 103);
      front += a;
      back += b;
      if (a === 0 && b === 0) break;
    }
    assert.equal(front + back, 103);
    assert.ok(front >= 20, `the front got ${front}`);
    assert.equal(claims.take(7), 0);
    const empty = FileClaims.create();
    empty.end(0);
    assert.equal(empty.take(4), 0);
  });

  it('a worker waiting for files wakes up when they are published, and does not wait once the list ended', async () => {
    const claims = FileClaims.create();
    // The worker reads the count, says so, then waits (60 s: a missed wake-up fails by the test's timeout).
    const script = `
      const { parentPort, workerData } = require('node:worker_threads');
      const shared = new Int32Array(workerData, 0, 3);
      const seen = Atomics.load(shared, 2);
      parentPort.postMessage('waiting');
      parentPort.postMessage(Atomics.wait(shared, 2, seen, 60000));`;
    const worker = new Worker(script, { eval: true, workerData: claims.buffer });
    const answers: unknown[] = [];
    const woken = new Promise<void>((resolve) =>
      worker.on('message', (m: unknown) => {
        answers.push(m);
        if (m === 'waiting') claims.publish(64);
        else resolve();
      }),
    );
    await woken;
    assert.ok(answers[1] === 'ok' || answers[1] === 'not-equal', String(answers[1]));
    await worker.terminate();
    // On this thread: no wait once the count moved, nor once the list ended.
    claims.waitForMore(0, 60_000);
    claims.end(64);
    claims.waitForMore(64, 60_000);
  });

  it('threads taking at once through the shared counter: every file taken exactly once', async () => {
    const total = 20_000;
    const claims = FileClaims.create();
    claims.end(total);
    const script = `
      const { parentPort, workerData } = require('node:worker_threads');
      const shared = new Int32Array(workerData.buffer, 0, 3);
      let got = 0;
      for (;;) {
        const before = Atomics.load(shared, 0);
        const k = Math.min(3, workerData.total - before);
        if (k <= 0) break;
        if (Atomics.compareExchange(shared, 0, before, before + k) === before) got += k;
      }
      parentPort.postMessage(got);`;
    const worker = new Worker(script, { eval: true, workerData: { buffer: claims.buffer, total } });
    const theirs = new Promise<number>((resolve) => worker.once('message', resolve));
    let mine = 0;
    for (let k = claims.take(2); k > 0; k = claims.take(2)) mine += k;
    assert.equal(mine + (await theirs), total);
    await worker.terminate();
  });

  it('batches indexed from the back, put in list order and absorbed: the index one thread reading the list builds', () => {
    const files = corpus(60);
    const whole = new LexicalIndex();
    for (const [path, text] of files) whole.setFile(path, stat, chunkText(path, text));
    const split = 23;
    const main = new LexicalIndex();
    for (const [path, text] of files.slice(0, split)) main.setFile(path, stat, chunkText(path, text));
    // The worker's share: batches of 1 to 6 files from the end of the list, each in list order.
    const worker = new LexicalIndex();
    const batches: number[] = [];
    let end = files.length;
    for (let k = 1; end > split; k = (k % 6) + 1) {
      const from = Math.max(split, end - k);
      const before = worker.fileCount;
      for (const [path, text] of files.slice(from, end)) worker.setFile(path, stat, chunkText(path, text));
      batches.push(worker.fileCount - before);
      end = from;
    }
    assert.ok(batches.length > 5);
    main.absorb(unpackPartial(packPartial(layOutPartial(batchesInListOrder(worker.toPartial(), batches)))));
    assert.deepEqual(describeIndex(main), describeIndex(whole));
    assert.deepEqual(main.paths(), whole.paths());
  });

  it('buildShare indexes the files sent from the end of the list, leaves the last ones to the front, and sends its share in list order', () => {
    const ws = new TempWorkspace();
    try {
      const files = corpus(90);
      for (const [path, text] of files) ws.write(path, text);
      ws.write('src/zz/logo.png', new Uint8Array([0x89, 0x50, 0, 1]));
      const list = [...files.map(([path]) => path), 'src/zz/logo.png'].sort();
      const fs = new NodeFileSystem(ws.root);
      const decoder = new TextDecoder();
      const one = new LexicalIndex();
      for (const path of list) indexLoaded(one, fs.loadSync.bind(fs), path, 1 << 20, {}, decoder);
      // The walk sent the whole list, from its end, in three messages; the front took 10 files
      // first; the worker takes batches of 7 from the back and leaves 1/7 of the list (13 files).
      const claims = FileClaims.create();
      const { port1, port2 } = new MessageChannel();
      const reversed = [...list].reverse();
      for (const part of [reversed.slice(0, 30), reversed.slice(30, 31), reversed.slice(31)]) {
        port1.postMessage(part.join('\0'));
        claims.publish(part.length);
      }
      claims.end(list.length);
      assert.equal(claims.take(10), 10);
      const progress: number[] = [];
      const result = buildShare({ root: ws.root, paths: port2, maxBytes: 1 << 20, chunk: {}, claims: claims.buffer, batch: 7, leaveDivisor: 7 }, (n) => progress.push(n));
      port1.close();
      assert.equal(result.from, 23);
      assert.deepEqual(progress, [], 'a report every 100 files: it indexed fewer');
      assert.deepEqual(result.skipped, [['src/zz/logo.png', 'binary']]);
      assert.equal(result.indexed + result.skipped.length, list.length - 23);
      assert.equal(claims.take(100), 13);
      const main = new LexicalIndex();
      for (const path of list.slice(0, 23)) indexLoaded(main, fs.loadSync.bind(fs), path, 1 << 20, {}, decoder);
      main.absorb(unpackPartial(result.partial));
      assert.deepEqual(describeIndex(main), describeIndex(one));
    } finally {
      ws.dispose();
    }
  });

  it('the walk lists files in sorted order and finds them from the end of that list (what the worker is sent first)', async () => {
    const ws = new TempWorkspace();
    try {
      const names = ['a/x.ts', 'a.b.ts', 'a-b.ts', 'a0.ts', 'ab/y.ts', 'A.ts', 'é.ts', 'Z/deep/er/f.ts', 'Z/deep.ts', '.hidden.ts', 'b/.gitignore', 'b/kept.ts', 'b/skipped.log', 'a/z/w.ts', 'a/z.ts'];
      for (const name of names) ws.write(name, name.endsWith('.gitignore') ? '*.log\n' : 'const x = 1;\n');
      const indexer = new Indexer({ fs: new NodeFileSystem(ws.root), logger: silentLogger, settings: () => DEFAULT_SEARCH_SETTINGS });
      const found: string[] = [];
      const skipped: string[] = [];
      const files = await indexer.walk(new PathFilter([]), true, (path) => skipped.push(path), undefined, '', (path) => found.push(path));
      const expected = names.filter((n) => n !== 'b/skipped.log').sort();
      assert.deepEqual(files, expected);
      assert.deepEqual(found, [...expected].reverse());
      assert.deepEqual(skipped, ['b/skipped.log']);
    } finally {
      ws.dispose();
    }
  });

  it('batches that do not match the partial index are refused', () => {
    const index = new LexicalIndex();
    index.setFile('a.ts', stat, chunkText('a.ts', 'const refund = 1;\n'));
    index.setFile('b.ts', stat, chunkText('b.ts', 'const parcel = 2;\n'));
    assert.throws(() => batchesInListOrder(index.toPartial(), [1, 2]), /do not match/);
  });
});

describe('search: the packed partial index', () => {
  const logged = (): PartialIndex => {
    const index = new LexicalIndex();
    for (const [path, text] of corpus(12)) index.setFile(path, { mtime: 1700000000123.5, size: text.length }, chunkText(path, text));
    return index.toPartial();
  };
  const partial = (): LaidOutPartial => layOutPartial(logged());
  /** A term whose list has two postings or more (a chance to put them out of order). */
  const longList = (p: PackedPartial): number => {
    for (let t = 0; t + 1 < p.postingOffsets.length; t++) if ((p.postingOffsets[t + 1] ?? 0) - (p.postingOffsets[t] ?? 0) >= 2) return t;
    throw new Error('no term with two postings');
  };
  const withData = (p: PackedPartial, change: (data: Uint32Array) => void): PackedPartial => {
    const data = p.postingData.slice();
    change(data);
    return { ...p, postingData: data };
  };

  it('round-trips: strings (empty ones and non-ASCII too), numbers and arrays come back as they were', () => {
    const list = ['', 'café', '🙂 emoji', '', 'a\u0000b', 'x'.repeat(300)];
    assert.deepEqual(unpackStrings(packStrings(list), 'test'), list);
    const p = partial();
    const back = unpackPartial(packPartial(p));
    assert.deepEqual(back, p);
  });

  it('lays the postings out per term, ids rising in each list, from one log block or several (the build grows its log by blocks)', () => {
    const p = logged();
    const terms = p.postingTerms[0] ?? new Int32Array(0);
    const values = p.postingValues[0] ?? new Uint32Array(0);
    assert.equal(p.postingTerms.length, 1);
    const { offsets, data } = layOutPartial(p).postings;
    assert.equal(offsets.length, p.terms.length + 1);
    assert.equal(data.length, values.length);
    for (let t = 0; t < p.terms.length; t++) {
      const expected = [...values].filter((_, i) => terms[i] === t);
      assert.deepEqual([...data.subarray(offsets[t], offsets[t + 1])], expected, p.terms[t]);
      for (let i = (offsets[t] ?? 0) + 1; i < (offsets[t + 1] ?? 0); i++) assert.ok((data[i] ?? 0) >>> TF_BITS > (data[i - 1] ?? 0) >>> TF_BITS);
    }
    const cut = Math.floor(terms.length / 2);
    const split: PartialIndex = { ...p, postingTerms: [terms.subarray(0, cut), terms.subarray(cut)], postingValues: [values.subarray(0, cut), values.subarray(cut)] };
    assert.deepEqual(layOutPartial(split).postings, { offsets, data });
  });

  it('survives a structured clone with its buffers moved (what the worker posts)', () => {
    const packed = packPartial(partial());
    const cloned = structuredClone(packed) as PackedPartial;
    assert.deepEqual(unpackPartial(cloned), unpackPartial(packed));
  });

  const malformed: Array<[string, (p: PackedPartial) => unknown]> = [
    ['not an object', () => 42],
    ['arrays of the wrong type', (p) => ({ ...p, postingData: Array.from(p.postingData) })],
    ['strings missing', (p) => ({ ...p, previews: undefined })],
    ['previews of the wrong type', (p) => ({ ...p, previews: { bytes: Array.from(p.previews.bytes), ends: p.previews.ends } })],
    ['preview of chunk 3 out of its bytes (going back)', (p) => ({ ...p, previews: { bytes: p.previews.bytes, ends: Uint32Array.from(p.previews.ends, (v, i) => (i === 2 ? 0 : v)) } })],
    ['preview out of its bytes (past the end)', (p) => ({ ...p, previews: { bytes: p.previews.bytes.subarray(1), ends: p.previews.ends } })],
    ['chunk tables do not match (previews)', (p) => ({ ...p, previews: { bytes: p.previews.bytes, ends: p.previews.ends.subarray(1) } })],
    ['lengths overrun the text', (p) => ({ ...p, terms: { text: p.terms.text.slice(1), lengths: p.terms.lengths } })],
    ['text left over', (p) => ({ ...p, paths: { text: `${p.paths.text}x`, lengths: p.paths.lengths } })],
    ['file numbers do not match', (p) => ({ ...p, fileNumbers: p.fileNumbers.subarray(3) })],
    ['bad numbers for file', (p) => ({ ...p, fileNumbers: Float64Array.from(p.fileNumbers, (v, i) => (i === 2 ? -1 : v)) })],
    ['chunk tables do not match', (p) => ({ ...p, lengths: p.lengths.subarray(1) })],
    ['negative length', (p) => ({ ...p, lengths: Int32Array.from(p.lengths, (v, i) => (i === 3 ? -5 : v)) })],
    ['posting offsets do not match the terms (one short)', (p) => ({ ...p, postingOffsets: p.postingOffsets.subarray(1) })],
    ['posting offsets do not match the terms (data left over)', (p) => ({ ...p, postingData: Uint32Array.from([...p.postingData, 1 << TF_BITS]) })],
    ['postings of a term out of range (offsets going back)', (p) => ({ ...p, postingOffsets: Uint32Array.from(p.postingOffsets, (v, i) => (i === 2 ? (p.postingOffsets[3] ?? 0) + 1 : v)) })],
    ['postings of a term out of range (chunk id past the chunks)', (p) => withData(p, (d) => (d[d.length - 1] = (p.lengths.length + 1) << TF_BITS))],
    ['postings of a term out of range (chunk ids going down in a list)', (p) => withData(p, (d) => (d[(p.postingOffsets[longList(p)] ?? 0) + 1] = d[p.postingOffsets[longList(p)] ?? 0] ?? 0))],
    ['postings of term 0 out of range (chunk id 0)', (p) => withData(p, (d) => (d[0] = 3))],
  ];
  for (const [what, spoil] of malformed) {
    it(`refuses a malformed one: ${what}`, () => {
      const p = packPartial(partial());
      assert.throws(
        () => unpackPartial(spoil(p)),
        (e: unknown) => e instanceof MalformedPartialError && /^malformed partial index: /.test(e.message),
      );
    });
  }
});

describe('search: the build helpers', () => {
  it('the native NUL probe answers as looksBinary, at the edge of the probed bytes too', () => {
    const at = (n: number, size: number): Uint8Array => {
      const b = new Uint8Array(size).fill(97);
      if (n >= 0) b[n] = 0;
      return b;
    };
    const cases = [at(-1, 10_000), at(0, 10), at(8191, 10_000), at(8192, 10_000), at(-1, 0), at(5, 6)];
    // A view into a larger buffer (what loadSync gives): only the view counts.
    const big = new Uint8Array(20_000).fill(97);
    big[100] = 0;
    cases.push(big.subarray(200, 9000), big.subarray(50, 150));
    for (const bytes of cases) assert.equal(nulInProbe(bytes), looksBinary(bytes), `${bytes.length} bytes`);
    assert.deepEqual(cases.map(nulInProbe), [false, true, true, false, false, true, false, true]);
  });
});
