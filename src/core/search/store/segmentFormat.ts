import { crc32 } from 'node:zlib';
import { IndexCorruptError } from './indexBounds';

/**
 * The on-disk segment of the search index (format v6): binary tables only, little-endian, every
 * section 8-aligned, in this order:
 *
 *   header (HEADER_BYTES: 14 uint32, see `SegmentHeader`)
 *   --- the tables: read whole at load, covered by the header's CRC-32 ---
 *   settings key (UTF-8)
 *   file path offsets (uint32 x files + 1), file paths (UTF-8)
 *   file mtime, file size (float64 x files), file first chunk id (uint32 x files + 1; 1 .. chunks + 1)
 *   chunk start line, end line, BM25 length (uint32 x chunks each), content hash offsets (uint32 x
 *   chunks + 1), content hashes (UTF-8), preview offsets (uint32 x chunks + 1)
 *   term offsets (uint32 x terms + 1), terms (UTF-8, sorted by JS string order), term postings
 *   start (uint32 x terms + 1, an index into the postings), each list's checksum (uint32 x terms,
 *   `listChecksum`: a damaged list is refused when read, even one whose entries look valid)
 *   --- read on demand ---
 *   previews (UTF-8), postings (uint32 `id << TF_BITS | tf`, each term's list ascending by id)
 *
 * Chunk ids are 1..chunks, a file's chunks consecutive. Checks at load are O(files + chunks +
 * terms) (the CRC, offsets monotone and in bounds), never O(postings): a list is checked when read.
 */

export const SEGMENT_MAGIC = 0x53545349; // "STSI", as every format before
export const HEADER_WORDS = 14;
export const HEADER_BYTES = HEADER_WORDS * 4 + 8; // 64: 8-aligned with room

export interface SegmentHeader {
  version: number;
  /** A random number per segment: a live file names the segment it applies to. */
  generation: number;
  files: number;
  chunks: number;
  terms: number;
  postings: number;
  crc: number;
  keyBytes: number;
  pathBytes: number;
  hashBytes: number;
  termBytes: number;
  previewBytes: number;
}

/** Byte offsets of every section (see the file comment), computed from the header alone. */
export interface SegmentLayout {
  key: number;
  pathOffsets: number;
  paths: number;
  mtime: number;
  size: number;
  fileFirst: number;
  startLine: number;
  endLine: number;
  length: number;
  hashOffsets: number;
  hashes: number;
  previewOffsets: number;
  termOffsets: number;
  terms: number;
  termStart: number;
  termSum: number;
  tablesEnd: number;
  previews: number;
  postings: number;
  total: number;
}

const align8 = (n: number): number => Math.ceil(n / 8) * 8;

export function segmentLayout(h: SegmentHeader): SegmentLayout {
  let at = HEADER_BYTES;
  const take = (bytes: number): number => {
    const start = at;
    at = align8(at + bytes);
    return start;
  };
  const key = take(h.keyBytes);
  const pathOffsets = take(4 * (h.files + 1));
  const paths = take(h.pathBytes);
  const mtime = take(8 * h.files);
  const size = take(8 * h.files);
  const fileFirst = take(4 * (h.files + 1));
  const startLine = take(4 * h.chunks);
  const endLine = take(4 * h.chunks);
  const length = take(4 * h.chunks);
  const hashOffsets = take(4 * (h.chunks + 1));
  const hashes = take(h.hashBytes);
  const previewOffsets = take(4 * (h.chunks + 1));
  const termOffsets = take(4 * (h.terms + 1));
  const terms = take(h.termBytes);
  const termStart = take(4 * (h.terms + 1));
  const termSum = take(4 * h.terms);
  const tablesEnd = at;
  const previews = take(h.previewBytes);
  const postings = take(4 * h.postings);
  return { key, pathOffsets, paths, mtime, size, fileFirst, startLine, endLine, length, hashOffsets, hashes, previewOffsets, termOffsets, terms, termStart, termSum, tablesEnd, previews, postings, total: postings + 4 * h.postings };
}

export function readHeader(bytes: Uint8Array): SegmentHeader {
  const v = new DataView(bytes.buffer, bytes.byteOffset, HEADER_BYTES);
  const u = (i: number): number => v.getUint32(4 * i, true);
  return { version: u(1), generation: u(2), files: u(3), chunks: u(4), terms: u(5), postings: u(6), crc: u(7), keyBytes: u(8), pathBytes: u(9), hashBytes: u(10), termBytes: u(11), previewBytes: u(12) };
}

export function writeHeader(into: Uint8Array, h: SegmentHeader): void {
  const v = new DataView(into.buffer, into.byteOffset, HEADER_BYTES);
  [SEGMENT_MAGIC, h.version, h.generation, h.files, h.chunks, h.terms, h.postings, h.crc, h.keyBytes, h.pathBytes, h.hashBytes, h.termBytes, h.previewBytes, 0].forEach((w, i) => v.setUint32(4 * i, w, true));
}

export function tablesCrc(tables: Uint8Array, layout: SegmentLayout): number {
  return crc32(tables.subarray(HEADER_BYTES, layout.tablesEnd));
}

