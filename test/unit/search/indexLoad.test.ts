import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { chunkText, LexicalIndex, type LoadFailure } from '../../../src/core/search';
import { IndexCorruptError } from '../../../src/core/search/store/indexBounds';
import { readHeader, segmentLayout } from '../../../src/core/search/store/segmentFormat';

// Loading a persisted index (a v6 segment) that was damaged or crafted: found by fuzzing in v5, a
// header count of 3e8 or 2e9 made the loader allocate tables of that many entries and abort the
// extension host. Counts are bounded by the file's size before anything is allocated from them.

const KEY = 'settings-key';
const stat = { mtime: 1, size: 1 };

/** A real small persisted index, with a gap in its in-memory ids (a file removed and re-added). */
function smallIndex(): Buffer {
  const index = new LexicalIndex();
  index.setFile('src/cart.ts', stat, chunkText('src/cart.ts', 'export function addToCart(item) {\n  return basket.push(item);\n}\n'));
  index.setFile('src/ship.ts', stat, chunkText('src/ship.ts', 'export const shipParcel = (parcel) => courier.send(parcel);\n'));
  index.setFile('README.md', stat, chunkText('README.md', '# Shop\nCart and shipping.\n'));
  index.removeFile('src/cart.ts');
  index.setFile('src/cart.ts', stat, chunkText('src/cart.ts', 'export function addToCart(item) {\n  return basket.push(item);\n}\n'));
  return Buffer.from(index.serialize(KEY));
}

/** Header words: 3 files, 4 chunks, 5 terms, 6 postings (see segmentFormat.ts). */
const WORD = { files: 3, chunks: 4, terms: 5, postings: 6 } as const;

function withWord(buf: Buffer, word: number, value: number): Buffer {
  const out = Buffer.from(buf);
  out.writeUInt32LE(value >>> 0, 4 * word);
  return out;
}

/**
 * Loads in a child process with a small heap: an absurd allocation aborts the child (an
 * out-of-memory abort cannot be caught, not even in a worker thread), not the test run.
 */
