/** Postings per block of a large log: past it a log grows by new blocks, not by copies. */
export const LOG_BLOCK = 1 << 20;

/** An Int32Array / Uint32Array pair: (term id, packed posting) appended in chunk order. */
export class PostingLog {
  terms: Int32Array;
  values: Uint32Array;
  length = 0;

  constructor(capacity = 1 << 16) {
    this.terms = new Int32Array(capacity);
    this.values = new Uint32Array(capacity);
  }

  /** Room for `n` more postings, growing by doubling up to `max` entries; false when that is not enough. */
  reserve(n: number, max = Infinity): boolean {
    if (this.length + n <= this.terms.length) return true;
    const cap = Math.max(this.length + n, Math.min(max, this.terms.length * 2));
    if (cap > max) return false;
    const terms = new Int32Array(cap);
    terms.set(this.terms.subarray(0, this.length));
    this.terms = terms;
    const values = new Uint32Array(cap);
    values.set(this.values.subarray(0, this.length));
    this.values = values;
    return true;
  }

  /** A log over arrays given (a build worker's share, taken over without a copy). */
  static of(terms: Int32Array, values: Uint32Array): PostingLog {
    const log = new PostingLog(0);
    log.terms = terms;
    log.values = values;
    log.length = terms.length;
    return log;
  }
}

/**
 * Another index's postings, laid out (a build worker's share), taken over as they are: its term t
 * is term `termMap[t]` here, and `shift` is added to every posting (its chunk ids follow this
 * index's).
 */
export interface AdoptedTable extends PostingTable {
  termMap: Int32Array;
  shift: number;
}

/** Postings not laid out yet, in id order: logs, and tables taken over. */
export type PendingPostings = PostingLog | AdoptedTable;

export function pendingCount(p: PendingPostings): number {
  return p instanceof PostingLog ? p.length : p.data.length;
}

/** `dst[at..] = src[from, to) + shift` (its own small function: optimised after a few calls). */
export function copyShifted(src: Uint32Array, from: number, to: number, dst: Uint32Array, at: number, shift: number): void {
  for (let i = from, j = at; i < to; i++, j++) dst[j] = (src[i] ?? 0) + shift;
}

