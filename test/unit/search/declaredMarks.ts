// What a fresh (unsettled) index holds of the declared-part marks (declaredParts.ts), read from
// its postings: per chunk, in id order, its `~` terms sorted; each mark's tf must be 1.
import * as assert from 'node:assert/strict';
import type { LexicalIndex } from '../../../src/core/search';
import { TF_BITS, TF_MAX } from '../../../src/core/search/shared/indexTypes';

export function marksByChunk(index: LexicalIndex): string[][] {
  const partial = index.toPartial();
  const out: string[][] = Array.from({ length: partial.lengths.length }, () => []);
  partial.postingTerms.forEach((terms, b) => {
    const values = partial.postingValues[b] ?? new Uint32Array(0);
    for (let i = 0; i < terms.length; i++) {
      const term = partial.terms[terms[i] ?? 0] ?? '';
      if (!term.startsWith('~')) continue;
      const value = values[i] ?? 0;
      assert.equal(value & TF_MAX, 1, `${term} counted once`);
      out[(value >>> TF_BITS) - 1]?.push(term);
    }
  });
  return out.map((marks) => marks.sort());
}
