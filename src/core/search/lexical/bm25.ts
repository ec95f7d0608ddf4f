import { TF_BITS, TF_MAX } from '../shared/indexTypes';
import { selectTop } from '../shared/postings';

const K1 = 1.2;
const B = 0.75;

/** Scores accumulated over a query's terms: a reused table by chunk id, and the ids touched. */
export class Bm25Scores {
  private scores = new Float64Array(0);
  private touched: number[] = [];

  constructor() {}

  /** Starts a query over ids below `idSpace`; `n` live chunks of average length `avg`. */
  begin(idSpace: number): void {
    if (this.scores.length < idSpace) this.scores = new Float64Array(Math.max(idSpace, this.scores.length * 2));
    this.touched = [];
  }

  /**
   * Adds one term: its postings in several lists (segment, live base, live additions), `df` in
   * all, its idf times `weight`; `boostOnly`: it adds only to chunks an earlier term scored. A
   * posting of a removed chunk (length 0) scores nothing but counts in df (until a merge); df is
   * taken at most `n` there, or a term (or a declared form, whose df is its plain word's) whose
   * removed chunks outnumber the live ones would get a negative idf and lower the chunks it finds.
   */
  addTerm(lists: ReadonlyArray<ArrayLike<number> | undefined>, df: number, n: number, avg: number, lengths: readonly number[], weight = 1, boostOnly = false): void {
    const scores = this.scores;
    const touched = this.touched;
    const d = Math.min(df, n);
    const idf = weight * Math.log(1 + (n - d + 0.5) / (d + 0.5));
    for (const list of lists) {
      if (!list) continue;
      for (let i = 0; i < list.length; i++) {
        const p = list[i] ?? 0;
        const id = p >>> TF_BITS;
        const len = lengths[id] ?? 0;
        if (len === 0) continue; // removed
        const tf = p & TF_MAX;
        if (scores[id] === 0) {
          if (boostOnly) continue;
          touched.push(id);
        }
        scores[id] = (scores[id] ?? 0) + (idf * (tf * (K1 + 1))) / (tf + K1 * (1 - B + (B * len) / avg));
      }
    }
  }

  /** The best `limit` ids with their scores, best first (ties by id: earlier chunks first); resets the table. */
  top(limit: number): Array<[number, number]> {
    const scores = this.scores;
    const touched = this.touched;
    const top = touched.length <= limit ? touched.slice() : selectTop(touched, scores, limit);
    top.sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b);
    const out = top.map((id): [number, number] => [id, scores[id] ?? 0]);
    this.reset();
    return out;
  }

  reset(): void {
    for (const id of this.touched) this.scores[id] = 0;
    this.touched = [];
  }
}