function loadInSmallHeap(bytes: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'stratus-index-load-'));
  try {
    const file = join(dir, 'index.bin');
    writeFileSync(file, bytes);
    const script = `
      const { LexicalIndex } = require(${JSON.stringify(join(__dirname, '..', '..', '..', 'src', 'core', 'search', 'lexical', 'lexical.ts'))});
      const r = LexicalIndex.deserialize(require('node:fs').readFileSync(${JSON.stringify(file)}), ${JSON.stringify(KEY)});
      process.stdout.write(r instanceof LexicalIndex ? 'loaded' : r.reason);`;
    const child = spawnSync(process.execPath, ['--max-old-space-size=160', '--require', 'tsx/cjs', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    if (child.status !== 0) return `the loader died (status ${String(child.status)}, signal ${String(child.signal)})`;
    return child.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const isFailure = (r: LexicalIndex | LoadFailure): r is LoadFailure => !(r instanceof LexicalIndex);

describe('search index: loading a damaged or crafted file', function () {
  this.timeout(60_000);
  const good = smallIndex();

  it('the intact file loads, with compact ids (chunks 1..n) and every posting checked when read', () => {
    const h = readHeader(good);
    const back = LexicalIndex.deserialize(good, KEY);
    assert.ok(back instanceof LexicalIndex);
    assert.equal(back.idSpace, h.chunks + 1);
    assert.deepEqual(back.search('basket', 5).map((x) => x.path), ['src/cart.ts']);
  });

  it('an index holding an empty file (no chunk) saves in a form it loads back (issue 21)', () => {
    const index = new LexicalIndex();
    index.setFile('c/d/e.py', stat, chunkText('c/d/e.py', ''));
    index.setFile('a.ts', stat, chunkText('a.ts', 'cart'));
    const back = LexicalIndex.deserialize(index.serialize(KEY), KEY);
    assert.ok(back instanceof LexicalIndex, isFailure(back) ? JSON.stringify(back) : '');
    assert.deepEqual(back.paths().sort(), ['a.ts', 'c/d/e.py']);
    assert.deepEqual(back.search('cart', 5).map((x) => x.path), ['a.ts']);
    // The empty file's path terms had no postings: they are not saved, so they find nothing.
    assert.deepEqual(back.search('py', 5), []);
  });

  for (const [word, value] of [['chunks', 3e8], ['chunks', 2e9], ['files', 2 ** 28], ['terms', 0xffffffff], ['postings', 2e9]] as const) {
    it(`a header ${word} count of ${value} is refused as corrupt without allocating for it`, () => {
      const crafted = withWord(good, WORD[word], value);
      assert.equal(loadInSmallHeap(crafted), 'corrupt');
      const r = LexicalIndex.deserialize(crafted, KEY);
      assert.ok(isFailure(r) && r.reason === 'corrupt');
    });
  }

  it('a flipped byte anywhere in the tables is refused (their checksum)', () => {
    const end = segmentLayout(readHeader(good)).tablesEnd;
    for (let at = 64; at < end; at += 7) {
      const bad = Buffer.from(good);
      bad[at] = (bad[at] ?? 0) ^ 0x5a;
      const r = LexicalIndex.deserialize(bad, KEY);
      assert.ok(isFailure(r) && r.reason === 'corrupt', `byte ${at}`);
    }
  });

  it('a postings list pointing out of range or out of order is refused when read: a typed error, no answer', () => {
    const l = segmentLayout(readHeader(good));
    for (const value of [0xffffffff, 0, 1 << 4]) {
      const bad = Buffer.from(good);
      for (let at = l.postings; at < l.total; at += 4) bad.writeUInt32LE(value >>> 0, at);
      const r = LexicalIndex.deserialize(bad, KEY);
      assert.ok(r instanceof LexicalIndex, 'the lists are not read at load (O(terms + chunks))');
      assert.throws(() => r.search('basket parcel', 5), IndexCorruptError);
    }
  });

  it('one bit flipped in any postings entry is refused when its list is read (the list checksum)', () => {
    const l = segmentLayout(readHeader(good));
    for (let at = l.postings; at < l.total; at += 4) {
      const bad = Buffer.from(good);
      bad[at] = (bad[at] ?? 0) ^ 0x10; // the lowest bit of the chunk id: still in range, still plausible
      const r = LexicalIndex.deserialize(bad, KEY);
      assert.ok(r instanceof LexicalIndex);
      const everyTerm = r.segment ? Array.from({ length: r.segment.termCount }, (_, k) => k) : [];
      assert.ok(everyTerm.some((k) => {
        try {
          r.segment?.postings(k);
          return false;
        } catch (error) {
          return error instanceof IndexCorruptError;
        }
      }), `entry at ${at}`);
    }
  });

  it('a short read of a list (the file cut after it was opened) is a typed error', () => {
    const bytes = Buffer.from(good);
    const r = LexicalIndex.open({ size: bytes.length, read: (into, pos) => (pos >= segmentLayout(readHeader(good)).postings ? 0 : (bytes.copy(into, 0, pos, pos + into.length), Math.min(into.length, bytes.length - pos))), close: () => undefined }, KEY);
    assert.ok(r instanceof LexicalIndex);
    assert.throws(() => r.search('basket', 5), IndexCorruptError);
  });

  /** Whatever the bytes, the loader returns an index whose tables the file bounds, or a typed failure. */
  const checkLoad = (bytes: Uint8Array): void => {
    let r: LexicalIndex | LoadFailure;
    try {
      r = LexicalIndex.deserialize(bytes, KEY);
    } catch (error) {
      assert.fail(`deserialize threw ${String(error)}`);
    }
    if (isFailure(r)) {
      assert.ok(['corrupt', 'old_version', 'settings_changed'].includes(r.reason), r.reason);
    } else {
      assert.ok(r.idSpace <= bytes.length, `idSpace ${r.idSpace} for a file of ${bytes.length} bytes`);
      try {
        r.search('cart parcel basket', 10);
      } catch (error) {
        assert.ok(error instanceof IndexCorruptError, String(error));
      }
    }
  };

  it('property: mutated header numbers never throw or allocate beyond what the file describes', () => {
    const number = fc.oneof(fc.nat(), fc.constantFrom(0, 1, 3e8, 2e9, 2 ** 28, 2 ** 31, 0xffffffff), fc.nat(64));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 13 }), number, (word, value) => checkLoad(withWord(good, word, value))),
      { numRuns: 400 },
    );
  });

  it('property: mutated bytes (overwritten uint32s, flipped bytes, cut or extended files) never throw', () => {
    const u32 = fc.oneof(fc.nat(), fc.constantFrom(0, 1, 0xffffffff, 0x7fffffff, 3e8, 2e9));
    fc.assert(
      fc.property(
        fc.array(fc.record({ at: fc.nat(), byte: fc.nat(255) }), { maxLength: 6 }),
        fc.array(fc.record({ at: fc.nat(), value: u32 }), { maxLength: 3 }),
        fc.integer({ min: -64, max: 64 }),
        (flips, words, resize) => {
          const bytes = Buffer.alloc(Math.max(0, good.length + resize));
          good.copy(bytes, 0, 0, Math.min(good.length, bytes.length));
          for (const { at, value } of words) if (bytes.length >= 4) bytes.writeUInt32LE(value >>> 0, (at % (bytes.length - 3)) & ~3);
          for (const { at, byte } of flips) if (bytes.length > 0) bytes[at % bytes.length] = byte;
          checkLoad(bytes);
        },
      ),
      { numRuns: 600 },
    );
  });
});
