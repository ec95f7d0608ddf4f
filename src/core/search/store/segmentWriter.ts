import { ByteBlock, HEADER_BYTES, listChecksum, segmentLayout, tablesCrc, WordBlock, writeHeader, type SegmentHeader } from './segmentFormat';
import { INDEX_FORMAT_VERSION } from './indexFormat';

/**
 * Writes one segment (see segmentFormat.ts) from what is added to it in order: files, each one's
 * chunks right after it (ids 1, 2, ... in the order added), then the terms in sorted order with
 * their postings (ids of this segment, ascending). `finish` returns the file as pieces (tables,
 * previews, postings) so no copy of the postings is made to join them.
 */
export class SegmentWriter {
  private readonly pathOffsets = new WordBlock();
  private readonly paths = new ByteBlock();
  private readonly mtime: number[] = [];
  private readonly size: number[] = [];
  private readonly fileFirst = new WordBlock();
  private readonly startLine = new WordBlock();
  private readonly endLine = new WordBlock();
  private readonly length = new WordBlock();
  private readonly hashOffsets = new WordBlock();
  private readonly hashes = new ByteBlock();
  private readonly previewOffsets = new WordBlock();
  private readonly previews = new ByteBlock();
  private readonly termOffsets = new WordBlock();
  private readonly terms = new ByteBlock();
  private readonly termStart = new WordBlock();
  private readonly termSum = new WordBlock();
  private readonly postings = new WordBlock();
  private chunks = 0;
  private lastTerm: string | undefined;

  constructor() {
    for (const b of [this.pathOffsets, this.hashOffsets, this.previewOffsets, this.termOffsets, this.termStart]) b.push(0);
    this.fileFirst.push(1);
  }

  get chunkCount(): number {
    return this.chunks;
  }

  /** Room for `n` postings at once (a merge knows its upper bound: no growth by doubling, no copy). */
  reservePostings(n: number): void {
    this.postings.reserve(n);
  }

  addFile(path: string, mtime: number, size: number): void {
    this.pathOffsets.push(this.paths.append(path));
    this.mtime.push(mtime);
    this.size.push(size);
    this.fileFirst.push(this.chunks + 1);
  }

  /** A chunk of the file added last; returns its id in this segment. */
  addChunk(startLine: number, endLine: number, length: number, preview: string, hash: string): number {
    this.startLine.push(startLine);
    this.endLine.push(endLine);
    this.length.push(length);
    this.hashOffsets.push(this.hashes.append(hash));
    this.previewOffsets.push(this.previews.append(preview));
    this.chunks++;
    this.fileFirst.words[this.fileFirst.length - 1] = this.chunks + 1;
    return this.chunks;
  }

  /** A term (after the previous one in sorted order) and its list: `list[0, n)`. */
  addTerm(term: string, list: ArrayLike<number>, n = list.length): void {
    if (n === 0) return;
    if (this.lastTerm !== undefined && !(this.lastTerm < term)) throw new Error('segment terms must be added in sorted order');
    this.lastTerm = term;
    this.termOffsets.push(this.terms.append(term));
    const postings = this.postings;
    postings.reserve(n);
    const words = postings.words;
    let at = postings.length;
    for (let i = 0; i < n; i++) words[at++] = list[i] ?? 0;
    postings.length = at;
    this.termStart.push(at);
    this.termSum.push(listChecksum(list, n));
  }

  finish(settingsKey: string, generation = randomGeneration()): Uint8Array[] {
    const key = Buffer.from(settingsKey, 'utf8');
    const header: SegmentHeader = {
      version: INDEX_FORMAT_VERSION,
      generation,
      files: this.mtime.length,
      chunks: this.chunks,
      terms: this.termOffsets.length - 1,
      postings: this.postings.length,
      crc: 0,
      keyBytes: key.length,
      pathBytes: this.paths.length,
      hashBytes: this.hashes.length,
      termBytes: this.terms.length,
      previewBytes: this.previews.length,
    };
    const l = segmentLayout(header);
    const tables = new Uint8Array(l.tablesEnd);
    const put = (at: number, bytes: Uint8Array): void => tables.set(bytes, at);
    const words = (b: WordBlock): Uint8Array => new Uint8Array(b.words.buffer, 0, b.length * 4);
    put(l.key, key);
    put(l.pathOffsets, words(this.pathOffsets));
    put(l.paths, this.paths.view());
    put(l.mtime, new Uint8Array(Float64Array.from(this.mtime).buffer));
    put(l.size, new Uint8Array(Float64Array.from(this.size).buffer));
    put(l.fileFirst, words(this.fileFirst));
    put(l.startLine, words(this.startLine));
    put(l.endLine, words(this.endLine));
    put(l.length, words(this.length));
    put(l.hashOffsets, words(this.hashOffsets));
    put(l.hashes, this.hashes.view());
    put(l.previewOffsets, words(this.previewOffsets));
    put(l.termOffsets, words(this.termOffsets));
    put(l.terms, this.terms.view());
    put(l.termStart, words(this.termStart));
    put(l.termSum, words(this.termSum));
    header.crc = tablesCrc(tables, l);
    writeHeader(tables, header);
    const previews = new Uint8Array(l.postings - l.previews);
    previews.set(this.previews.view());
    return [tables, previews, words(this.postings)];
  }
}

export function randomGeneration(): number {
  return (Math.random() * 2 ** 32) >>> 0 || 1;
}

export { HEADER_BYTES };
