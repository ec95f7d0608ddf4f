// The declared-part marks (issue 41) of an index that lived: files edited so their declarations
// move, removed and added again, compactions (term ids renumbered), settles, saves and reloads
// (segment format, and a live file beside a segment), a build worker's share absorbed between. Whatever happened, every live chunk holds exactly the marks the
// definition gives its span (`addDeclaredParts` over the names `declarationsIn` finds there), each
// once with tf 1, and no chunk holds a mark twice; the BM25 lengths are those of a fresh build.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { chunkRanges, LexicalIndex } from '../../../src/core/search';
import { TF_BITS, TF_MAX } from '../../../src/core/search/shared/indexTypes';
import { layOutPartial } from '../../../src/core/search/build/packedPartial';
import { applyLive, encodeLive } from '../../../src/core/search/lexical/liveFile';
import type { Segment } from '../../../src/core/search/store/segment';
import { expectedMarks } from '../search/declaredMarks';
import { check } from './harness';

/** What the test reads of an index's insides (private to LexicalIndex). */
interface Insides {
  files: Map<string, { first: number; count: number }>;
  seg: Segment | undefined;
  live: { termNames: string[] };
  lengths: number[];
  lists(term: string): Array<ArrayLike<number> | undefined>;
}
const insides = (index: LexicalIndex): Insides => index as unknown as Insides;

const part = fc.constantFrom('Parcel', 'Watcher', 'watch', 'Collector', 'HTTP', 'Server', 'servers', 'get', 'the', 'x', 'Token', '2', 'v8', 'ID', 'é', 'z'.repeat(70));
const name = fc.tuple(fc.constantFrom('a', 'Do', 'make', 'problem', 'Parcel'), fc.array(fc.tuple(fc.constantFrom('', '', '_', '$'), part), { maxLength: 4 })).map(([head, rest]) => head + rest.map(([s, p]) => s + p).join(''));
const line = fc.tuple(
  fc.constantFrom(
    (n: string) => `export class ${n} extends ${n} {`,
    (n: string) => `function ${n}(input) {`,
    (n: string) => `const ${n} = 1;`,
    (n: string) => `  ${n}(value: string): void {`,
    (n: string) => `func (w *${n}Pool) ${n}() error {`,
    (n: string) => `  // watch the ${n} here`,
    () => '',
  ),
  name,
).map(([shape, n]) => shape(n));
const eol = fc.constantFrom('\n', '\r\n', '\r');
const file = fc.tuple(fc.array(line, { minLength: 1, maxLength: 40 }), eol).map(([lines, e]) => lines.join(e) + e);

