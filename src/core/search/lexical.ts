import type { Chunk } from './chunker';
import type { FileStat } from './files';
import { checkNextId, compactIds, isCount } from './indexBounds';
import { forEachHashedPart, forEachTerm, normalizePart, type PartSink } from './identifiers';

/**
 * The lexical index: BM25 over chunks, an inverted index of packed postings (chunk id and term
 * frequency in one integer), incremental per file (removed chunks are tombstoned, then compacted),
 * persisted as one binary file with a format version. Chunk text is not kept: line ranges, a
 * preview line and (once embeddings have read it) a content hash.
 *
 * Built for a fast cold build: word parts are hashed in the scanning pass and looked up in an
 * open-addressing table of the parts seen so far (a string is made only for a new part); a chunk's
 * postings are appended to one typed log, laid out per term by one counting pass when the index is
 * first queried or written (the "base", one Uint32Array); later small updates go to per-term arrays
 * until the next compaction. On the benchmark's 50 MB workspace this took the cold build from
 * ~2.6 s to ~1.5 s of CPU; tokenising and counting (~0.7 s) is most of what is left.
 *
 * Why not MiniSearch (the library first used here): with the same tokenizer on the benchmark's
 * generated 10 MB workspace (15k chunks) it took 1.65 s of CPU to build and 40 ms for a 4-word
 * query, this index 0.37 s and 1.8 ms (half the memory): MiniSearch's radix tree costs several
 * objects per term occurrence and scores through per-term maps; scaled to the 50 MB benchmark its
 * queries would take ~200 ms, over the 50 ms target. Prefix and fuzzy matching, what the radix tree buys, are not used by this search.
 */

/** Bump whenever the persisted shape or the tokenising changes: an older file is rebuilt. */
export const INDEX_FORMAT_VERSION = 5;
const MAGIC = 0x53545349; // "STSI"

export interface ChunkMeta {
  path: string;
  startLine: number;
  endLine: number;
  /** The first meaningful line, shortened (shown in pickers and chat). */
  preview: string;
  /** sha1 of the chunk text once computed (embeddings), '' before: the embedding cache key. */
  hash: string;
}

export interface LexicalHit extends ChunkMeta {
  id: number;
  score: number;
}

interface FileRecord {
  mtime: number;
  size: number;
  chunks: number[];
}

const PREVIEW_CHARS = 120;
/** Term frequency is kept up to this value (BM25 saturates well before). */
const TF_BITS = 4;
const TF_MAX = (1 << TF_BITS) - 1;
/** A path term counts as this many occurrences in every chunk of the file. */
const PATH_WEIGHT = 2;
const K1 = 1.2;
const B = 0.75;

