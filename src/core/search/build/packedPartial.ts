import { previewStart, TF_BITS, type LaidOutPartial, type PartialIndex, type PreviewBytes } from '../shared/indexTypes';
import { copyShifted, layOutPostings, PostingLog } from '../shared/postings';

/**
 * A partial index as it crosses from the build worker to the index worker: typed arrays (their
 * buffers moved, not copied; the previews as the UTF-8 block they are kept in) and a few long
 * strings. A structured clone of one long string is one copy, of 40,000 short ones 40,000 objects
 * made on the receiving thread while it waits.
 * `unpackPartial` checks everything before an index takes it.
 */

/** Strings as one text and each one's length. */
export interface PackedStrings {
  text: string;
  lengths: Int32Array;
}

export interface PackedPartial {
  terms: PackedStrings;
  paths: PackedStrings;
  /** Per file: mtime, size, number of chunks. */
  fileNumbers: Float64Array;
  previews: PreviewBytes;
  /** The postings laid out (as `LaidOutPartial`). */
  postingOffsets: Uint32Array<ArrayBuffer>;
  postingData: Uint32Array<ArrayBuffer>;
  lines: Int32Array;
  lengths: Int32Array;
}

export class MalformedPartialError extends Error {
  constructor(detail: string) {
    super(`malformed partial index: ${detail}`);
    this.name = 'MalformedPartialError';
  }
}

export function packStrings(list: readonly string[]): PackedStrings {
  const lengths = new Int32Array(list.length);
  for (let i = 0; i < list.length; i++) lengths[i] = (list[i] ?? '').length;
  return { text: list.join(''), lengths };
}

export function unpackStrings(packed: PackedStrings, what: string): string[] {
  const { text, lengths } = packed;
  if (typeof text !== 'string' || !(lengths instanceof Int32Array)) throw new MalformedPartialError(`${what} are not packed strings`);
  const out = new Array<string>(lengths.length);
  let at = 0;
  for (let i = 0; i < lengths.length; i++) {
    const n = lengths[i] ?? -1;
    if (n < 0 || at + n > text.length) throw new MalformedPartialError(`${what}: lengths overrun the text`);
    out[i] = text.slice(at, at + n);
    at += n;
  }
  if (at !== text.length) throw new MalformedPartialError(`${what}: text left over`);
  return out;
}

/**
 * The partial index with its postings laid out per term (the build worker does it, on its own
 * core, before it sends its share: the index worker then copies each list whole into place).
 */
export function layOutPartial(p: PartialIndex): LaidOutPartial {
  if (p.postingTerms.length !== p.postingValues.length) throw new Error('inconsistent partial index');
  const logs = p.postingTerms.map((terms, i) => PostingLog.of(terms, p.postingValues[i] ?? new Uint32Array(0)));
  const { offsets, data } = layOutPostings(p.terms.length, { offsets: new Uint32Array(1), data: new Uint32Array(0) }, [], logs, [], false, TF_BITS);
  return { terms: p.terms, postings: { offsets, data }, files: p.files, lines: p.lines, lengths: p.lengths, previews: p.previews };
}

export function packPartial(p: LaidOutPartial): PackedPartial {
  const fileNumbers = new Float64Array(3 * p.files.length);
  p.files.forEach(([, mtime, size, count], i) => {
    fileNumbers[3 * i] = mtime;
    fileNumbers[3 * i + 1] = size;
    fileNumbers[3 * i + 2] = count;
  });
  return {
    terms: packStrings(p.terms),
    paths: packStrings(p.files.map((f) => f[0])),
    fileNumbers,
    previews: p.previews,
    postingOffsets: p.postings.offsets,
    postingData: p.postings.data,
    lines: p.lines,
    lengths: p.lengths,
  };
}

/** The buffers a packed partial moves to the receiving thread. */
export function packedTransferList(p: PackedPartial): ArrayBuffer[] {
  const arrays = [p.terms.lengths, p.paths.lengths, p.fileNumbers, p.previews.bytes, p.previews.ends, p.postingOffsets, p.postingData, p.lines, p.lengths];
  const buffers = new Set<ArrayBuffer>();
  for (const a of arrays) if (a.buffer instanceof ArrayBuffer) buffers.add(a.buffer);
  return [...buffers];
}

