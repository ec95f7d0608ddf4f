// The search index's on-disk format, through its public load function only
// (`LexicalIndex.deserialize`), so this file can follow the search rewrite: swap the two calls in
// `load` and `save` below for the new format's load/validate and save.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { chunkText, INDEX_FORMAT_VERSION, LexicalIndex, type LoadFailure } from '../../../src/core/search';
import { check, weirdJson } from './harness';

const KEY = 'settings-key';
const MAGIC_BYTES = (() => {
  // The first 4 bytes of any index this build writes.
  const sample = new LexicalIndex().serialize(KEY);
  return Buffer.from(sample.subarray(0, 4));
})();

function load(bytes: Uint8Array): LexicalIndex | LoadFailure {
  return LexicalIndex.deserialize(bytes, KEY);
}

function save(files: ReadonlyArray<{ path: string; text: string }>): Uint8Array {
  const index = new LexicalIndex();
  for (const f of files) index.setFile(f.path, { mtime: 1, size: f.text.length }, chunkText(f.path, f.text));
  return index.serialize(KEY);
}

function isFailure(r: LexicalIndex | LoadFailure): r is LoadFailure {
  return !(r instanceof LexicalIndex);
}

/** Whatever the bytes: a typed load failure, or an index that answers a search. Never a throw. */
function checkLoad(bytes: Uint8Array): void {
  let r: LexicalIndex | LoadFailure;
  try {
    r = load(bytes);
  } catch (error) {
    assert.fail(`load threw ${String(error)}`);
  }
  if (isFailure(r)) assert.ok(['corrupt', 'old_version', 'settings_changed'].includes(r.reason), r.reason);
  else r.search('cart parcel', 5);
}

/** A file with a well-formed frame (magic, version, header length) around any header text. */
function framed(header: string, tail: Uint8Array): Uint8Array {
  const json = Buffer.from(header);
  const head = Buffer.alloc(12);
  MAGIC_BYTES.copy(head, 0);
  head.writeUInt32LE(INDEX_FORMAT_VERSION, 4);
  head.writeUInt32LE(json.length, 8);
  return Buffer.concat([head, json, Buffer.alloc((4 - ((12 + json.length) % 4)) % 4), tail]);
}

const word = fc.constantFrom('cart', 'parcel', 'basket', 'ship', 'addToCart', 'x', 'é', '🌍');
const file = fc.record({ path: fc.constantFrom('a.ts', 'src/b.md', 'c/d/e.py'), text: fc.array(word, { maxLength: 30 }).map((w) => w.join(' ')) });

describe('properties: the search index on disk (public load function)', () => {
  it('random bytes, and a valid frame around any header JSON and any tables, load as a typed failure or a usable index', () => {
    const header = fc.oneof(
      weirdJson.map((v) => JSON.stringify(v) ?? ''),
      fc.record({ format: fc.constantFrom('stratus-search-index', 'x'), key: fc.constantFrom(KEY, 'other'), files: weirdJson, chunks: weirdJson, nextId: weirdJson }, { requiredKeys: [] }).map((h) => JSON.stringify(h)),
      fc.string({ maxLength: 30 }),
    );
    check(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 128 }), fc.tuple(header, fc.uint8Array({ maxLength: 64 })).map(([h, tail]) => framed(h, tail))), (bytes) => checkLoad(bytes)),
      400,
    );
  });

  it('what is saved loads back and finds the same chunks; any cut of it is a typed failure', () => {
    check(
      fc.property(fc.array(file, { maxLength: 3 }), fc.nat(), (files, cut) => {
        const unique = [...new Map(files.map((f) => [f.path, f])).values()];
        const bytes = save(unique);
        const loaded = load(bytes);
        assert.ok(!isFailure(loaded), 'a saved index loads');
        const fresh = load(save(unique));
        assert.ok(!isFailure(fresh));
        assert.deepEqual(loaded.search('cart parcel basket', 10).map((h) => h.id), fresh.search('cart parcel basket', 10).map((h) => h.id));
        checkLoad(bytes.subarray(0, cut % (bytes.length + 1)));
      }),
      150,
    );
  });
});