export function previewOf(text: string): string {
  let from = 0;
  while (from <= text.length) {
    const nl = text.indexOf('\n', from);
    const end = nl < 0 ? text.length : nl;
    const line = text.slice(from, end).trim();
    from = end + 1;
    if (line === '' || /^[{}()[\];,]*$/.test(line) || /^(?:\/\/|\/\*|\*|#!)\s*$/.test(line)) continue;
    return line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS - 1)}…` : line;
  }
  return '';
}

/** Lines this long are data (base64, minified code), not words anyone searches for. */
const DATA_LINE_CHARS = 1000;

/** An index built elsewhere (a worker thread), as transferable arrays: see `LexicalIndex.toPartial`. */
export interface PartialIndex {
  terms: string[];
  /** The postings in chunk order: term id (into `terms`) and packed value (local ids from 1). */
  postingTerms: Int32Array;
  postingValues: Uint32Array;
  /** Per file: path, mtime, size, number of chunks (chunks are numbered in file order). */
  files: Array<[string, number, number, number]>;
  /** Per chunk: start and end line. */
  lines: Int32Array;
  lengths: Int32Array;
  previews: string[];
}

/** Why a persisted index was not used. */
export type LoadFailure = { reason: 'corrupt'; detail: string } | { reason: 'old_version'; found: unknown } | { reason: 'settings_changed' };

/** A growable Int32Array / Uint32Array pair: (term id, packed posting) appended in chunk order. */
class PostingLog {
  terms = new Int32Array(1 << 16);
  values = new Uint32Array(1 << 16);
  length = 0;

  /** Makes room for `n` more postings. */
  reserve(n: number): void {
    if (this.length + n <= this.terms.length) return;
    const cap = Math.max(this.length + n, this.terms.length * 2);
    const terms = new Int32Array(cap);
    terms.set(this.terms.subarray(0, this.length));
    this.terms = terms;
    const values = new Uint32Array(cap);
    values.set(this.values.subarray(0, this.length));
    this.values = values;
  }

  /** Appends another log's postings, term ids mapped through `termMap`, `shift` added to values. */
  appendMapped(terms: Int32Array, values: Uint32Array, termMap: Int32Array, shift: number): void {
    const n = terms.length;
    this.reserve(n);
    const at = this.length;
    for (let i = 0; i < n; i++) {
      this.terms[at + i] = termMap[terms[i] ?? 0] ?? 0;
      this.values[at + i] = (values[i] ?? 0) + shift;
    }
    this.length += n;
  }

  clear(): void {
    this.length = 0;
    if (this.terms.length > 1 << 16) {
      this.terms = new Int32Array(1 << 16);
      this.values = new Uint32Array(1 << 16);
    }
  }
}

/** Most raw word parts remembered before the table starts over (bounds memory). */
const PART_TABLE_MAX = 1 << 20;

/**
 * Raw word part, as written (case kept) -> term id (-1 for filler): an open-addressing hash table
 * over the part's characters, so the hot loop of indexing hashes and compares char codes and makes
 * a string only for a part it has not seen before. Each slot is 4 int32 in one array (hash, key
 * offset + 1 (0: empty), key length, term id): a probe reads one cache line.
 */
class PartTable {
  table = new Int32Array(4 << 15);
  mask = (1 << 15) - 1;
  keys = new Uint16Array(1 << 17);
  private keyUsed = 0;
  private size = 0;

  /** The term id of `text[s, e)` (hash `h`), or -2 when the part is not in the table. */
  find(text: string, s: number, e: number, h: number): number {
    const table = this.table;
    const mask = this.mask;
    const len = e - s;
    let slot = (h ^ (h >>> 16)) & mask;
    for (;;) {
      const at = slot << 2;
      const key = table[at + 1] ?? 0;
      if (key === 0) return -2;
      if (table[at] === h && table[at + 2] === len) {
        const keys = this.keys;
        let k = key - 1;
        let i = s;
        while (i < e && keys[k] === text.charCodeAt(i)) {
          i++;
          k++;
        }
        if (i === e) return table[at + 3] ?? -1;
      }
      slot = (slot + 1) & mask;
    }
  }

  add(text: string, s: number, e: number, h: number, term: number): void {
    if (this.size >= PART_TABLE_MAX) {
      this.table.fill(0);
      this.size = 0;
      this.keyUsed = 0;
    }
    if ((this.size + 1) * 2 > this.mask + 1) this.grow();
    const len = e - s;
    if (this.keyUsed + len > this.keys.length) {
      const keys = new Uint16Array(Math.max(this.keys.length * 2, this.keyUsed + len));
      keys.set(this.keys);
      this.keys = keys;
    }
    for (let i = 0; i < len; i++) this.keys[this.keyUsed + i] = text.charCodeAt(s + i);
    this.place(this.table, this.mask, h, this.keyUsed + 1, len, term);
    this.keyUsed += len;
    this.size++;
  }

  private place(table: Int32Array, mask: number, h: number, key: number, len: number, term: number): void {
    let slot = (h ^ (h >>> 16)) & mask;
    while (table[(slot << 2) + 1] !== 0) slot = (slot + 1) & mask;
    const at = slot << 2;
    table[at] = h;
    table[at + 1] = key;
    table[at + 2] = len;
    table[at + 3] = term;
  }

  private grow(): void {
    const old = this.table;
    const slots = (this.mask + 1) * 2;
    const table = new Int32Array(slots * 4);
    for (let at = 0; at < old.length; at += 4) {
      const key = old[at + 1] ?? 0;
      if (key !== 0) this.place(table, slots - 1, old[at] ?? 0, key, old[at + 2] ?? 0, old[at + 3] ?? 0);
    }
    this.table = table;
    this.mask = slots - 1;
  }
}

function grownInt32(a: Int32Array, n: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(n);
  b.set(a);
  return b;
}

/**
 * Counts the terms of one chunk at a time: each part is looked up in the part table by its hash
 * and characters, a string is made only for a part never seen before.
 */
class TermCounter implements PartSink {
  text = '';
  /** The chunk being counted (its id marks the terms it has seen). */
  id = 0;
  length = 0;
  distinct = 0;
  parts = new PartTable();
  /** Per term: the last chunk id that used it, and its tf there. */
  seen = new Int32Array(1024);
  tf = new Int32Array(1024);
  /** The distinct terms of the chunk. */
  terms = new Int32Array(1024);

  constructor(private readonly termOf: (term: string) => number) {}

  /** Starts over (after the term ids were renumbered). */
  reset(termCount: number): void {
    this.parts = new PartTable();
    const cap = Math.max(1024, termCount * 2);
    this.seen = new Int32Array(cap);
    this.tf = new Int32Array(cap);
  }

  begin(text: string, id: number): void {
    this.text = text;
    this.id = id;
    this.length = 0;
    this.distinct = 0;
  }

  add(t: number, weight: number): void {
    this.length += weight;
    if (this.seen[t] === this.id) {
      this.tf[t] = (this.tf[t] ?? 0) + weight;
      return;
    }
    this.seen[t] = this.id;
    this.tf[t] = weight;
    const k = this.distinct++;
    if (k === this.terms.length) this.terms = grownInt32(this.terms, k * 2);
    this.terms[k] = t;
  }

  /** A part not in the table yet: its term (made once), remembered. */
  private miss(s: number, e: number, h: number): number {
    const text = this.text;
    const term = normalizePart(text.slice(s, e));
    const t = term === '' ? -1 : this.termOf(term);
    if (t >= this.seen.length) {
      this.seen = grownInt32(this.seen, Math.max(t + 1, this.seen.length * 2));
      this.tf = grownInt32(this.tf, this.seen.length);
    }
    this.parts.add(text, s, e, h, t);
    return t;
  }

  part(s: number, e: number, h: number): void {
    const text = this.text;
    // The part table's lookup, inlined (this is the hot path of indexing).
    const parts = this.parts;
    const table = parts.table;
    const mask = parts.mask;
    const len = e - s;
    let slot = (h ^ (h >>> 16)) & mask;
    let t = -2;
    for (;;) {
      const at = slot << 2;
      const key = table[at + 1] ?? 0;
      if (key === 0) break;
      if (table[at] === h && table[at + 2] === len) {
        const keys = parts.keys;
        let k = key - 1;
        let i = s;
        while (i < e && keys[k] === text.charCodeAt(i)) {
          i++;
          k++;
        }
        if (i === e) {
          t = table[at + 3] ?? -1;
          break;
        }
      }
      slot = (slot + 1) & mask;
    }
    if (t === -2) t = this.miss(s, e, h);
    if (t < 0) return;
    this.length++;
    const seen = this.seen;
    if (seen[t] === this.id) {
      this.tf[t] = (this.tf[t] ?? 0) + 1;
      return;
    }
    seen[t] = this.id;
    this.tf[t] = 1;
    const k = this.distinct++;
    if (k === this.terms.length) this.terms = grownInt32(this.terms, k * 2);
    this.terms[k] = t;
  }
}

/** A chunk to index: offsets into a file's text, and its line range. */
interface ChunkSpan {
  startLine: number;
  endLine: number;
  start: number;
  end: number;
}

export class LexicalIndex {
  private readonly chunks = new Map<number, ChunkMeta>();
  private readonly files = new Map<string, FileRecord>();
  /** Term string -> term id; `termNames` the reverse. */
  private termIds = new Map<string, number>();
  private termNames: string[] = [];
  /**
   * Postings (id << TF_BITS | tf, ids ascending) of each term in three tiers: the base (one
   * Uint32Array, term t's list at baseData[baseOffsets[t], baseOffsets[t + 1])), built in one
   * counting pass after a bulk build, a compaction or a load; per-term arrays for what was added
   * since (small updates); and the log of postings not yet distributed (indexing appends there).
   */
  private baseOffsets = new Uint32Array(1);
  private baseData = new Uint32Array(0);
  private extra: Array<number[] | undefined> = [];
  private readonly log = new PostingLog();
  /** Terms per chunk (the BM25 length), by id; 0 for a removed chunk. */
  private lengths: number[] = [0];
  private totalLength = 0;
  private dead = 0;
  private nextId = 1;
  private scores = new Float64Array(0);
  private readonly counter = new TermCounter((term) => this.termId(term));

  get fileCount(): number {
    return this.files.size;
  }

  get chunkCount(): number {
    return this.chunks.size;
  }

  /** One past the highest chunk id: the length of the tables kept per id. */
  get idSpace(): number {
    return this.nextId;
  }

  paths(): string[] {
    return [...this.files.keys()];
  }

  fileStat(path: string): FileStat | undefined {
    const f = this.files.get(path);
    return f ? { mtime: f.mtime, size: f.size } : undefined;
  }

  chunk(id: number): ChunkMeta | undefined {
    return this.chunks.get(id);
  }

  allChunks(): IterableIterator<[number, ChunkMeta]> {
    return this.chunks.entries();
  }

  /** Replaces whatever the index held for `path`. */
  setFile(path: string, stat: FileStat, chunks: readonly Chunk[], previews = true): void {
    this.removeFile(path);
    const pathTerms = this.pathTerms(path);
    const ids: number[] = [];
    for (const c of chunks) ids.push(this.addChunk(path, c.text, { startLine: c.startLine, endLine: c.endLine, start: 0, end: c.text.length }, pathTerms, previews));
    this.files.set(path, { mtime: stat.mtime, size: stat.size, chunks: ids });
  }

  /** Replaces whatever the index held for `path`, from the file's text and its chunks' offsets. */
  setFileText(path: string, stat: FileStat, text: string, chunks: readonly ChunkSpan[]): void {
    this.removeFile(path);
    const pathTerms = this.pathTerms(path);
    const ids: number[] = [];
    for (const c of chunks) ids.push(this.addChunk(path, text, c, pathTerms, true));
    this.files.set(path, { mtime: stat.mtime, size: stat.size, chunks: ids });
  }

  private termId(term: string): number {
    let t = this.termIds.get(term);
    if (t === undefined) {
      t = this.termNames.length;
      this.termNames.push(term);
      this.termIds.set(term, t);
      this.extra.push(undefined);
    }
    return t;
  }

  private pathTerms(path: string): number[] {
    const out = new Set<number>();
    forEachTerm(path, (t) => out.add(this.termId(t)));
    return [...out];
  }

  /** Indexes `text[span.start, span.end)` as one chunk; returns its id. */
  private addChunk(path: string, text: string, span: ChunkSpan, pathTerms: readonly number[], previews: boolean): number {
    const id = this.nextId++;
    const counter = this.counter;
    counter.begin(text, id);
    for (const t of pathTerms) counter.add(t, PATH_WEIGHT);
    const { start, end } = span;
    if (end - start <= DATA_LINE_CHARS) {
      forEachHashedPart(text, start, end, counter);
    } else {
      // Skip data lines: scan the runs of ordinary lines between them.
      let from = start;
      let runStart = start;
      while (from < end) {
        const nl = text.indexOf('\n', from);
        const lineEnd = nl < 0 || nl > end ? end : nl;
        const contentEnd = lineEnd > from && text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd;
        if (contentEnd - from >= DATA_LINE_CHARS) {
          if (from > runStart) forEachHashedPart(text, runStart, from, counter);
          runStart = lineEnd;
        }
        from = lineEnd + 1;
      }
      if (end > runStart) forEachHashedPart(text, runStart, end, counter);
    }
    const terms = counter.terms;
    const tf = counter.tf;
    const log = this.log;
    const distinct = counter.distinct;
    log.reserve(distinct);
    const logTerms = log.terms;
    const logValues = log.values;
    const at = log.length;
    const base = id << TF_BITS;
    for (let k = 0; k < distinct; k++) {
      const t = terms[k] ?? 0;
      const n = tf[t] ?? 0;
      logTerms[at + k] = t;
      logValues[at + k] = base | (n < TF_MAX ? n : TF_MAX);
    }
    log.length = at + distinct;
    counter.text = '';
    this.lengths[id] = counter.length;
    this.totalLength += counter.length;
    this.chunks.set(id, { path, startLine: span.startLine, endLine: span.endLine, preview: previews ? previewOf(text.slice(span.start, span.end)) : '', hash: '' });
    return id;
  }

  /**
   * What this index holds, as plain arrays (transferable between threads): for an index built
   * from nothing (no removal, not settled yet), the bulk build's worker sends it to the main
   * thread, which `absorb`s it.
   */
  toPartial(): PartialIndex {
    if (this.dead > 0 || this.baseData.length > 0 || this.extra.some((e) => e !== undefined)) throw new Error('toPartial needs a fresh, unsettled index');
    const files: PartialIndex['files'] = [];
    const n = this.nextId - 1;
    const lines = new Int32Array(2 * n);
    const lengths = new Int32Array(n);
    const previews: string[] = [];
    let expected = 1;
    for (const [path, f] of this.files) {
      files.push([path, f.mtime, f.size, f.chunks.length]);
      for (const id of f.chunks) {
        const c = this.chunks.get(id);
        if (!c || id !== expected++) throw new Error('toPartial needs chunk ids in file order');
        lines[2 * (id - 1)] = c.startLine;
        lines[2 * (id - 1) + 1] = c.endLine;
        lengths[id - 1] = this.lengths[id] ?? 0;
        previews.push(c.preview);
      }
    }
    return { terms: this.termNames, postingTerms: this.log.terms.slice(0, this.log.length), postingValues: this.log.values.slice(0, this.log.length), files, lines, lengths, previews };
  }

  /** Adds what another index built (`toPartial`): its chunks get ids after this index's. */
  absorb(p: PartialIndex): void {
    const offset = this.nextId - 1;
    let local = 0;
    for (const [path, mtime, size, count] of p.files) {
      this.removeFile(path);
      const ids: number[] = [];
      for (let k = 0; k < count; k++, local++) {
        const id = offset + local + 1;
        const length = p.lengths[local] ?? 0;
        this.chunks.set(id, { path, startLine: p.lines[2 * local] ?? 0, endLine: p.lines[2 * local + 1] ?? 0, preview: p.previews[local] ?? '', hash: '' });
        this.lengths[id] = length;
        this.totalLength += length;
        ids.push(id);
      }
      this.files.set(path, { mtime, size, chunks: ids });
    }
    if (local !== p.lengths.length || 2 * local !== p.lines.length || local !== p.previews.length) throw new Error('inconsistent partial index');
    this.nextId = offset + local + 1;
    const termMap = new Int32Array(p.terms.length);
    for (let t = 0; t < p.terms.length; t++) termMap[t] = this.termId(p.terms[t] ?? '');
    this.log.appendMapped(p.postingTerms, p.postingValues, termMap, offset << TF_BITS);
  }

  removeFile(path: string): boolean {
    const record = this.files.get(path);
    if (!record) return false;
    for (const id of record.chunks) {
      this.chunks.delete(id);
      this.totalLength -= this.lengths[id] ?? 0;
      this.lengths[id] = 0;
      this.dead++;
    }
    this.files.delete(path);
    if (this.dead > 1000 && this.dead > this.chunks.size / 4) this.compact();
    return true;
  }

  /** Drops the postings of removed chunks (and the terms left without any). */
  compact(): void {
    this.rebuildBase(true);
  }

  /** Distributes the logged postings: into the base when they are many, else per term. */
  settle(): void {
    const log = this.log;
    if (log.length === 0) return;
    if (log.length * 8 >= this.baseData.length) {
      this.rebuildBase(this.dead > 0);
      return;
    }
    for (let i = 0; i < log.length; i++) {
      const t = log.terms[i] ?? 0;
      const list = this.extra[t];
      if (list) list.push(log.values[i] ?? 0);
      else this.extra[t] = [log.values[i] ?? 0];
    }
    log.clear();
  }

  /**
   * One array of every term's postings (base, then per-term additions, then the log: ids stay
   * ascending), by a counting pass and a placing pass. With `dropDead`, postings of removed
   * chunks and terms without postings go, and the terms are renumbered.
   */
  private rebuildBase(dropDead: boolean): void {
    const termCount = this.termNames.length;
    const lengths = this.lengths;
    const live = (p: number): boolean => !dropDead || (lengths[p >>> TF_BITS] ?? 0) > 0;
    const counts = new Uint32Array(termCount + 1);
    const oldOffsets = this.baseOffsets;
    const oldData = this.baseData;
    const oldTerms = oldOffsets.length - 1;
    const log = this.log;
    for (let t = 0; t < oldTerms; t++) {
      const from = oldOffsets[t] ?? 0;
      const to = oldOffsets[t + 1] ?? 0;
      if (!dropDead) counts[t] = to - from;
      else for (let i = from; i < to; i++) if (live(oldData[i] ?? 0)) counts[t] = (counts[t] ?? 0) + 1;
    }
    for (let t = 0; t < termCount; t++) {
      const list = this.extra[t];
      if (list) for (const p of list) if (live(p)) counts[t] = (counts[t] ?? 0) + 1;
    }
    for (let i = 0; i < log.length; i++) if (live(log.values[i] ?? 0)) counts[log.terms[i] ?? 0] = (counts[log.terms[i] ?? 0] ?? 0) + 1;
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
      const to = oldOffsets[t + 1] ?? 0;
      for (let i = oldOffsets[t] ?? 0; i < to; i++) {
        const p = oldData[i] ?? 0;
        if (live(p)) data[c++] = p;
      }
      cursor[n] = c;
    }
    for (let t = 0; t < termCount; t++) {
      const list = this.extra[t];
      const n = renumber[t] ?? -1;
      if (!list || n < 0) continue;
      let c = cursor[n] ?? 0;
      for (const p of list) if (live(p)) data[c++] = p;
      cursor[n] = c;
    }
    for (let i = 0; i < log.length; i++) {
      const p = log.values[i] ?? 0;
      if (!live(p)) continue;
      const n = renumber[log.terms[i] ?? 0] ?? 0;
      data[cursor[n] ?? 0] = p;
      cursor[n] = (cursor[n] ?? 0) + 1;
    }
    log.clear();
    this.baseOffsets = offsets;
    this.baseData = data;
    if (kept !== termCount) {
      const names: string[] = [];
      for (let t = 0; t < termCount; t++) if ((renumber[t] ?? -1) >= 0) names.push(this.termNames[t] ?? '');
      this.setTerms(names);
    } else {
      this.extra = new Array<undefined>(termCount).fill(undefined);
    }
    if (dropDead) this.dead = 0;
  }

  /** Replaces the term table (after a renumbering or a load); the part table starts over. */
  private setTerms(names: string[]): void {
    this.termNames = names;
    this.termIds = new Map();
    for (let t = 0; t < names.length; t++) this.termIds.set(names[t] ?? '', t);
    this.extra = new Array<undefined>(names.length).fill(undefined);
    this.counter.reset(names.length);
  }

  /** Best chunks for the query's terms (BM25), best first. */
  search(query: string, limit: number): LexicalHit[] {
    this.settle();
    const terms = new Set<string>();
    forEachTerm(query, (t) => terms.add(t));
    const n = this.chunks.size;
    if (terms.size === 0 || n === 0 || limit <= 0) return [];
    if (this.scores.length < this.nextId) this.scores = new Float64Array(Math.max(this.nextId, this.scores.length * 2));
    const scores = this.scores;
    const lengths = this.lengths;
    const touched: number[] = [];
    const avg = this.totalLength / n || 1;
    const baseTerms = this.baseOffsets.length - 1;
    for (const term of terms) {
      const t = this.termIds.get(term);
      if (t === undefined) continue;
      const from = t < baseTerms ? (this.baseOffsets[t] ?? 0) : 0;
      const to = t < baseTerms ? (this.baseOffsets[t + 1] ?? 0) : 0;
      const extra = this.extra[t];
      // Removed chunks still in the lists count in df until compaction (as they always did).
      const df = to - from + (extra?.length ?? 0);
      if (df === 0) continue;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      const score = (p: number): void => {
        const id = p >>> TF_BITS;
        const len = lengths[id] ?? 0;
        if (len === 0) return; // removed
        const tf = p & TF_MAX;
        if (scores[id] === 0) touched.push(id);
        scores[id] = (scores[id] ?? 0) + (idf * (tf * (K1 + 1))) / (tf + K1 * (1 - B + (B * len) / avg));
      };
      const data = this.baseData;
      for (let i = from; i < to; i++) score(data[i] ?? 0);
      if (extra) for (const p of extra) score(p);
    }
    // Top `limit` by score, ties by id (earlier chunks first).
    const top = touched.length <= limit ? touched : selectTop(touched, scores, limit);
    top.sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b);
    const hits: LexicalHit[] = [];
    for (const id of top) {
      const meta = this.chunks.get(id);
      if (meta) hits.push({ id, score: scores[id] ?? 0, ...meta });
    }
    for (const id of touched) scores[id] = 0;
    return hits;
  }

  /**
   * One binary file: magic, version, header length, the JSON header (files and chunks), padding
   * to a multiple of 4, then three uint32 (term count, bytes of the terms, postings count), the
   * terms as UTF-8 joined by newlines (padded to 4), each term's postings count, and every
   * postings list as one little-endian uint32 array in the order of the terms.
   */
  serialize(settingsKey: string): Uint8Array {
    if (this.dead > 0 || this.log.length > 0 || this.extra.some((e) => e !== undefined)) this.rebuildBase(this.dead > 0);
    // Ids are written compact (1..n), so a loader can bound nextId by the rows of the file.
    const { remap, count } = compactIds(this.chunks.keys(), this.nextId);
    const files: Array<[string, number, number, number[]]> = [];
    for (const [path, f] of this.files) files.push([path, f.mtime, f.size, f.chunks.map((id) => remap[id] ?? 0)]);
    const chunks: Array<[number, number, number, string, string, number]> = [];
    for (const [id, c] of this.chunks) chunks.push([remap[id] ?? 0, c.startLine, c.endLine, c.preview, c.hash, this.lengths[id] ?? 0]);
    const header = Buffer.from(JSON.stringify({ format: 'stratus-search-index', key: settingsKey, nextId: count + 1, files, chunks }), 'utf8');
    const terms = Buffer.from(this.termNames.join('\n'), 'utf8');
    const termCount = this.termNames.length;
    const total = this.baseData.length;
    const tableStart = align4(12 + header.length);
    const termsStart = tableStart + 12;
    const countsStart = align4(termsStart + terms.length);
    const dataStart = countsStart + termCount * 4;
    const buf = Buffer.alloc(dataStart + total * 4);
    buf.writeUInt32LE(MAGIC, 0);
    buf.writeUInt32LE(INDEX_FORMAT_VERSION, 4);
    buf.writeUInt32LE(header.length, 8);
    header.copy(buf, 12);
    buf.writeUInt32LE(termCount, tableStart);
    buf.writeUInt32LE(terms.length, tableStart + 4);
    buf.writeUInt32LE(total, tableStart + 8);
    terms.copy(buf, termsStart);
    const counts = new Uint32Array(buf.buffer, buf.byteOffset + countsStart, termCount);
    for (let t = 0; t < termCount; t++) counts[t] = (this.baseOffsets[t + 1] ?? 0) - (this.baseOffsets[t] ?? 0);
    const data = new Uint32Array(buf.buffer, buf.byteOffset + dataStart, total);
    const base = this.baseData;
    for (let i = 0; i < total; i++) {
      const p = base[i] ?? 0;
      data[i] = ((remap[p >>> TF_BITS] ?? 0) << TF_BITS) | (p & TF_MAX);
    }
    if (!littleEndian()) {
      for (let i = 0; i < termCount; i++) counts[i] = swap32(counts[i] ?? 0);
      for (let i = 0; i < total; i++) data[i] = swap32(data[i] ?? 0);
    }
    return buf;
  }

  /** Reads a persisted index; anything unexpected is reported, never trusted. */
  static deserialize(bytes: Uint8Array, settingsKey: string): LexicalIndex | LoadFailure {
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    try {
      if (buf.length < 12 || buf.readUInt32LE(0) !== MAGIC) return { reason: 'corrupt', detail: 'not a Stratus search index' };
      const version = buf.readUInt32LE(4);
      if (version !== INDEX_FORMAT_VERSION) return { reason: 'old_version', found: version };
      const headerLength = buf.readUInt32LE(8);
      if (12 + headerLength > buf.length) throw new Error('truncated header');
      const header = JSON.parse(buf.toString('utf8', 12, 12 + headerLength)) as Record<string, unknown>;
      if (header.format !== 'stratus-search-index') throw new Error('unknown format tag');
      if (header.key !== settingsKey) return { reason: 'settings_changed' };
      const index = new LexicalIndex();
      if (!Array.isArray(header.files) || !Array.isArray(header.chunks)) throw new Error('missing tables');
      // Bounded before `live` and `lengths` are allocated from it.
      const nextId = checkNextId(header.nextId, header.chunks.length, headerLength, TF_BITS);
      const byId = new Map<number, [number, number, string, string, number]>();
      for (const row of header.chunks as unknown[]) {
        if (!Array.isArray(row) || row.length !== 6 || !isCount(row[0]) || !isCount(row[1]) || !isCount(row[2]) || typeof row[3] !== 'string' || typeof row[4] !== 'string' || !isCount(row[5])) {
          throw new Error('bad chunk row');
        }
        byId.set(row[0], [row[1], row[2], row[3], row[4], row[5]]);
      }
      const live = new Uint8Array(nextId);
      const lengths = new Array<number>(nextId).fill(0);
      for (const row of header.files as unknown[]) {
        if (!Array.isArray(row) || typeof row[0] !== 'string' || typeof row[1] !== 'number' || !Number.isFinite(row[1]) || !isCount(row[2], Number.MAX_SAFE_INTEGER) || !Array.isArray(row[3])) throw new Error('bad file row');
        const chunkIds: number[] = [];
        for (const id of row[3] as unknown[]) {
          const c = typeof id === 'number' ? byId.get(id) : undefined;
          if (!c || typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id >= nextId || live[id]) throw new Error('file refers to a missing chunk');
          live[id] = 1;
          index.chunks.set(id, { path: row[0], startLine: c[0], endLine: c[1], preview: c[2], hash: c[3] });
          lengths[id] = c[4];
          index.totalLength += c[4];
          chunkIds.push(id);
        }
        index.files.set(row[0], { mtime: row[1], size: row[2], chunks: chunkIds });
      }
      if (index.chunks.size !== byId.size) throw new Error('chunks without a file');
      const tableStart = align4(12 + headerLength);
      if (tableStart + 12 > buf.length) throw new Error('truncated term table');
      const termCount = buf.readUInt32LE(tableStart);
      const termBytes = buf.readUInt32LE(tableStart + 4);
      const total = buf.readUInt32LE(tableStart + 8);
      const termsStart = tableStart + 12;
      const countsStart = align4(termsStart + termBytes);
      const dataStart = countsStart + termCount * 4;
      if (buf.length !== dataStart + total * 4) throw new Error(`the file holds ${buf.length} bytes, its tables say ${dataStart + total * 4}`);
      const names = termCount === 0 ? [] : buf.toString('utf8', termsStart, termsStart + termBytes).split('\n');
      if (names.length !== termCount) throw new Error('term count mismatch');
      // An aligned copy when the bytes do not start on a 4-byte boundary.
      const aligned = (buf.byteOffset + countsStart) % 4 === 0 ? buf : Buffer.from(buf);
      const counts = new Uint32Array(aligned.buffer, aligned.byteOffset + countsStart, termCount);
      const data = new Uint32Array(total);
      data.set(new Uint32Array(aligned.buffer, aligned.byteOffset + dataStart, total));
      const offsets = new Uint32Array(termCount + 1);
      for (let t = 0; t < termCount; t++) {
        const n = littleEndian() ? (counts[t] ?? 0) : swap32(counts[t] ?? 0);
        if (n < 1) throw new Error('a term without postings');
        offsets[t + 1] = (offsets[t] ?? 0) + n;
      }
      if (offsets[termCount] !== total) throw new Error(`postings hold ${total} entries, the terms need ${offsets[termCount] ?? 0}`);
      if (!littleEndian()) for (let i = 0; i < total; i++) data[i] = swap32(data[i] ?? 0);
      for (let i = 0; i < total; i++) {
        const id = (data[i] ?? 0) >>> TF_BITS;
        if (id >= nextId || live[id] !== 1) throw new Error('a posting refers to a missing chunk');
      }
      const seen = new Set<string>();
      for (const name of names) {
        if (name === '' || seen.has(name)) throw new Error('bad term table');
        seen.add(name);
      }
      index.setTerms(names);
      index.baseOffsets = offsets;
      index.baseData = data;
      index.lengths = lengths;
      index.nextId = nextId;
      return index;
    } catch (error) {
      return { reason: 'corrupt', detail: error instanceof Error ? error.message : String(error) };
    }
  }
}

function align4(n: number): number {
  return Math.ceil(n / 4) * 4;
}

function littleEndian(): boolean {
  return new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
}

function swap32(v: number): number {
  return (((v & 0xff) << 24) | ((v & 0xff00) << 8) | ((v >>> 8) & 0xff00) | (v >>> 24)) >>> 0;
}

/** The `limit` ids with the highest scores (unordered), by quickselect on a copy. */
function selectTop(ids: number[], scores: Float64Array, limit: number): number[] {
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

export function isLoadFailure(value: LexicalIndex | LoadFailure): value is LoadFailure {
  return !(value instanceof LexicalIndex);
}
