import type { Segment } from '../store/segment';
import type { Bm25Scores } from './bm25';
import type { QueryTerm } from './exactTerms';
import type { LiveTier } from './liveTier';

/** A term's postings: the segment's (read from disk), then the live tier's base and additions. */
export function termLists(seg: Segment | undefined, live: LiveTier, term: string): Array<ArrayLike<number> | undefined> {
  const k = seg ? seg.lookup(term) : -1;
  return [seg && k >= 0 ? seg.postings(k) : undefined, ...live.lists(term)];
}

/** A term's document frequency (tombstones included), its postings not read from disk. */
export function termCount(seg: Segment | undefined, live: LiveTier, term: string): number {
  const k = seg ? seg.lookup(term) : -1;
  return (seg && k >= 0 ? seg.count(k) : 0) + live.lists(term).reduce((sum, list) => sum + (list?.length ?? 0), 0);
}

/**
 * Adds each of a query's terms to `scores` (BM25 over `n` chunks of average length `avg`); a term
 * with an `idfTerm` takes that term's idf when it is lower (declaredParts.ts).
 */
export function scoreTerms(scores: Bm25Scores, terms: readonly QueryTerm[], seg: Segment | undefined, live: LiveTier, n: number, avg: number, lengths: readonly number[]): void {
  for (const { term, weight, boostOnly, idfTerm } of terms) {
    const lists = termLists(seg, live, term);
    const df = lists.reduce((sum, list) => sum + (list?.length ?? 0), 0);
    if (df > 0) scores.addTerm(lists, idfTerm === undefined ? df : Math.max(df, termCount(seg, live, idfTerm)), n, avg, lengths, weight, boostOnly);
  }
}
