import type { RandomAccessFile } from '../shared/files';
import { INDEX_FORMAT_VERSION } from './indexFormat';
import { IndexCorruptError } from './indexBounds';
import { TF_BITS, TF_MAX, type ChunkMeta, type FileRecord, type LoadFailure } from '../shared/indexTypes';
import { checkTables, HEADER_BYTES, listChecksum, littleEndian, readHeader, SEGMENT_MAGIC, segmentLayout, tablesCrc, viewTables, type SegmentHeader, type SegmentLayout, type SegmentTables } from './segmentFormat';

/** Postings lists kept after a read (the terms of recent queries): at most this many entries in all. */
const CACHE_POSTINGS = 1 << 20;

/**
 * An immutable segment opened for queries: its tables in memory (typed arrays over one buffer),
 * its postings and previews read from the file when asked for, each list checked when read. The
 * file stays open until `close` (a merge swaps a new segment in, then closes the old one).
 */
export class Segment {
  private readonly decoder = new TextDecoder('utf-8', { fatal: false });
  private readonly cache = new Map<number, Uint32Array>();
  private cached = 0;
  /** Content hashes set since the segment was written (embeddings); persisted in the live file. */
  readonly hashEdits = new Map<number, string>();

  private constructor(
    private readonly file: RandomAccessFile,
    readonly header: SegmentHeader,
    private readonly layout: SegmentLayout,
    readonly tables: SegmentTables,
  ) {}

  /** Opens a segment file: header, version, settings, CRC and table checks; never trusts it. */
  static open(file: RandomAccessFile, settingsKey: string): Segment | LoadFailure {
    try {
      if (file.size < HEADER_BYTES) return { reason: 'corrupt', detail: 'not a Stratus search index' };
      const head = new Uint8Array(HEADER_BYTES);
      if (file.read(head, 0) !== HEADER_BYTES) throw new IndexCorruptError('short read');
      const view = new DataView(head.buffer);
      if (view.getUint32(0, true) !== SEGMENT_MAGIC) return { reason: 'corrupt', detail: 'not a Stratus search index' };
      const header = readHeader(head);
      if (header.version !== INDEX_FORMAT_VERSION) return { reason: 'old_version', found: header.version };
      if (!littleEndian()) throw new IndexCorruptError('segments are little-endian; this machine is not');
      const layout = segmentLayout(header);
      // Nothing is allocated from the header's counts before they are bounded by the file's size.
      if (layout.total !== file.size) throw new IndexCorruptError(`the file holds ${file.size} bytes, its tables say ${layout.total}`);
      const bytes = new Uint8Array(layout.tablesEnd);
      if (file.read(bytes, 0) !== bytes.length) throw new IndexCorruptError('short read');
      if (tablesCrc(bytes, layout) !== header.crc) throw new IndexCorruptError('the tables do not match their checksum');
      const tables = viewTables(bytes, header, layout);
      if (tables.key !== settingsKey) return { reason: 'settings_changed' };
      checkTables(tables, header);
      return new Segment(file, header, layout, tables);
    } catch (error) {
      return { reason: 'corrupt', detail: error instanceof Error ? error.message : String(error) };
    }
  }

  get chunkCount(): number {
    return this.header.chunks;
  }

  get fileCount(): number {
    return this.header.files;
  }

  get termCount(): number {
    return this.header.terms;
  }

  get postingCount(): number {
    return this.header.postings;
  }

  get generation(): number {
    return this.header.generation;
  }

  /** Closed: queries answer nothing, previews are empty (the engine was disposed, or the segment replaced). */
  closed = false;

  close(): void {
    this.cache.clear();
    this.closed = true;
    this.file.close();
  }

  path(f: number): string {
    const o = this.tables.pathOffsets;
    return this.decoder.decode(this.tables.paths.subarray(o[f] ?? 0, o[f + 1] ?? 0));
  }

  term(k: number): string {
    const o = this.tables.termOffsets;
    return this.decoder.decode(this.tables.terms.subarray(o[k] ?? 0, o[k + 1] ?? 0));
  }

