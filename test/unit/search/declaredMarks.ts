// What a fresh (unsettled) index holds of the declared-part marks (declaredParts.ts), read from
// its postings: per chunk, in id order, its `~` terms sorted; each mark's tf must be 1.
import * as assert from 'node:assert/strict';
import type { LexicalIndex } from '../../../src/core/search';
import { declaredPartTerm } from '../../../src/core/search/lexical/declaredParts';
import { TF_BITS, TF_MAX } from '../../../src/core/search/shared/indexTypes';
import { declarationsIn } from '../../../src/core/search/text/declarations';
import { forEachTerm } from '../../../src/core/search/text/identifiers';

/**
 * The definition the indexer's marks must match (text/termCounter.ts `addMarks` does it in place,
 * without strings): the terms of a declared name's parts, for a name of two parts or more only (a
 * name of one word, `Publisher`, `Connect`, is an abstraction or a verb many types share).
 */
export function addDeclaredParts(name: string, out: Set<string>): void {
  let first = '';
  let count = 0;
  forEachTerm(name, (t) => {
    if (++count === 1) first = t;
    else {
      if (count === 2) out.add(first);
      out.add(t);
    }
  });
}

/** The marks the definition gives a text's span `[start, end)`, sorted. */
export function expectedMarks(text: string, start: number, end: number): string[] {
  const parts = new Set<string>();
  for (const [at, n] of declarationsIn(text)) if (at >= start && at < end) addDeclaredParts(n, parts);
  return [...parts].map(declaredPartTerm).sort();
}

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
