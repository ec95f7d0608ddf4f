import type { Chunk } from './chunker';
import type { FileStat } from './files';
import { forEachHashedPart, forEachTerm } from './identifiers';
import { decodeIndex, encodeIndex } from './indexFormat';
import { TF_BITS, TF_MAX, type ChunkMeta, type FileRecord, type LexicalHit, type LoadFailure, type PartialIndex } from './indexTypes';
import { layOutPostings, PostingLog, selectTop } from './postings';
import { TermCounter } from './termCounter';

export { INDEX_FORMAT_VERSION } from './indexFormat';
export type { ChunkMeta, LexicalHit, LoadFailure, PartialIndex } from './indexTypes';

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

const PREVIEW_CHARS = 120;
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

/** A chunk to index: offsets into a file's text, and its line range. */
interface ChunkSpan {
  startLine: number;
  endLine: number;
  start: number;
  end: number;
}

export class LexicalIndex {
  private chunks = new Map<number, ChunkMeta>();
  private files = new Map<string, FileRecord>();
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
    // Views of the log, not copies: the build worker sends them (its buffers moved) and is done.
    return { terms: this.termNames, postingTerms: this.log.terms.subarray(0, this.log.length), postingValues: this.log.values.subarray(0, this.log.length), files, lines, lengths, previews };
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

  /** Lays the postings out in one array (see `layOutPostings`); with `dropDead`, removed chunks' postings go. */
  private rebuildBase(dropDead: boolean): void {
    const termCount = this.termNames.length;
    const { offsets, data, renumber, kept } = layOutPostings(termCount, { offsets: this.baseOffsets, data: this.baseData }, this.extra, this.log, this.lengths, dropDead, TF_BITS);
    this.log.clear();
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


  /** The index as one binary file (see `encodeIndex`). */
  serialize(settingsKey: string): Uint8Array {
    if (this.dead > 0 || this.log.length > 0 || this.extra.some((e) => e !== undefined)) this.rebuildBase(this.dead > 0);
    return encodeIndex({ files: this.files, chunks: this.chunks, termNames: this.termNames, postings: { offsets: this.baseOffsets, data: this.baseData }, lengths: this.lengths, totalLength: this.totalLength, nextId: this.nextId }, settingsKey);
  }

  /** Reads a persisted index; anything unexpected is reported, never trusted. */
  static deserialize(bytes: Uint8Array, settingsKey: string): LexicalIndex | LoadFailure {
    const tables = decodeIndex(bytes, settingsKey);
    if ('reason' in tables) return tables;
    const index = new LexicalIndex();
    // The decoded tables are the index's own (no copy: a new worker loads at every start).
    index.chunks = tables.chunks;
    index.files = tables.files;
    index.setTerms(tables.termNames);
    index.baseOffsets = tables.postings.offsets;
    index.baseData = tables.postings.data;
    index.lengths = tables.lengths;
    index.totalLength = tables.totalLength;
    index.nextId = tables.nextId;
    return index;
  }
}

export function isLoadFailure(value: LexicalIndex | LoadFailure): value is LoadFailure {
  return !(value instanceof LexicalIndex);
}
