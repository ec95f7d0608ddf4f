import { TF_BITS } from '../shared/indexTypes';
import { layOutPostings, LOG_BLOCK, pendingCount, PostingLog, type PendingPostings, type PostingTable } from '../shared/postings';
import { declarationTermOfBucket, NAME_BUCKETS } from '../text/declarations';
import { declaredPartTerm } from './declaredParts';

/**
 * The postings of the chunks indexed in memory (everything before a first save; the files changed
 * since the segment was written after), ids ascending in each list, in three tiers: the base (one
 * Uint32Array, term t's list at base.data[base.offsets[t], base.offsets[t + 1])), built in one
 * counting pass after a bulk build or a compaction; per-term arrays for what was added since
 * (small updates); and the log of postings not yet distributed (indexing appends there).
 */
export class LiveTier {
  /** Term string -> term id; `termNames` the reverse. */
  private termIds = new Map<string, number>();
  termNames: string[] = [];
  base: PostingTable = { offsets: new Uint32Array(1), data: new Uint32Array(0) };
  extra: Array<number[] | undefined> = [];
  /**
   * Postings not laid out yet, in id order: logs (the one indexing appends to is the last; a large
   * build fills blocks of LOG_BLOCK postings: no copy of what is there to grow, no capacity
   * doubled for nothing) and a build worker's share, taken over as the table it laid out.
   */
  private logs: PendingPostings[] = [new PostingLog()];
  private extraCount = 0;

  /** `renumbered` is told when the terms got new ids (a compaction dropped some). */
  constructor(private readonly renumbered: (termCount: number) => void) {}

  /** The log to append `n` postings to. */
  room(n: number): PostingLog {
    const log = this.logs[this.logs.length - 1];
    if (log instanceof PostingLog && log.reserve(n, LOG_BLOCK)) return log;
    const block = new PostingLog(Math.max(n, LOG_BLOCK));
    this.logs.push(block);
    return block;
  }

  /** The logged postings, block by block (views: no copy). */
  logViews(): { terms: Int32Array[]; values: Uint32Array[] } {
    const logs = this.logs.filter((l): l is PostingLog => l instanceof PostingLog);
    if (logs.length !== this.logs.length) throw new Error('a table taken over is not a log');
    return { terms: logs.map((l) => l.terms.subarray(0, l.length)), values: logs.map((l) => l.values.subarray(0, l.length)) };
  }

  private get logged(): number {
    let n = 0;
    for (const log of this.logs) n += pendingCount(log);
    return n;
  }

  /** Postings held, settled or not. */
  get postingCount(): number {
    return this.base.data.length + this.logged + this.extraCount;
  }

  /** Nothing laid out yet (a build's share not settled: `toPartial` takes the log as it is). */
  get fresh(): boolean {
    return this.base.data.length === 0 && this.extraCount === 0;
  }

  /**
   * Takes over another index's laid-out postings (a build worker's share: its arrays, no copy),
   * its term t being `termMap[t]` here and `shift` added to its postings when they are laid out
   * with the rest (each list copied whole). Indexing goes on in a new log.
   */
  adopt(table: PostingTable, termMap: Int32Array, shift: number): void {
    if (table.offsets.length !== termMap.length + 1 || (table.offsets[termMap.length] ?? 0) !== table.data.length) throw new Error('inconsistent partial index');
    this.logs.push({ offsets: table.offsets, data: table.data, termMap, shift });
    this.logs.push(new PostingLog());
  }

  /** The term id of each declaration bucket met (-1: not yet): a declared name then costs no string and no map lookup. */
  private declarationIds: Int32Array | undefined;

  /** The id of the term of a declaration bucket (text/declarations.ts). */
  declarationTermId(bucket: number): number {
    const ids = (this.declarationIds ??= new Int32Array(NAME_BUCKETS).fill(-1));
    let t = ids[bucket] ?? -1;
    if (t < 0) ids[bucket] = t = this.termId(declarationTermOfBucket(bucket));
    return t;
  }

