import * as assert from 'node:assert/strict';
import { chunkText, LexicalIndex, loadStoredIndex, MemoryIndexStorage, type LoadFailure } from '../../../src/core/search';
import { applyLive, encodeLive } from '../../../src/core/search/lexical/liveFile';
import { mergeSteps } from '../../../src/core/search/store/segmentMerge';

// The v6 segment on its own: a round trip through the binary format, the live tier beside it
// (tombstones and new files), and the merge of both into a new segment.

const KEY = 'settings-key';
const stat = { mtime: 7, size: 70 };
const WORDS = ['parcel', 'invoice', 'refund', 'courier', 'basket', 'ledger', 'warehouse', 'customer', 'discount', 'voucher'];

function text(i: number, salt = ''): string {
  const w = (k: number): string => WORDS[(i * 7 + k * 3) % WORDS.length] ?? 'x';
  return `export function handle${w(0)}${i}(${w(1)}) {\n  // ${w(2)} the ${w(3)} ${salt}\n  return ${w(4)}.total * ${i};\n}\n`;
}

function build(files: ReadonlyArray<readonly [string, string]>): LexicalIndex {
  const index = new LexicalIndex();
  for (const [path, body] of files) index.setFile(path, stat, chunkText(path, body));
  return index;
}

function opened(bytes: Uint8Array): LexicalIndex {
  const index = LexicalIndex.deserialize(bytes, KEY);
  assert.ok(index instanceof LexicalIndex, JSON.stringify(index));
  return index;
}

const QUERIES = ['parcel courier', 'refund the customer', 'invoice 12', 'discount voucher ledger', 'basket total', 'warehouse 3'];
/** Every hit as path, lines, preview and score (ids aside: a merge renumbers them), in the index's order. */
const answers = (index: LexicalIndex, q: string): string[] => index.search(q, 1000).map((h) => `${h.path}:${h.startLine}-${h.endLine} ${h.score.toFixed(10)} ${h.preview}`);

