import type { Chunk } from '../text/chunker';
import { BytesFile, type FileStat, type RandomAccessFile } from '../shared/files';
import { declarationsBySpan, declaringAmong, GENERATED_TERM, generatedAmong, pathTermsOf, queryTerms, type FileDeclarations } from './exactTerms';
import { applyPathPriors, PRIOR_POOL, type DemotedPaths } from './pathPriors';
import { previewOf, scanSpan, type ChunkSpan } from '../text/chunkScan';
import { TF_BITS, TF_MAX, type ChunkMeta, type FileRecord, type LexicalHit, type LaidOutPartial, type LoadFailure, type PartialIndex } from '../shared/indexTypes';
import { Bm25Scores } from './bm25';
import { scoreTerms, termLists } from './termLists';
import { ChunkColumns } from './chunkColumns';
import { LiveTier } from './liveTier';
import { writeMerged, type IndexParts } from '../store/segmentMerge';
import { readSegmentFiles, Segment, SegmentChunk } from '../store/segment';
import { TermCounter } from '../text/termCounter';

export { INDEX_FORMAT_VERSION } from '../store/indexFormat';
export { demotedPaths } from './pathPriors';
export type { ChunkMeta, LexicalHit, LoadFailure, PartialIndex } from '../shared/indexTypes';

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
 *
 * Persisted (format v8; v6 brought segments), the index is an immutable segment on disk (segment.ts: tables in memory, postings read per query term) plus the live tier in memory (files indexed since, as above);
 * the segment's chunks of files changed or deleted since are tombstones (length 0), and a merge
 * (segmentMerge.ts) writes both into a new segment.
 */

/** A path term counts as this many occurrences in every chunk of the file. */
const PATH_WEIGHT = 2;

export class LexicalIndex {
  /** The live tier's chunks (the segment's are read from its tables). */
  private readonly chunks = new ChunkColumns();
  private files = new Map<string, FileRecord>();
  /** The segment this index was loaded from (ids 1..its chunk count), if any. */
  private seg: Segment | undefined;
  private segPaths: string[] = [];
  /** Segment chunk id -> its file's index in the segment. */
  private fileOf: Uint32Array = new Uint32Array(1);
  /** Segment files removed or replaced since (their chunks are tombstones). */
  private segRemoved = new Uint8Array(0);
  private segLive = 0;
  private segDead = 0;
  /** Bumped by every change: a save knows whether what it wrote is still the whole index. */
  version = 0;
  /** The postings of the chunks indexed in memory (the segment's are on disk). */
  private readonly live = new LiveTier((termCount) => this.counter.reset(termCount));
  /** Terms per chunk (the BM25 length), by id; 0 for a removed chunk. */
  private lengths: number[] = [0];
  private totalLength = 0;
  private dead = 0;
  private nextId = 1;
  private readonly scores = new Bm25Scores();
  private readonly counter = new TermCounter((term) => this.live.termId(term), (t) => this.live.partMarkId(t));

  get fileCount(): number {
    return this.files.size;
  }

  get chunkCount(): number {
    return this.chunks.size + this.segLive;
  }

  /** The segment the index reads from, if it was loaded or merged into one. */
  get segment(): Segment | undefined {
    return this.seg;
  }

  /**
   * Whether the live tier, the tombstones or the hashes set since have grown past what a merge into
   * a new segment pays for (like the compaction rule: a quarter of the segment's chunks, an eighth
   * of its postings or of its chunks' hashes).
   */
  needsMerge(): boolean {
    const seg = this.seg;
    if (!seg) return false;
    const live = this.live.postingCount;
    const hashes = seg.hashEdits.size; // content hashes set since (an embedding pass): the live file lists each
    return (this.segDead > 1000 && this.segDead > seg.chunkCount / 4) || (live > 1 << 18 && live > seg.postingCount / 8) || (hashes > 1000 && hashes > seg.chunkCount / 8);
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
    const live = this.chunks.get(id);
    if (live) return live;
    const seg = this.seg;
    if (!seg || id < 1 || id > seg.chunkCount) return undefined;
    const f = this.fileOf[id] ?? 0;
    return this.segRemoved[f] ? undefined : new SegmentChunk(seg, id, this.segPaths[f] ?? '');
  }