  /** The index of `term` in the sorted dictionary (binary search), -1 when absent. */
  lookup(term: string): number {
    let lo = 0;
    let hi = this.header.terms - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const t = this.term(mid);
      if (t === term) return mid;
      if (t < term) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** How many postings term `k` has (its document frequency in this segment, tombstones included). */
  count(k: number): number {
    return (this.tables.termStart[k + 1] ?? 0) - (this.tables.termStart[k] ?? 0);
  }

  /**
   * Term `k`'s postings, read from the file and checked (its checksum; ids in 1..chunks, ascending, tf >= 1);
   * throws IndexCorruptError on a short read or a bad list: the caller rebuilds, never answers from it.
   */
  postings(k: number, cache = true): Uint32Array {
    const hit = this.cache.get(k);
    if (hit) {
      this.cache.delete(k);
      this.cache.set(k, hit);
      return hit;
    }
    const from = this.tables.termStart[k] ?? 0;
    const n = this.count(k);
    const list = new Uint32Array(n);
    const bytes = new Uint8Array(list.buffer);
    if (this.file.read(bytes, this.layout.postings + 4 * from) !== bytes.length) throw new IndexCorruptError('short read of a postings list');
    if (listChecksum(list) !== this.tables.termSum[k]) throw new IndexCorruptError(`a postings list does not match its checksum (term ${k})`);
    const chunks = this.header.chunks;
    let previous = 0;
    for (let i = 0; i < n; i++) {
      const p = list[i] ?? 0;
      const id = p >>> TF_BITS;
      if (id <= previous || id > chunks || (p & TF_MAX) === 0) throw new IndexCorruptError(`a postings list holds a bad entry (term ${k})`);
      previous = id;
    }
    if (!cache) return list;
    this.cache.set(k, list);
    this.cached += n;
    for (const [key, old] of this.cache) {
      if (this.cached <= CACHE_POSTINGS) break;
      this.cache.delete(key);
      this.cached -= old.length;
    }
    return list;
  }

  /** Reads the whole previews block (a merge copies it). */
  readPreviews(): Uint8Array {
    const bytes = new Uint8Array(this.header.previewBytes);
    if (this.file.read(bytes, this.layout.previews) !== bytes.length) throw new IndexCorruptError('short read of the previews');
    return bytes;
  }

  preview(id: number): string {
    if (this.closed) return '';
    const o = this.tables.previewOffsets;
    const from = o[id - 1] ?? 0;
    const bytes = new Uint8Array((o[id] ?? 0) - from);
    if (bytes.length === 0) return '';
    if (this.file.read(bytes, this.layout.previews + from) !== bytes.length) throw new IndexCorruptError('short read of a preview');
    return this.decoder.decode(bytes);
  }

  hash(id: number): string {
    const edited = this.hashEdits.get(id);
    if (edited !== undefined) return edited;
    const o = this.tables.hashOffsets;
    const from = o[id - 1] ?? 0;
    const to = o[id] ?? 0;
    return from === to ? '' : this.decoder.decode(this.tables.hashes.subarray(from, to));
  }

  startLine(id: number): number {
    return this.tables.startLine[id - 1] ?? 0;
  }

  endLine(id: number): number {
    return this.tables.endLine[id - 1] ?? 0;
  }

  length(id: number): number {
    return this.tables.length[id - 1] ?? 0;
  }
}

/** A segment chunk's metadata, read from the tables when asked for (the preview from the file). */
export class SegmentChunk implements ChunkMeta {
  constructor(
    private readonly segment: Segment,
    private readonly id: number,
    readonly path: string,
  ) {}
  get startLine(): number {
    return this.segment.startLine(this.id);
  }
  get endLine(): number {
    return this.segment.endLine(this.id);
  }
  get preview(): string {
    return this.segment.preview(this.id);
  }
  get hash(): string {
    return this.segment.hash(this.id);
  }
  set hash(value: string) {
    this.segment.hashEdits.set(this.id, value);
  }
}

/** The segment's files by path, and per chunk id its file and BM25 length: O(files + chunks). */
export function readSegmentFiles(seg: Segment): { files: Map<string, FileRecord>; paths: string[]; fileOf: Uint32Array<ArrayBuffer>; lengths: number[]; totalLength: number } {
  const fileCount = seg.fileCount;
  const { fileFirst, mtime, size, length } = seg.tables;
  const files = new Map<string, FileRecord>();
  const fileOf = new Uint32Array(seg.chunkCount + 1);
  const lengths = new Array<number>(seg.chunkCount + 1).fill(0);
  const paths = new Array<string>(fileCount);
  let totalLength = 0;
  for (let f = 0; f < fileCount; f++) {
    const path = seg.path(f);
    const first = fileFirst[f] ?? 1;
    const end = fileFirst[f + 1] ?? 1;
    paths[f] = path;
    files.set(path, { mtime: mtime[f] ?? 0, size: size[f] ?? 0, first, count: end - first, seg: f });
    for (let id = first; id < end; id++) {
      fileOf[id] = f;
      const len = length[id - 1] ?? 0;
      lengths[id] = len;
      totalLength += len;
    }
  }
  if (files.size !== fileCount) throw new IndexCorruptError('a path is listed twice');
  return { files, paths, fileOf, lengths, totalLength };
}
