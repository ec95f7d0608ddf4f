// One file's chunks spread out (issue 41): a file holding the question's words all through no
// longer fills the first places with its chunks; each file's best chunk keeps its score.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { chunkText, LexicalIndex } from '../../../src/core/search';
import { FILE_REPEAT_DECAY, spreadFiles } from '../../../src/core/search/lexical/fileSpread';
import { check } from '../properties/harness';

/** A file of `n` functions, each a chunk that mentions the watcher's words. */
function protocolFile(n: number): string {
  return Array.from({ length: n }, (_, i) => `export function notify${i}(client) {\n  // watch the file system and report each change to the client\n  client.report(watch(fileSystem.change${i}));\n}\n`).join('\n');
}

describe('search: one file\'s chunks spread out', () => {
  it('ranks another file\'s best chunk above the later chunks of a file that mentions the words all through', () => {
    const index = new LexicalIndex();
    const crowd = 'src/common/watcher-protocol.ts';
    const crowdChunks = chunkText(crowd, protocolFile(14), { maxLines: 4, overlapLines: 0 });
    assert.ok(crowdChunks.length >= 12, `the crowding file has ${crowdChunks.length} chunks`);
    index.setFile(crowd, { mtime: 1, size: 1 }, crowdChunks);
    const answer = 'src/node/parcel-watcher-service.ts';
    index.setFile(answer, { mtime: 1, size: 1 }, chunkText(answer, 'export class ParcelWatcherService {\n  // watch the file system, report changes\n  start(fileSystem) { return watch(fileSystem); }\n}\n'));
    const hits = index.search('watch the file system for changes and report them to clients', 10).map((h) => h.path);
    assert.ok(hits.slice(0, 3).includes(answer), hits.join(', '));
    assert.equal(hits.filter((p) => p === crowd).length, 9, 'the crowding file keeps its other places');
  });

  it('decays a file\'s later chunks by FILE_REPEAT_DECAY each, the best one untouched', () => {
    const out = spreadFiles([
      { path: 'a.ts', score: 10 },
      { path: 'a.ts', score: 9 },
      { path: 'a.ts', score: 8 },
      { path: 'b.ts', score: 6 },
    ]);
    assert.deepEqual(
      out.map((h) => [h.path, h.score]),
      [
        ['a.ts', 10],
        ['b.ts', 6],
        ['a.ts', 9 * FILE_REPEAT_DECAY],
        ['a.ts', 8 * FILE_REPEAT_DECAY ** 2],
      ],
    );
  });

  it('never moves a file\'s first place down, and keeps every hit (property)', () => {
    const hit = fc.record({ path: fc.constantFrom('a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts'), score: fc.double({ min: 0.01, max: 100, noNaN: true }), id: fc.nat() });
    check(
      fc.property(fc.array(hit, { maxLength: 40 }), (raw) => {
        const hits = [...raw].sort((a, b) => b.score - a.score);
        const out = spreadFiles(hits);
        assert.deepEqual(out.map((h) => h.id).sort((a, b) => a - b), hits.map((h) => h.id).sort((a, b) => a - b));
        for (const path of new Set(hits.map((h) => h.path))) {
          assert.ok(out.findIndex((h) => h.path === path) <= hits.findIndex((h) => h.path === path), path);
        }
        for (let i = 1; i < out.length; i++) assert.ok((out[i - 1]?.score ?? 0) >= (out[i]?.score ?? 0));
      }),
      300,
    );
  });
});