const isCount = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;

/**
 * The partial index a packed one stands for, every count and reference checked: chunk counts
 * that add up, one list per term, chunk ids within the chunks and rising in each list (what
 * `LexicalIndex.absorb` relies on). Throws a MalformedPartialError otherwise.
 */
export function unpackPartial(value: unknown): LaidOutPartial {
  if (typeof value !== 'object' || value === null) throw new MalformedPartialError('not an object');
  const p = value as Partial<PackedPartial>;
  if (!(p.fileNumbers instanceof Float64Array) || !(p.lines instanceof Int32Array) || !(p.lengths instanceof Int32Array) || !(p.postingOffsets instanceof Uint32Array) || !(p.postingData instanceof Uint32Array)) {
    throw new MalformedPartialError('arrays of the wrong type');
  }
  if (!p.terms || !p.paths || !p.previews) throw new MalformedPartialError('strings missing');
  const terms = unpackStrings(p.terms, 'terms');
  const paths = unpackStrings(p.paths, 'paths');
  const previews = p.previews;
  if (!(previews.bytes instanceof Uint8Array) || !(previews.ends instanceof Uint32Array)) throw new MalformedPartialError('previews of the wrong type');
  const numbers = p.fileNumbers;
  if (numbers.length !== 3 * paths.length) throw new MalformedPartialError('file numbers do not match the paths');
  const files: PartialIndex['files'] = [];
  let chunks = 0;
  for (let i = 0; i < paths.length; i++) {
    const mtime = numbers[3 * i] ?? NaN;
    const size = numbers[3 * i + 1] ?? NaN;
    const count = numbers[3 * i + 2] ?? NaN;
    if (!Number.isFinite(mtime) || !isCount(size) || !isCount(count)) throw new MalformedPartialError(`bad numbers for file ${i}`);
    files.push([paths[i] ?? '', mtime, size, count]);
    chunks += count;
  }
  if (p.lengths.length !== chunks || p.lines.length !== 2 * chunks || previews.ends.length !== chunks) throw new MalformedPartialError('chunk tables do not match the files');
  for (let i = 0; i < chunks; i++) if ((p.lengths[i] ?? -1) < 0) throw new MalformedPartialError(`negative length of chunk ${i + 1}`);
  let previewEnd = 0;
  for (let i = 0; i < chunks; i++) {
    const end = previews.ends[i] ?? 0;
    if (end < previewEnd || end > previews.bytes.length) throw new MalformedPartialError(`preview of chunk ${i + 1} out of its bytes`);
    previewEnd = end;
  }
  const offsets = p.postingOffsets;
  const data = p.postingData;
  if (offsets.length !== terms.length + 1 || offsets[0] !== 0 || offsets[terms.length] !== data.length) throw new MalformedPartialError('posting offsets do not match the terms');
  const bad = firstBadList(offsets, data, chunks);
  if (bad >= 0) throw new MalformedPartialError(`postings of term ${bad} out of range`);
  return { terms, postings: { offsets, data }, files, lines: p.lines, lengths: p.lengths, previews };
}

/**
 * The first term whose list runs backwards in the data, or holds a chunk id out of range or not
 * above the one before it; -1 when there is none (a small loop of its own: optimised at once).
 */
function firstBadList(offsets: Uint32Array, data: Uint32Array, chunks: number): number {
  for (let t = 0; t + 1 < offsets.length; t++) {
    const from = offsets[t] ?? 0;
    const to = offsets[t + 1] ?? 0;
    if (to < from) return t;
    let last = 0;
    for (let i = from; i < to; i++) {
      const id = (data[i] ?? 0) >>> TF_BITS;
      if (id <= last || id > chunks) return t;
      last = id;
    }
  }
  return -1;
}