/** The `limit` ids with the highest scores (unordered), by quickselect on a copy. */
export function selectTop(ids: number[], scores: Float64Array, limit: number): number[] {
  const a = ids.slice();
  let lo = 0;
  let hi = a.length - 1;
  const k = limit - 1;
  while (lo < hi) {
    const pivot = scores[a[(lo + hi) >>> 1] ?? 0] ?? 0;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((scores[a[i] ?? 0] ?? 0) > pivot) i++;
      while ((scores[a[j] ?? 0] ?? 0) < pivot) j--;
      if (i <= j) {
        const t = a[i] ?? 0;
        a[i] = a[j] ?? 0;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return a.slice(0, limit);
}

/** Every term's postings in one array: term t's list is data[offsets[t], offsets[t + 1]). */
export interface PostingTable {
  offsets: Uint32Array<ArrayBuffer>;
  data: Uint32Array<ArrayBuffer>;
}

/**
 * One array of every term's postings (base, then per-term additions, then the logs and tables
 * taken over in order: ids stay ascending), by a counting pass and a placing pass (a table's
 * lists are copied whole). With `dropDead`, postings of removed chunks (length 0) and terms
 * without postings go: `renumber[t]` is term t's new id, -1 when dropped. The pending postings
 * are left as they were (the caller drops them).
 */
export function layOutPostings(
  termCount: number,
  base: PostingTable,
  extra: ReadonlyArray<readonly number[] | undefined>,
  pending: readonly PendingPostings[],
  lengths: readonly number[],
  dropDead: boolean,
  tfBits: number,
): PostingTable & { renumber: Int32Array; kept: number } {
  const live = (p: number): boolean => !dropDead || (lengths[p >>> tfBits] ?? 0) > 0;
  const counts = new Uint32Array(termCount + 1);
  const oldOffsets = base.offsets;
  const oldData = base.data;
  const oldTerms = oldOffsets.length - 1;
  for (let t = 0; t < oldTerms; t++) {
    const from = oldOffsets[t] ?? 0;
    const to = oldOffsets[t + 1] ?? 0;
    if (!dropDead) counts[t] = to - from;
    else for (let i = from; i < to; i++) if (live(oldData[i] ?? 0)) counts[t] = (counts[t] ?? 0) + 1;
  }
  for (let t = 0; t < termCount; t++) {
    const list = extra[t];
    if (list) for (const p of list) if (live(p)) counts[t] = (counts[t] ?? 0) + 1;
  }
  for (const log of pending) {
    if (!(log instanceof PostingLog)) countTable(log, counts, dropDead ? live : undefined);
    else if (dropDead) {
      for (let i = 0; i < log.length; i++) if (live(log.values[i] ?? 0)) counts[log.terms[i] ?? 0] = (counts[log.terms[i] ?? 0] ?? 0) + 1;
    } else {
      countLog(log.terms, log.length, counts);
    }
  }
  // New numbering: with dropDead, terms without postings go.
  const renumber = new Int32Array(termCount);
  let kept = 0;
  for (let t = 0; t < termCount; t++) {
    if (dropDead && counts[t] === 0) renumber[t] = -1;
    else renumber[t] = kept++;
  }
  const offsets = new Uint32Array(kept + 1);
  for (let t = 0; t < termCount; t++) {
    const n = renumber[t] ?? -1;
    if (n >= 0) offsets[n + 1] = counts[t] ?? 0;
  }
  for (let n = 0; n < kept; n++) offsets[n + 1] = (offsets[n + 1] ?? 0) + (offsets[n] ?? 0);
  const data = new Uint32Array(offsets[kept] ?? 0);
  const cursor = offsets.slice(0, kept);
  for (let t = 0; t < oldTerms; t++) {
    const n = renumber[t] ?? -1;
    if (n < 0) continue;
    let c = cursor[n] ?? 0;
    const from = oldOffsets[t] ?? 0;
    const to = oldOffsets[t + 1] ?? 0;
    if (!dropDead) {
      data.set(oldData.subarray(from, to), c);
      c += to - from;
    } else {
      for (let i = from; i < to; i++) {
        const p = oldData[i] ?? 0;
        if (live(p)) data[c++] = p;
      }
    }
    cursor[n] = c;
  }
  for (let t = 0; t < termCount; t++) {
    const list = extra[t];
    const n = renumber[t] ?? -1;
    if (!list || n < 0) continue;
    let c = cursor[n] ?? 0;
    for (const p of list) if (live(p)) data[c++] = p;
    cursor[n] = c;
  }
  for (const log of pending) {
    if (!(log instanceof PostingLog)) {
      placeTable(log, renumber, cursor, data, dropDead ? live : undefined);
      continue;
    }
    if (!dropDead) {
      placeLog(log.terms, log.values, log.length, cursor, data);
      continue;
    }
    for (let i = 0; i < log.length; i++) {
      const p = log.values[i] ?? 0;
      if (!live(p)) continue;
      const n = renumber[log.terms[i] ?? 0] ?? 0;
      data[cursor[n] ?? 0] = p;
      cursor[n] = (cursor[n] ?? 0) + 1;
    }
  }
  return { offsets, data, renumber, kept };
}

// The two passes over a log when nothing is dropped (term ids kept: a build's first layout),
// each a small function of its own so it is optimised at once; about half the time of the
// general loop with its liveness test and renumbering.

function countLog(terms: Int32Array, length: number, counts: Uint32Array): void {
  for (let i = 0; i < length; i++) {
    const t = terms[i] ?? 0;
    counts[t] = (counts[t] ?? 0) + 1;
  }
}

function placeLog(terms: Int32Array, values: Uint32Array, length: number, cursor: Uint32Array, data: Uint32Array): void {
  for (let i = 0; i < length; i++) {
    const t = terms[i] ?? 0;
    const c = cursor[t] ?? 0;
    data[c] = values[i] ?? 0;
    cursor[t] = c + 1;
  }
}

/** Counts a table's postings into `counts` (by its term map); only those `live` says when given. */
function countTable(table: AdoptedTable, counts: Uint32Array, live: ((p: number) => boolean) | undefined): void {
  const { offsets, data, termMap, shift } = table;
  for (let t = 0; t < termMap.length; t++) {
    const m = termMap[t] ?? 0;
    const from = offsets[t] ?? 0;
    const to = offsets[t + 1] ?? 0;
    if (!live) counts[m] = (counts[m] ?? 0) + (to - from);
    else for (let i = from; i < to; i++) if (live((data[i] ?? 0) + shift)) counts[m] = (counts[m] ?? 0) + 1;
  }
}

/** Places a table's lists (shifted) at each term's cursor (its new id through `renumber`). */
function placeTable(table: AdoptedTable, renumber: Int32Array, cursor: Uint32Array, out: Uint32Array, live: ((p: number) => boolean) | undefined): void {
  const { offsets, data, termMap, shift } = table;
  for (let t = 0; t < termMap.length; t++) {
    const n = renumber[termMap[t] ?? 0] ?? -1;
    if (n < 0) continue;
    const from = offsets[t] ?? 0;
    const to = offsets[t + 1] ?? 0;
    let c = cursor[n] ?? 0;
    if (!live) {
      copyShifted(data, from, to, out, c, shift);
      c += to - from;
    } else {
      for (let i = from; i < to; i++) {
        const p = (data[i] ?? 0) + shift;
        if (live(p)) out[c++] = p;
      }
    }
    cursor[n] = c;
  }
}
