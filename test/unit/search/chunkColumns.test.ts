import * as assert from 'node:assert/strict';
import { ChunkColumns } from '../../../src/core/search/lexical/chunkColumns';

// The live tier's chunk table in columns: what goes in comes out (as views), removals, hashes,
// and the previews block rewritten once most of it belongs to removed chunks.

const meta = (i: number, path = `src/f${i % 7}.ts`) => ({ path, startLine: i, endLine: i + 3, preview: `préview ${i} ✓`, hash: '' });

describe('search: the live tier\'s chunk columns', () => {
  it('keeps each chunk\'s path, lines, preview and hash by id, from the first id it was given', () => {
    const c = new ChunkColumns();
    for (let id = 41; id < 41 + 3000; id++) c.set(id, meta(id));
    assert.equal(c.size, 3000);
    const m = c.get(1000);
    assert.deepEqual({ path: m?.path, startLine: m?.startLine, endLine: m?.endLine, preview: m?.preview, hash: m?.hash }, { path: 'src/f6.ts', startLine: 1000, endLine: 1003, preview: 'préview 1000 ✓', hash: '' });
    assert.equal(c.get(40), undefined);
    assert.equal(c.get(41 + 3000), undefined);
    const view = c.get(77);
    assert.ok(view);
    view.hash = 'abc';
    assert.equal(c.get(77)?.hash, 'abc');
    assert.throws(() => c.set(5000, meta(5000)), /in order/);
  });

  it('removed chunks are gone; the previews of the others survive the block being rewritten', () => {
    const c = new ChunkColumns();
    const long = (i: number) => ({ ...meta(i), preview: `${'x'.repeat(900)} ${i}` });
    for (let id = 1; id <= 4000; id++) c.set(id, long(id));
    for (let id = 1; id <= 3000; id++) c.delete(id); // ~2.7 MB of dead previews: the block is rewritten
    c.delete(3000);
    assert.equal(c.size, 1000);
    assert.equal(c.get(2999), undefined);
    assert.equal(c.get(3500)?.preview, `${'x'.repeat(900)} 3500`);
    assert.deepEqual([...c.entries()].map(([id]) => id).slice(0, 3), [3001, 3002, 3003]);
    c.set(4001, meta(4001));
    assert.equal(c.get(4001)?.preview, 'préview 4001 ✓');
  });
});