type Op = { kind: 'set'; path: number; text: string } | { kind: 'remove'; path: number } | { kind: 'compact' } | { kind: 'settle' } | { kind: 'reload' } | { kind: 'saveLive' } | { kind: 'absorb'; files: Array<{ path: number; text: string }> };
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('set' as const), path: fc.integer({ min: 0, max: 4 }), text: file }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), path: fc.integer({ min: 0, max: 4 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'compact' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'settle' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reload' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'saveLive' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('absorb' as const), files: fc.uniqueArray(fc.record({ path: fc.integer({ min: 0, max: 6 }), text: file }), { minLength: 1, maxLength: 3, selector: (f) => f.path }) }) },
);

const stat = { mtime: 1, size: 1 };
const maxLines = 6;
const pathOf = (i: number): string => `src/m${i}/file${i}.ts`;



/** Each live chunk's marks (by path and span index) and length, read from the index's postings. */
function marksOf(index: LexicalIndex): { marks: Map<string, string[]>; lengths: Map<string, number> } {
  index.settle();
  const ins = insides(index);
  const owner = new Map<number, string>();
  const lengths = new Map<string, number>();
  for (const [path, { first, count }] of ins.files) {
    for (let j = 0; j < count; j++) {
      owner.set(first + j, `${path}#${j}`);
      lengths.set(`${path}#${j}`, ins.lengths[first + j] ?? 0);
    }
  }
  const terms = new Set(ins.live.termNames.filter((t) => t.startsWith('~')));
  const seg = ins.seg;
  if (seg) for (let k = 0; k < seg.termCount; k++) if (seg.term(k).startsWith('~')) terms.add(seg.term(k));
  const marks = new Map<string, string[]>([...owner.values()].map((key) => [key, []]));
  for (const term of terms) {
    const ids = new Set<number>();
    for (const list of ins.lists(term)) {
      for (let i = 0; i < (list?.length ?? 0); i++) {
        const value = list?.[i] ?? 0;
        const id = value >>> TF_BITS;
        const key = owner.get(id);
        if (key === undefined) continue; // a tombstone
        assert.equal(value & TF_MAX, 1, `${term} counted once in ${key}`);
        assert.ok(!ids.has(id), `${term} posted twice for ${key}`);
        ids.add(id);
        marks.get(key)?.push(term);
      }
    }
  }
  for (const list of marks.values()) list.sort();
  return { marks, lengths };
}

function reloaded(index: LexicalIndex): LexicalIndex {
  const back = LexicalIndex.deserialize(index.serialize('k'), 'k');
  assert.ok(back instanceof LexicalIndex);
  return back;
}

/** The index saved as its segment (`bytes`, written by the last reload) and a live file beside it, then opened again from both. */
function reopenedWithLive(index: LexicalIndex, bytes: Uint8Array): LexicalIndex {
  const live = encodeLive(index.parts(), 'k');
  const again = LexicalIndex.deserialize(bytes, 'k');
  assert.ok(again instanceof LexicalIndex && again.segment);
  assert.equal(applyLive(again, again.segment, live, 'k'), undefined);
  return again;
}

describe('properties: the declared-part marks of an index edited, compacted and reloaded', () => {
  it('keeps every live chunk\'s marks equal to its span\'s declared parts, once each, with fresh-build lengths', () => {
    check(
      fc.property(fc.array(op, { minLength: 1, maxLength: 25 }), (ops) => {
        let index = new LexicalIndex();
        let bytes: Uint8Array | undefined;
        const now = new Map<string, string>();
        for (const o of ops) {
          if (o.kind === 'set') {
            const path = pathOf(o.path);
            index.setFileText(path, stat, o.text, chunkRanges(path, o.text, { maxLines }));
            now.set(path, o.text);
          } else if (o.kind === 'remove') {
            index.removeFile(pathOf(o.path));
            now.delete(pathOf(o.path));
          } else if (o.kind === 'absorb') {
            // A build worker's share, indexed apart (its own term ids) and taken over.
            const worker = new LexicalIndex();
            for (const f of o.files) {
              worker.setFileText(pathOf(f.path), stat, f.text, chunkRanges(pathOf(f.path), f.text, { maxLines }));
              now.set(pathOf(f.path), f.text);
            }
            index.absorb(layOutPartial(worker.toPartial()));
          } else if (o.kind === 'compact') index.compact();
          else if (o.kind === 'settle') index.settle();
          else if (o.kind === 'reload') {
            bytes = index.serialize('k');
            const back = LexicalIndex.deserialize(bytes, 'k');
            assert.ok(back instanceof LexicalIndex);
            index = back;
          } else if (bytes) index = reopenedWithLive(index, bytes);
        }
        const fresh = new LexicalIndex();
        const want = new Map<string, string[]>();
        for (const [path, text] of now) {
          const spans = chunkRanges(path, text, { maxLines });
          fresh.setFileText(path, stat, text, spans);
          spans.forEach((s, j) => want.set(`${path}#${j}`, expectedMarks(text, s.start, s.end)));
        }
        const got = marksOf(index);
        assert.deepEqual(got.marks, want);
        assert.deepEqual(got.lengths, marksOf(fresh).lengths);
        const queries = ['watch parcels', 'collect problems', 'watch the server tokens', 'collection of parcel watchers'];
        const hits = (i: LexicalIndex, q: string): string[] => i.search(q, 20).map((h) => `${h.path}:${h.startLine} ${h.score.toFixed(6)}`).sort();
        const settled = reloaded(index);
        const freshSettled = reloaded(fresh);
        for (const q of queries) assert.deepEqual(hits(settled, q), hits(freshSettled, q), q);
      }),
      120,
    );
  });
});