  /** The id of the declared-part mark (`~` and the term) of term `t` (the term counter keeps it per term id). */
  partMarkId(t: number): number {
    return this.termId(declaredPartTerm(this.termNames[t] ?? ''));
  }

  termId(term: string): number {
    let t = this.termIds.get(term);
    if (t === undefined) {
      t = this.termNames.length;
      this.termNames.push(term);
      this.termIds.set(term, t);
      this.extra.push(undefined);
    }
    return t;
  }

  /** Term ids in the sorted order of their strings (a segment's dictionary order). */
  sortedTermIds(): Int32Array {
    // The default sort of strings (UTF-16 code units, as `<`) is several times faster than a comparator over ids.
    const sorted = this.termNames.slice().sort();
    const ids = new Int32Array(sorted.length);
    for (let i = 0; i < sorted.length; i++) ids[i] = this.termIds.get(sorted[i] ?? '') ?? 0;
    return ids;
  }

  /** The term's settled lists (base, additions); undefined where it has none. */
  lists(term: string): [Uint32Array | undefined, number[] | undefined] {
    const t = this.termIds.get(term);
    if (t === undefined) return [undefined, undefined];
    const { offsets, data } = this.base;
    const base = t < offsets.length - 1 ? data.subarray(offsets[t] ?? 0, offsets[t + 1] ?? 0) : undefined;
    return [base, this.extra[t]];
  }

  /** Distributes the log: into the base when it is large, else per term. Returns whether removed chunks' postings were dropped. */
  settle(lengths: readonly number[], dropDead: boolean): boolean {
    const logged = this.logged;
    if (logged === 0) return false;
    if (logged * 8 >= this.base.data.length) {
      this.layOut(lengths, dropDead);
      return dropDead;
    }
    const add = (t: number, p: number): void => {
      const list = this.extra[t];
      if (list) list.push(p);
      else this.extra[t] = [p];
    };
    for (const log of this.logs) {
      if (log instanceof PostingLog) {
        for (let i = 0; i < log.length; i++) add(log.terms[i] ?? 0, log.values[i] ?? 0);
        continue;
      }
      const { offsets, data, termMap, shift } = log;
      for (let t = 0; t < termMap.length; t++) for (let i = offsets[t] ?? 0; i < (offsets[t + 1] ?? 0); i++) add(termMap[t] ?? 0, (data[i] ?? 0) + shift);
    }
    this.extraCount += logged;
    this.clearLogs();
    return false;
  }

  private clearLogs(): void {
    this.logs = [new PostingLog()];
  }

  /** Lays every posting out in one base (see `layOutPostings`); with `dropDead`, removed chunks' postings and terms left without any go. */
  layOut(lengths: readonly number[], dropDead: boolean): void {
    const termCount = this.termNames.length;
    const { offsets, data, renumber, kept } = layOutPostings(termCount, this.base, this.extra, this.logs, lengths, dropDead, TF_BITS);
    this.clearLogs();
    this.extraCount = 0;
    this.base = { offsets, data };
    if (kept !== termCount) {
      const names: string[] = [];
      for (let t = 0; t < termCount; t++) if ((renumber[t] ?? -1) >= 0) names.push(this.termNames[t] ?? '');
      this.termNames = names;
      this.termIds = new Map();
      for (let t = 0; t < names.length; t++) this.termIds.set(names[t] ?? '', t);
      this.declarationIds = undefined;
      this.renumbered(names.length);
    }
    this.extra = new Array<undefined>(this.termNames.length).fill(undefined);
  }

  /** Appends a term's postings (ids ascending, after any it has) to the log. */
  append(term: string, values: ArrayLike<number>): void {
    const t = this.termId(term);
    const log = this.room(values.length);
    for (let i = 0; i < values.length; i++) {
      log.terms[log.length] = t;
      log.values[log.length++] = values[i] ?? 0;
    }
  }
}
