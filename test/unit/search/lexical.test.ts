import * as assert from 'node:assert/strict';
import { chunkText, LexicalIndex } from '../../../src/core/search';

const stat = { mtime: 1, size: 1 };

function fileText(i: number): string {
  return `export function handleOrder${i}(order) {\n  // ship parcel ${i} to the warehouse\n  return order.total;\n}\n`;
}

describe('search: BM25 index', () => {
  it('ranks the chunk with more of the rare query terms first; path words count too', () => {
    const index = new LexicalIndex();
    index.setFile('src/common.ts', stat, chunkText('src/common.ts', 'export const total = order.total + order.tax;\n'));
    index.setFile('src/refund.ts', stat, chunkText('src/refund.ts', 'export function refundOrder(order) { return order.total; }\n'));
    index.setFile('src/billing/invoice.ts', stat, chunkText('src/billing/invoice.ts', 'export const x = 1;\n'));
    assert.deepEqual(index.search('refund the order', 10).map((h) => h.path), ['src/refund.ts', 'src/common.ts']);
    assert.deepEqual(index.search('invoice', 10).map((h) => h.path), ['src/billing/invoice.ts'], 'a path word finds the file');
    assert.equal(index.search('refund', 0).length, 0);
    assert.ok(index.search('refund order', 10).every((h, i, all) => i === 0 || (all[i - 1]?.score ?? 0) >= h.score));
  });

  it('returns the top `limit` of many matches, best first', () => {
    const index = new LexicalIndex();
    for (let i = 0; i < 300; i++) index.setFile(`f${i}.ts`, stat, chunkText(`f${i}.ts`, `order ${'parcel '.repeat(i % 7)}\nline ${i}\n`));
    const hits = index.search('parcel order', 25);
    assert.equal(hits.length, 25);
    const all = index.search('parcel order', 1000);
    assert.deepEqual(hits.map((h) => h.score), all.slice(0, 25).map((h) => h.score));
  });

  it('removed files vanish at once and compaction keeps the results; a round trip keeps them too', () => {
    const index = new LexicalIndex();
    for (let i = 0; i < 1500; i++) index.setFile(`src/o${i}.ts`, stat, chunkText(`src/o${i}.ts`, fileText(i)));
    for (let i = 0; i < 1400; i++) index.removeFile(`src/o${i}.ts`); // past the compaction threshold
    assert.equal(index.fileCount, 100);
    assert.equal(index.search('handle order ship parcel', 1000).length, 100);
    assert.deepEqual(index.search('parcel 1450', 1).map((h) => h.path), ['src/o1450.ts']);
    const back = LexicalIndex.deserialize(index.serialize('k'), 'k');
    assert.ok(back instanceof LexicalIndex);
    // Ids are written compact (1..n), so they may differ after the round trip; nothing else does.
    const withoutIds = (hits: ReadonlyArray<{ id: number }>): unknown[] => hits.map(({ id: _id, ...rest }) => rest);
    assert.deepEqual(withoutIds(back.search('parcel 1450 warehouse', 5)), withoutIds(index.search('parcel 1450 warehouse', 5)));
    // New chunks after a reload get new ids.
    back.setFile('src/new.ts', stat, chunkText('src/new.ts', 'export const refundPolicy = 1;\n'));
    assert.deepEqual(back.search('refund policy', 5).map((h) => h.path), ['src/new.ts']);
  });
});