/** How many postings of the blocks have a chunk id up to `id` (ids ascend across the blocks). */
function postingsUpToInBlocks(blocks: readonly Uint32Array[], id: number): number {
  let n = 0;
  for (const values of blocks) n += postingsUpTo(values, id);
  return n;
}

/** `dst[at..]` = the blocks' entries `[from, to)` (counted over all blocks), each plus `shift`. */
function copyRange<T extends Int32Array | Uint32Array>(blocks: readonly T[], from: number, to: number, dst: T, at: number, shift: number): void {
  let start = 0;
  for (const block of blocks) {
    const end = start + block.length;
    const a = Math.max(from, start);
    const b = Math.min(to, end);
    if (a < b) {
      if (shift === 0) dst.set(block.subarray(a - start, b - start), at);
      else copyShifted(block as Uint32Array, a - start, b - start, dst as Uint32Array, at, shift);
      at += b - a;
    }
    start = end;
  }
}

/** Index of the first posting whose chunk id is above `id` (ids ascending). */
function postingsUpTo(values: Uint32Array, id: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((values[mid] ?? 0) >>> TF_BITS <= id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A partial index whose files were indexed in batches taken from the end of a list (each batch
 * in list order, the last batch of the list first: `batches` holds each batch's indexed files, in
 * the order they were indexed), put in list order: its chunks renumbered so that ids follow the
 * list, as in an index that read the files in list order.
 */
export function batchesInListOrder(p: PartialIndex, batches: readonly number[]): PartialIndex {
  if (batches.length <= 1) return p;
  const nb = batches.length;
  const fileStart = new Int32Array(nb + 1);
  const chunkStart = new Int32Array(nb + 1);
  let f = 0;
  let c = 0;
  for (let j = 0; j < nb; j++) {
    fileStart[j] = f;
    chunkStart[j] = c;
    for (let k = 0; k < (batches[j] ?? 0); k++) c += p.files[f++]?.[3] ?? 0;
  }
  fileStart[nb] = f;
  chunkStart[nb] = c;
  if (f !== p.files.length || c !== p.lengths.length) throw new Error('the batches do not match the partial index');
  let n = 0;
  for (const block of p.postingTerms) n += block.length;
  const postingTerms = new Int32Array(n);
  const postingValues = new Uint32Array(n);
  const lines = new Int32Array(p.lines.length);
  const lengths = new Int32Array(p.lengths.length);
  const files: PartialIndex['files'] = [];
  const { bytes: previewBytes, ends: previewEnds } = p.previews;
  const previews: PreviewBytes = { bytes: new Uint8Array(previewStart(previewEnds, p.lengths.length)), ends: new Uint32Array(p.lengths.length) };
  let previewOut = 0;
  const values = p.postingValues;
  let out = 0;
  let chunkOut = 0;
  for (let j = nb - 1; j >= 0; j--) {
    const first = chunkStart[j] ?? 0;
    const end = chunkStart[j + 1] ?? 0;
    const shift = (chunkOut - first) * (1 << TF_BITS);
    const from = postingsUpToInBlocks(values, first);
    const to = postingsUpToInBlocks(values, end);
    copyRange(p.postingTerms, from, to, postingTerms, out, 0);
    copyRange(values, from, to, postingValues, out, shift);
    out += to - from;
    lines.set(p.lines.subarray(2 * first, 2 * end), 2 * chunkOut);
    lengths.set(p.lengths.subarray(first, end), chunkOut);
    const bytesFrom = previewStart(previewEnds, first);
    const bytesTo = previewStart(previewEnds, end);
    previews.bytes.set(previewBytes.subarray(bytesFrom, bytesTo), previewOut);
    for (let k = first; k < end; k++) previews.ends[chunkOut + k - first] = previewOut + (previewEnds[k] ?? 0) - bytesFrom;
    previewOut += bytesTo - bytesFrom;
    for (let k = fileStart[j] ?? 0; k < (fileStart[j + 1] ?? 0); k++) {
      const file = p.files[k];
      if (file) files.push(file);
    }
    chunkOut += end - first;
  }
  return { terms: p.terms, postingTerms: [postingTerms], postingValues: [postingValues], files, lines, lengths, previews };
}