  /** Records a chunk's content hash (embeddings key by it); persisted with the index. */
  setHash(id: number, hash: string): void {
    const meta = this.chunk(id);
    if (!meta || meta.hash === hash) return;
    meta.hash = hash;
    this.version++;
  }

  *allChunks(): IterableIterator<[number, ChunkMeta]> {
    const seg = this.seg;
    if (seg) {
      for (let id = 1; id <= seg.chunkCount; id++) {
        const f = this.fileOf[id] ?? 0;
        if (!this.segRemoved[f]) yield [id, new SegmentChunk(seg, id, this.segPaths[f] ?? '')];
      }
    }
    yield* this.chunks.entries();
  }

  /** Replaces whatever the index held for `path`. */
  setFile(path: string, stat: FileStat, chunks: readonly Chunk[], previews = true): void {
    this.removeFile(path);
    const pathTerms = this.pathTerms(path, chunks[0]?.text);
    const first = this.nextId;
    for (const c of chunks) {
      const span = { startLine: c.startLine, endLine: c.endLine, start: 0, end: c.text.length };
      this.addChunk(path, c.text, span, pathTerms, previews, declarationsBySpan(c.text, [span]), 0);
    }
    this.counter.release();
    this.files.set(path, { mtime: stat.mtime, size: stat.size, first, count: chunks.length });
  }

  /** Replaces whatever the index held for `path`, from the file's text and its chunks' offsets. */
  setFileText(path: string, stat: FileStat, text: string, chunks: readonly ChunkSpan[]): void {
    this.removeFile(path);
    const pathTerms = this.pathTerms(path, text);
    const first = this.nextId;
    const declared = declarationsBySpan(text, chunks);
    chunks.forEach((c, i) => this.addChunk(path, text, c, pathTerms, true, declared, i));
    this.counter.release();
    this.files.set(path, { mtime: stat.mtime, size: stat.size, first, count: chunks.length });
  }

  private pathTerms(path: string, text: string | undefined): number[] {
    return pathTermsOf(path, text).map((t) => this.live.termId(t));
  }

  /** A term's postings: the segment's (read from disk), then the live tier's base and additions. */
  private lists(term: string): Array<ArrayLike<number> | undefined> {
    return termLists(this.seg, this.live, term);
  }

  /** Indexes `text[span.start, span.end)` as one chunk, with the terms of the names it declares (`declared`'s span `j`: their buckets, their parts' marks); returns its id. */
  private addChunk(path: string, text: string, span: ChunkSpan, pathTerms: readonly number[], previews: boolean, declared: FileDeclarations, j: number): number {
    const id = this.nextId++;
    this.version++;
    const counter = this.counter;
    counter.begin(text, id);
    for (const t of pathTerms) counter.add(t, PATH_WEIGHT);
    const from = declared.from[j] ?? 0;
    const to = declared.to[j] ?? 0;
    for (let k = from; k < to; k++) counter.add(this.live.declarationTermId(declared.buckets[k] ?? 0), 1);
    for (let k = from; k < to; k++) counter.addMarks(declared.starts[k] ?? 0, declared.ends[k] ?? 0);
    scanSpan(text, span, counter);
    const terms = counter.terms;
    const tf = counter.tf;
    const distinct = counter.distinct;
    const log = this.live.room(distinct);
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
    this.lengths[id] = counter.length;
    this.totalLength += counter.length;
    this.chunks.set(id, { path, startLine: span.startLine, endLine: span.endLine, preview: previews ? previewOf(text.slice(span.start, span.end)) : '', hash: '' });
    return id;
  }