/** Typed views of the tables (`tables` holds the file's bytes [0, tablesEnd), 8-aligned). */
export interface SegmentTables {
  key: string;
  pathOffsets: Uint32Array;
  paths: Uint8Array;
  mtime: Float64Array;
  size: Float64Array;
  fileFirst: Uint32Array;
  startLine: Uint32Array;
  endLine: Uint32Array;
  length: Uint32Array;
  hashOffsets: Uint32Array;
  hashes: Uint8Array;
  previewOffsets: Uint32Array;
  termOffsets: Uint32Array;
  terms: Uint8Array;
  termStart: Uint32Array;
  termSum: Uint32Array;
}

export function viewTables(tables: Uint8Array, h: SegmentHeader, l: SegmentLayout): SegmentTables {
  const b = tables.buffer;
  const o = tables.byteOffset;
  const u32 = (at: number, n: number): Uint32Array => new Uint32Array(b, o + at, n);
  const f64 = (at: number, n: number): Float64Array => new Float64Array(b, o + at, n);
  return {
    key: Buffer.from(b, o + l.key, h.keyBytes).toString('utf8'),
    pathOffsets: u32(l.pathOffsets, h.files + 1),
    paths: new Uint8Array(b, o + l.paths, h.pathBytes),
    mtime: f64(l.mtime, h.files),
    size: f64(l.size, h.files),
    fileFirst: u32(l.fileFirst, h.files + 1),
    startLine: u32(l.startLine, h.chunks),
    endLine: u32(l.endLine, h.chunks),
    length: u32(l.length, h.chunks),
    hashOffsets: u32(l.hashOffsets, h.chunks + 1),
    hashes: new Uint8Array(b, o + l.hashes, h.hashBytes),
    previewOffsets: u32(l.previewOffsets, h.chunks + 1),
    termOffsets: u32(l.termOffsets, h.terms + 1),
    terms: new Uint8Array(b, o + l.terms, h.termBytes),
    termStart: u32(l.termStart, h.terms + 1),
    termSum: u32(l.termSum, h.terms),
  };
}

/**
 * Structural checks of the tables, O(files + chunks + terms): offsets start at 0, never go back
 * and end at their block's length (strictly increasing where an entry cannot be empty: terms and
 * their postings lists); files' first chunk ids run from 1 to chunks + 1; numbers are in range.
 */
export function checkTables(t: SegmentTables, h: SegmentHeader): void {
  const monotone = (a: Uint32Array, end: number, strict: boolean, first = 0): void => {
    if (a[0] !== first || a[a.length - 1] !== end) throw new IndexCorruptError('a table does not span its block');
    for (let i = 1; i < a.length; i++) {
      const d = (a[i] ?? 0) - (a[i - 1] ?? 0);
      if (d < 0 || (strict && d === 0)) throw new IndexCorruptError('a table goes back');
    }
  };
  monotone(t.pathOffsets, h.pathBytes, true);
  monotone(t.fileFirst, h.chunks + 1, false, 1);
  monotone(t.hashOffsets, h.hashBytes, false);
  monotone(t.termOffsets, h.termBytes, true);
  monotone(t.termStart, h.postings, true);
  monotone(t.previewOffsets, h.previewBytes, false);
  for (let f = 0; f < h.files; f++) {
    const mtime = t.mtime[f] ?? NaN;
    const size = t.size[f] ?? NaN;
    if (!Number.isFinite(mtime) || !Number.isSafeInteger(size) || size < 0) throw new IndexCorruptError('bad file time or size');
  }
  for (let c = 0; c < h.chunks; c++) if ((t.startLine[c] ?? 0) > (t.endLine[c] ?? 0) || (t.endLine[c] ?? 0) > 2 ** 31 - 1) throw new IndexCorruptError('bad chunk lines');
}

/** Bytes appended with growth (UTF-8 text blocks, and their offsets). */
export class ByteBlock {
  bytes = Buffer.allocUnsafeSlow(1 << 16);
  length = 0;

  /** Appends `s` as UTF-8; returns the block's length after it. */
  append(s: string): number {
    this.room(s.length * 3);
    this.length += this.bytes.write(s, this.length, 'utf8');
    return this.length;
  }

  /** Appends bytes (already UTF-8); returns the block's length after them. */
  appendBytes(bytes: Uint8Array): number {
    this.room(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
    return this.length;
  }

  private room(n: number): void {
    const need = this.length + n;
    if (need <= this.bytes.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(need, this.bytes.length * 2));
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }

  view(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

/** Uint32s appended with growth. */
export class WordBlock {
  words = new Uint32Array(1 << 12);
  length = 0;

  push(v: number): void {
    if (this.length === this.words.length) this.reserve(1);
    this.words[this.length++] = v;
  }

  reserve(n: number): void {
    if (this.length + n <= this.words.length) return;
    const grown = new Uint32Array(Math.max(this.length + n, this.words.length * 2));
    grown.set(this.words.subarray(0, this.length));
    this.words = grown;
  }

  view(): Uint32Array {
    return this.words.subarray(0, this.length);
  }
}

/** A postings list's checksum (multiplicative hashing: ~1 ns a posting, to write and to check). */
export function listChecksum(list: ArrayLike<number>, n = list.length): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < n; i++) h = Math.imul(h ^ (list[i] ?? 0), 0x01000193) ^ (h >>> 15);
  return h >>> 0;
}

export function littleEndian(): boolean {
  return new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
}
