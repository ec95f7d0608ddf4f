import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { chunkText, LexicalIndex, type LoadFailure } from '../../../src/core/search';

// Loading a persisted index that was damaged or crafted (found by fuzzing: a header `nextId` of
// 3e8 or 2e9 made the loader allocate tables of that many entries and abort the extension host).

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

function header(buf: Buffer): Record<string, unknown> {
  return JSON.parse(buf.toString('utf8', 12, 12 + buf.readUInt32LE(8))) as Record<string, unknown>;
}

/** The same file with its JSON header edited (lengths and padding recomputed). */
function withHeader(buf: Buffer, edit: (h: Record<string, unknown>) => void): Buffer {
  const length = buf.readUInt32LE(8);
  const h = header(buf);
  edit(h);
  const json = Buffer.from(JSON.stringify(h));
  const head = Buffer.alloc(12);
  buf.copy(head, 0, 0, 8);
  head.writeUInt32LE(json.length, 8);
  const pad = Buffer.alloc((4 - ((12 + json.length) % 4)) % 4);
  return Buffer.concat([head, json, pad, buf.subarray(Math.ceil((12 + length) / 4) * 4)]);
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
      const { LexicalIndex } = require(${JSON.stringify(join(__dirname, '..', '..', '..', 'src', 'core', 'search', 'lexical.ts'))});
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

  it('the intact file loads, with compact ids (nextId = chunks + 1)', () => {
    const h = header(good);
    assert.equal(h.nextId, (h.chunks as unknown[]).length + 1);
    const back = LexicalIndex.deserialize(good, KEY);
    assert.ok(back instanceof LexicalIndex);
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

  for (const nextId of [3e8, 2e9, 5e9, 2 ** 28, 2 ** 53]) {
    it(`a header nextId of ${nextId} is refused as corrupt without allocating for it`, () => {
      const crafted = withHeader(good, (h) => void (h.nextId = nextId));
      assert.equal(loadInSmallHeap(crafted), 'corrupt');
      const r = LexicalIndex.deserialize(crafted, KEY);
      assert.ok(isFailure(r) && r.reason === 'corrupt');
    });
  }

  it('refuses ids, lines and lengths out of range', () => {
    const rows = (h: Record<string, unknown>): unknown[][] => h.chunks as unknown[][];
    for (const edit of [
      (h: Record<string, unknown>) => void ((rows(h)[0] as unknown[])[1] = -1),
      (h: Record<string, unknown>) => void ((rows(h)[0] as unknown[])[5] = 1e300),
      (h: Record<string, unknown>) => void ((rows(h)[0] as unknown[])[5] = 0.5),
      (h: Record<string, unknown>) => void (h.nextId = 1.5),
      (h: Record<string, unknown>) => void (h.nextId = '3'),
      // A row's id repeated, zero, or at nextId (ids are 1..nextId - 1).
      (h: Record<string, unknown>) => void ((rows(h)[1] as unknown[])[0] = (rows(h)[0] as unknown[])[0]),
      (h: Record<string, unknown>) => void ((rows(h)[0] as unknown[])[0] = 0),
      (h: Record<string, unknown>) => void ((rows(h)[0] as unknown[])[0] = h.nextId),
    ]) {
      const r = LexicalIndex.deserialize(withHeader(good, edit), KEY);
      assert.ok(isFailure(r) && r.reason === 'corrupt');
    }
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
      r.search('cart parcel basket', 10);
    }
  };

  it('property: mutated header numbers never throw or allocate beyond what the file describes', () => {
    const number = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 1, 3e8, 2e9, 5e9, 2 ** 28, 2 ** 31, 2 ** 32, Number.MAX_SAFE_INTEGER, 1e300), fc.nat(64));
    const value = fc.oneof(number, fc.string({ maxLength: 4 }), fc.constant(null), fc.array(number, { maxLength: 3 }));
    fc.assert(
      fc.property(fc.constantFrom('nextId', 'chunk', 'file', 'chunkId'), fc.nat(), fc.nat(5), value, number, (where, row, field, v, n) => {
        const crafted = withHeader(good, (h) => {
          const chunks = h.chunks as unknown[][];
          const files = h.files as unknown[][];
          if (where === 'nextId') h.nextId = n;
          else if (where === 'chunk') (chunks[row % chunks.length] as unknown[])[field] = v;
          else if (where === 'file') (files[row % files.length] as unknown[])[field % 4] = v;
          else ((files[row % files.length] as unknown[])[3] as unknown[])[0] = n;
        });
        checkLoad(crafted);
      }),
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