  /**
   * What this index holds, as plain arrays (transferable between threads): for an index built
   * from nothing (no removal, not settled yet), the bulk build's worker sends it to the main
   * thread, which `absorb`s it. The postings are views of this index's own log.
   */
  toPartial(): PartialIndex {
    if (this.seg || this.dead > 0 || !this.live.fresh) throw new Error('toPartial needs a fresh, unsettled index');
    const files: PartialIndex['files'] = [];
    const n = this.nextId - 1;
    const lines = new Int32Array(2 * n);
    const lengths = new Int32Array(n);
    let expected = 1;
    for (const [path, f] of this.files) {
      files.push([path, f.mtime, f.size, f.count]);
      for (let id = f.first; id < f.first + f.count; id++) {
        const c = this.chunks.get(id);
        if (!c || id !== expected++) throw new Error('toPartial needs chunk ids in file order');
        lines[2 * (id - 1)] = c.startLine;
        lines[2 * (id - 1) + 1] = c.endLine;
        lengths[id - 1] = this.lengths[id] ?? 0;
      }
    }
    const previews = this.chunks.previewBlock();
    if (previews.ends.length !== n) throw new Error('toPartial needs chunk ids in file order');
    // Views of the log's blocks, not copies: the build worker transfers their buffers and drops
    // this index; other callers must not change it.
    const log = this.live.logViews();
    return { terms: this.live.termNames, postingTerms: log.terms, postingValues: log.values, files, lines, lengths, previews };
  }

  /**
   * Adds what another index built (`toPartial`, laid out by `layOutPartial`): its chunks get ids
   * after this index's. Takes its postings table over (not copied: a build's share is hundreds of
   * MB at 50k files); its lists are copied whole into place at the next layout.
   */
  absorb(p: LaidOutPartial): void {
    const offset = this.nextId - 1;
    const chunks = p.files.reduce((n, f) => n + f[3], 0);
    if (chunks !== p.lengths.length || 2 * chunks !== p.lines.length || chunks !== p.previews.ends.length) throw new Error('inconsistent partial index');
    let local = 0;
    for (const [path, mtime, size, count] of p.files) {
      this.removeFile(path);
      const first = offset + local + 1;
      // The previews come as UTF-8 bytes and are kept so (never made strings on the way).
      this.chunks.setMany(first, path, count, p.lines, p.previews, local);
      for (let k = 0; k < count; k++, local++) {
        const length = p.lengths[local] ?? 0;
        this.lengths[offset + local + 1] = length;
        this.totalLength += length;
      }
      this.files.set(path, { mtime, size, first, count });
    }
    this.version++;
    this.nextId = offset + local + 1;
    const termMap = new Int32Array(p.terms.length);
    for (let t = 0; t < p.terms.length; t++) termMap[t] = this.live.termId(p.terms[t] ?? '');
    this.live.adopt(p.postings, termMap, offset << TF_BITS);
  }

  removeFile(path: string): boolean {
    const record = this.files.get(path);
    if (!record) return false;
    const { first, count } = record;
    for (let id = first; id < first + count; id++) {
      this.chunks.delete(id);
      this.totalLength -= this.lengths[id] ?? 0;
      this.lengths[id] = 0;
    }
    if (record.seg === undefined) {
      this.dead += count;
    } else {
      this.segRemoved[record.seg] = 1;
      this.segLive -= count;
      this.segDead += count;
    }
    this.files.delete(path);
    this.version++;
    if (this.dead > 1000 && this.dead > this.chunks.size / 4) this.compact();
    return true;
  }

  /** Drops the postings of removed chunks (and the terms left without any). */
  compact(): void {
    this.live.layOut(this.lengths, true);
    this.dead = 0;
  }

  /** Distributes the logged postings: into the base when they are many, else per term. */
  settle(): void {
    if (this.live.settle(this.lengths, this.dead > 0)) this.dead = 0;
  }