describe('search index v6: segment, live tier and merge', () => {
  const files = Array.from({ length: 40 }, (_, i) => [`src/m${i % 4}/f${i}.ts`, text(i)] as const);

  it('a segment round trip answers exactly as the index it was written from (scores, order, lines, previews)', () => {
    const index = build(files);
    const back = opened(index.serialize(KEY));
    assert.equal(back.fileCount, index.fileCount);
    assert.equal(back.chunkCount, index.chunkCount);
    for (const q of QUERIES) assert.deepEqual(answers(back, q), answers(index, q), q);
    assert.deepEqual(back.fileStat('src/m1/f5.ts'), stat);
    assert.deepEqual(back.paths().sort(), index.paths().sort());
    const [, first] = [...back.allChunks()][0] ?? [];
    assert.equal(first?.path, 'src/m0/f0.ts');
    assert.match(first?.preview ?? '', /^export function handle/);
  });

  it('updates go to the live tier (tombstones for the segment\'s chunks); a merge drops them and scores as a fresh build', () => {
    const loaded = opened(build(files).serialize(KEY));
    const final = new Map<string, string>(files);
    const replaced: string[] = [];
    for (let i = 0; i < 40; i += 3) {
      loaded.removeFile(files[i]?.[0] ?? '');
      final.delete(files[i]?.[0] ?? '');
    }
    for (let i = 1; i < 40; i += 5) {
      const path = files[i]?.[0] ?? '';
      if (!final.has(path)) continue;
      loaded.setFile(path, stat, chunkText(path, text(i, 'voucher refund')));
      final.set(path, text(i, 'voucher refund'));
      replaced.push(path);
    }
    loaded.setFile('src/new.ts', stat, chunkText('src/new.ts', text(99, 'parcel courier')));
    final.set('src/new.ts', text(99, 'parcel courier'));
    assert.ok(loaded.segment, 'still reading the segment');
    assert.equal(loaded.fileCount, final.size);
    assert.ok(!loaded.search('refund', 1000).some((h) => h.path === files[0]?.[0]), 'a removed file is gone at once');

    const merged = opened(loaded.serialize(KEY));
    // A fresh build of the same files in the merged order (the segment's untouched files, then the
    // live tier's in the order they were indexed): the same answers, in the same order.
    const order = [...files.map(([p]) => p).filter((p) => final.has(p) && !replaced.includes(p)), ...replaced, 'src/new.ts'];
    const fresh = build(order.map((p) => [p, final.get(p) ?? ''] as const));
    for (const q of [...QUERIES, 'voucher refund']) assert.deepEqual(answers(merged, q), answers(fresh, q), q);
    // Before the merge the tombstones still count in df (as removed chunks did before a compaction): the order may differ, not the set.
    assert.deepEqual(loaded.search('voucher refund', 1000).map((h) => h.path).sort(), fresh.search('voucher refund', 1000).map((h) => h.path).sort());
    assert.equal(merged.idSpace, merged.chunkCount + 1, 'ids compact after the merge');
  });

  it('the live file carries tombstones, new files and hashes across a save and a load, and only for its own segment', () => {
    const segment = build(files).serialize(KEY);
    const loaded = opened(segment);
    loaded.removeFile('src/m0/f0.ts');
    loaded.setFile('src/m1/f1.ts', stat, chunkText('src/m1/f1.ts', 'export const quokkaLedger = 1;\n'));
    const [id] = [...loaded.allChunks()].find(([, c]) => c.path === 'src/m2/f2.ts') ?? [0];
    loaded.setHash(id, 'a'.repeat(40));
    const live = encodeLive(loaded.parts(), KEY);

    const again = opened(segment);
    const seg = again.segment;
    assert.ok(seg);
    assert.equal(applyLive(again, seg, live, KEY), undefined);
    assert.deepEqual(again.search('quokka', 5).map((h) => h.path), ['src/m1/f1.ts']);
    assert.ok(!again.paths().includes('src/m0/f0.ts'));
    assert.equal(again.fileCount, loaded.fileCount);
    for (const q of QUERIES) assert.deepEqual(answers(again, q), answers(loaded, q), q);
    assert.equal(again.chunk(id)?.hash, 'a'.repeat(40));

    // Another segment (a merge happened since) or other settings: refused, the index untouched.
    const other = opened(build(files).serialize(KEY));
    const otherSeg = other.segment;
    assert.ok(otherSeg);
    assert.match(applyLive(other, otherSeg, live, KEY) ?? '', /another segment/);
    assert.match(applyLive(other, otherSeg, live, 'other key') ?? '', /settings/);
    assert.ok(other.paths().includes('src/m0/f0.ts'));
    // Damaged: refused whole, never half applied.
    const cut = live.subarray(0, live.length - 4);
    const before = answers(other, 'quokka ledger');
    assert.ok(applyLive(opened(segment), seg, cut, KEY) !== undefined);
    assert.deepEqual(answers(other, 'quokka ledger'), before);
  });

  it('loadStoredIndex reads the segment and the live file; a bad live file leaves the segment alone', async () => {
    const storage = new MemoryIndexStorage();
    const loaded = opened(build(files).serialize(KEY));
    await storage.write('search-index.bin', loaded.serialize(KEY));
    const base = opened((await storage.read('search-index.bin')) ?? new Uint8Array());
    base.setFile('src/late.ts', stat, chunkText('src/late.ts', 'export const wombatInvoice = 2;\n'));
    await storage.write('search-index.live.bin', encodeLive(base.parts(), KEY));
    const stored = await loadStoredIndex(storage, KEY);
    const index = stored?.index as LexicalIndex | LoadFailure | undefined;
    assert.ok(index instanceof LexicalIndex);
    assert.deepEqual(index.search('wombat', 5).map((h) => h.path), ['src/late.ts']);
    await storage.write('search-index.live.bin', new TextEncoder().encode('not a live file'));
    const refused = await loadStoredIndex(storage, KEY);
    assert.ok(refused?.index instanceof LexicalIndex);
    assert.match(refused.liveRefused ?? '', /not a live file/);
    assert.deepEqual(refused.index.search('wombat', 5), []);
  });

  it('content hashes set on many segment chunks (an embedding pass) call for a merge, which writes them into the segment', () => {
    const loaded = opened(build(Array.from({ length: 1200 }, (_, i) => [`lib/h${i}.ts`, `export const h${i} = ${i};\n`] as const)).serialize(KEY));
    assert.equal(loaded.needsMerge(), false);
    for (const [id] of [...loaded.allChunks()].slice(0, 1100)) loaded.setHash(id, `${'0'.repeat(36)}${String(id).padStart(4, '0')}`);
    assert.equal(loaded.needsMerge(), true);
    const merged = opened(loaded.serialize(KEY));
    assert.equal(merged.segment?.hashEdits.size, 0);
    assert.equal([...merged.allChunks()].filter(([, c]) => c.hash !== '').length, 1100);
    assert.equal(merged.chunk(7)?.hash, `${'0'.repeat(36)}0007`);
  });

  it('a merge runs in steps (its caller lets queries run between them) and writes what one call writes', () => {
    const index = build(Array.from({ length: 3000 }, (_, i) => [`lib/g${i}.ts`, `export const g${i} = ${i};\n`] as const));
    const steps = mergeSteps(index.parts(), KEY);
    let yields = 0;
    let result: IteratorResult<void, Uint8Array[]>;
    while (!(result = steps.next()).done) {
      yields++;
      assert.deepEqual(index.search('g42', 1).map((h) => h.path), ['lib/g42.ts'], 'queries between steps');
    }
    assert.ok(yields >= 1, `${yields} steps`);
    const stepped = opened(Buffer.concat(result.value));
    const whole = opened(index.serialize(KEY));
    for (const q of ['g42', 'g2999', 'export const']) assert.deepEqual(answers(stepped, q), answers(whole, q), q);
  });

  it('a path term new to the index that the content repeats gives its chunk one posting, not two', () => {
    // Files whose paths bring the new terms (their content repeats them): past the term counter's
    // first tables (1,024 terms) a new path term used to lose its mark, and the content listed it again.
    const index = build(Array.from({ length: 1100 }, (_, i) => [`lib/g${i}.ts`, `export const g${i} = ${i};\n`] as const));
    const back = opened(index.serialize(KEY));
    const seg = back.segment;
    assert.ok(seg);
    for (let k = 0; k < seg.termCount; k++) assert.doesNotThrow(() => seg.postings(k), seg.term(k));
    assert.deepEqual(back.search('g1099', 5).map((h) => h.path), ['lib/g1099.ts']);
  });

  it('a query reads each term\'s list from the file once, then from its small cache', () => {
    const bytes = build(files).serialize(KEY);
    let reads = 0;
    const index = LexicalIndex.open({ size: bytes.length, read: (into, pos) => (reads++, into.set(bytes.subarray(pos, pos + into.length)), Math.min(into.length, bytes.length - pos)), close: () => undefined }, KEY);
    assert.ok(index instanceof LexicalIndex);
    const atLoad = reads;
    index.search('parcel courier', 5);
    const first = reads - atLoad;
    assert.ok(first >= 2, `the two lists (and the hits' previews) are read: ${first}`);
    index.search('parcel courier', 0);
    const before = reads;
    index.search('courier parcel', 1000);
    const hits = index.search('courier parcel', 1000).length;
    assert.equal(reads - before, 2 * hits, 'only the previews of the hits are read again, not the lists');
  });
});