  /**
   * Best chunks for the query's terms (BM25, then path priors: `demoted` is the user's globs), best first. Throws IndexCorruptError when a
   * segment's list cannot be read or is damaged (the engine rebuilds; no answer from it).
   */
  search(query: string, limit: number, demoted?: DemotedPaths): LexicalHit[] {
    this.settle();
    const terms = queryTerms(query);
    const n = this.chunkCount;
    if (terms.length === 0 || n === 0 || limit <= 0 || this.seg?.closed) return [];
    const scores = this.scores;
    scores.begin(this.nextId);
    const avg = this.totalLength / n || 1;
    try {
      scoreTerms(scores, terms, this.seg, this.live, n, avg, this.lengths);
    } catch (error) {
      scores.reset();
      throw error;
    }
    const hits: LexicalHit[] = [];
    for (const [id, score] of scores.top(limit + PRIOR_POOL)) {
      const meta = this.chunk(id);
      if (meta) hits.push({ id, score, path: meta.path, startLine: meta.startLine, endLine: meta.endLine, preview: meta.preview, hash: meta.hash });
    }
    return applyPathPriors(query, hits, limit, demoted, generatedAmong(hits, this.lists(GENERATED_TERM), TF_BITS), (path) => this.files.has(path), declaringAmong(hits, query, (t) => this.lists(t), TF_BITS));
  }

  /** The index as one segment file in memory (a merge of everything, see segmentMerge.ts). */
  serialize(settingsKey: string): Uint8Array {
    if (this.dead > 0) this.compact(); // as a fresh build of the same files scores
    return Buffer.concat(writeMerged(this.parts(), settingsKey));
  }

  /** Reads a persisted segment from bytes; anything unexpected is reported, never trusted. */
  static deserialize(bytes: Uint8Array, settingsKey: string): LexicalIndex | LoadFailure {
    return LexicalIndex.open(new BytesFile(bytes), settingsKey);
  }

  /** Opens a segment file (its postings stay on disk); closes the file when it is refused. */
  static open(file: RandomAccessFile, settingsKey: string): LexicalIndex | LoadFailure {
    const seg = Segment.open(file, settingsKey);
    if (!(seg instanceof Segment)) {
      file.close();
      return seg;
    }
    try {
      return LexicalIndex.fromSegment(seg);
    } catch (error) {
      seg.close();
      return { reason: 'corrupt', detail: error instanceof Error ? error.message : String(error) };
    }
  }

  private static fromSegment(seg: Segment): LexicalIndex {
    const index = new LexicalIndex();
    const state = readSegmentFiles(seg);
    index.files = state.files;
    index.seg = seg;
    index.segPaths = state.paths;
    index.fileOf = state.fileOf;
    index.segRemoved = new Uint8Array(seg.fileCount);
    index.segLive = seg.chunkCount;
    index.lengths = state.lengths;
    index.totalLength = state.totalLength;
    index.nextId = seg.chunkCount + 1;
    return index;
  }

  /** Closes the segment's file (the index is replaced by a merged one, or dropped). */
  close(): void {
    this.seg?.close();
  }

  /** What a merge or the live file reads (the log settled into the live tier first). */
  parts(): IndexParts {
    this.settle();
    return { seg: this.seg, segPaths: this.segPaths, segRemoved: this.segRemoved, files: this.files, chunks: this.chunks, lengths: this.lengths, termNames: this.live.termNames, sortedTermIds: () => this.live.sortedTermIds(), base: this.live.base, extra: this.live.extra };
  }

  /** Adds a file of the live tier read back from the live file; returns its first chunk id. */
  restoreFile(path: string, stat: FileStat, chunks: ReadonlyArray<ChunkMeta & { length: number }>): number {
    this.removeFile(path);
    const first = this.nextId;
    for (const c of chunks) {
      const id = this.nextId++;
      this.chunks.set(id, { path, startLine: c.startLine, endLine: c.endLine, preview: c.preview, hash: c.hash });
      this.lengths[id] = c.length;
      this.totalLength += c.length;
    }
    this.files.set(path, { mtime: stat.mtime, size: stat.size, first, count: chunks.length });
    this.version++;
    return first;
  }

  /** Adds a term's live postings read back from the live file (ids already those of this index). */
  restorePostings(term: string, values: ArrayLike<number>): void {
    this.live.append(term, values);
  }
}

export function isLoadFailure(value: LexicalIndex | LoadFailure): value is LoadFailure {
  return !(value instanceof LexicalIndex);
}
