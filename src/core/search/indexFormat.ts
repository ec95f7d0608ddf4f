import { checkNextId, compactIds, isCount } from './indexBounds';
import { TF_BITS, TF_MAX, type ChunkMeta, type FileRecord, type LoadFailure } from './indexTypes';
import type { PostingTable } from './postings';
import type { SearchSettings } from './searchTypes';

/** Bump whenever the persisted shape or the tokenising changes: an older file is rebuilt. */
export const INDEX_FORMAT_VERSION = 5;
const MAGIC = 0x53545349; // "STSI"

/** What a lexical index is made of, as the file format reads and writes it (postings laid out, no log). */
export interface IndexTables {
  files: Map<string, FileRecord>;
  chunks: Map<number, ChunkMeta>;
  termNames: string[];
  postings: PostingTable;
  /** Terms per chunk (the BM25 length), by id; 0 for a removed chunk. */
  lengths: number[];
  totalLength: number;
  nextId: number;
}

/**
 * One binary file: magic, version, header length, the JSON header (files and chunks), padding
 * to a multiple of 4, then three uint32 (term count, bytes of the terms, postings count), the
 * terms as UTF-8 joined by newlines (padded to 4), each term's postings count, and every
 * postings list as one little-endian uint32 array in the order of the terms. The index must be
 * laid out (no removed chunk left in the postings).
 */
export function encodeIndex(index: IndexTables, settingsKey: string): Uint8Array {
  // Ids are written compact (1..n), so a loader can bound nextId by the rows of the file.
  const { remap, count } = compactIds(index.chunks.keys(), index.nextId);
  const files: Array<[string, number, number, number[]]> = [];
  for (const [path, f] of index.files) files.push([path, f.mtime, f.size, f.chunks.map((id) => remap[id] ?? 0)]);
  const chunks: Array<[number, number, number, string, string, number]> = [];
  for (const [id, c] of index.chunks) chunks.push([remap[id] ?? 0, c.startLine, c.endLine, c.preview, c.hash, index.lengths[id] ?? 0]);
  const header = Buffer.from(JSON.stringify({ format: 'stratus-search-index', key: settingsKey, nextId: count + 1, files, chunks }), 'utf8');
  // A term can be left without postings (the path terms of a file with no chunk, or terms of
  // removed chunks before a compaction): the loader rejects such a term, so it is not written.
  const kept: string[] = [];
  const keptCounts: number[] = [];
  for (let t = 0; t < index.termNames.length; t++) {
    const n = (index.postings.offsets[t + 1] ?? 0) - (index.postings.offsets[t] ?? 0);
    if (n > 0) {
      kept.push(index.termNames[t] ?? '');
      keptCounts.push(n);
    }
  }
  const terms = Buffer.from(kept.join('\n'), 'utf8');
  const termCount = kept.length;
  const total = index.postings.data.length;
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
  for (let t = 0; t < termCount; t++) counts[t] = keptCounts[t] ?? 0;
  const data = new Uint32Array(buf.buffer, buf.byteOffset + dataStart, total);
  const base = index.postings.data;
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
export function decodeIndex(bytes: Uint8Array, settingsKey: string): IndexTables | LoadFailure {
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
    const index: IndexTables = { files: new Map(), chunks: new Map(), termNames: [], postings: { offsets: new Uint32Array(1), data: new Uint32Array(0) }, lengths: [], totalLength: 0, nextId: 1 };
    if (!Array.isArray(header.files) || !Array.isArray(header.chunks)) throw new Error('missing tables');
    // Bounded before `live` and `lengths` are allocated from it.
    const nextId = checkNextId(header.nextId, header.chunks.length, headerLength, TF_BITS);
    // The rows by id (ids are compact, below nextId: an array, not a map).
    const byId = new Array<unknown[] | undefined>(nextId).fill(undefined);
    for (const row of header.chunks as unknown[]) {
      if (!Array.isArray(row) || row.length !== 6 || !isCount(row[0]) || !isCount(row[1]) || !isCount(row[2]) || typeof row[3] !== 'string' || typeof row[4] !== 'string' || !isCount(row[5])) {
        throw new Error('bad chunk row');
      }
      if (row[0] < 1 || row[0] >= nextId || byId[row[0]]) throw new Error('a chunk row with an id out of range or repeated');
      byId[row[0]] = row;
    }
    const live = new Uint8Array(nextId);
    const lengths = new Array<number>(nextId).fill(0);
    for (const row of header.files as unknown[]) {
      if (!Array.isArray(row) || typeof row[0] !== 'string' || typeof row[1] !== 'number' || !Number.isFinite(row[1]) || !isCount(row[2], Number.MAX_SAFE_INTEGER) || !Array.isArray(row[3])) throw new Error('bad file row');
      const chunkIds: number[] = [];
      for (const id of row[3] as unknown[]) {
        if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id >= nextId || live[id]) throw new Error('file refers to a missing chunk');
        const c = byId[id] as [number, number, number, string, string, number] | undefined;
        if (!c) throw new Error('file refers to a missing chunk');
        live[id] = 1;
        index.chunks.set(id, { path: row[0], startLine: c[1], endLine: c[2], preview: c[3], hash: c[4] });
        lengths[id] = c[5];
        index.totalLength += c[5];
        chunkIds.push(id);
      }
      index.files.set(row[0], { mtime: row[1], size: row[2], chunks: chunkIds });
    }
    if (index.chunks.size !== header.chunks.length) throw new Error('chunks without a file');
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
    const little = littleEndian();
    for (let t = 0; t < termCount; t++) {
      const n = little ? (counts[t] ?? 0) : swap32(counts[t] ?? 0);
      if (n < 1) throw new Error('a term without postings');
      offsets[t + 1] = (offsets[t] ?? 0) + n;
    }
    if (offsets[termCount] !== total) throw new Error(`postings hold ${total} entries, the terms need ${offsets[termCount] ?? 0}`);
    if (!little) for (let i = 0; i < total; i++) data[i] = swap32(data[i] ?? 0);
    for (let i = 0; i < total; i++) {
      const id = (data[i] ?? 0) >>> TF_BITS;
      if (id >= nextId || live[id] !== 1) throw new Error('a posting refers to a missing chunk');
    }
    const seen = new Set<string>();
    for (const name of names) {
      if (name === '' || seen.has(name)) throw new Error('bad term table');
      seen.add(name);
    }
    index.termNames = names;
    index.postings = { offsets, data };
    index.lengths = lengths;
    index.nextId = nextId;
    return index;
  } catch (error) {
    return { reason: 'corrupt', detail: error instanceof Error ? error.message : String(error) };
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

export function describeLoadFailure(failure: LoadFailure): string {
  switch (failure.reason) {
    case 'corrupt':
      return `unreadable: ${failure.detail}`;
    case 'old_version':
      return `format version ${String(failure.found)}, this version reads ${INDEX_FORMAT_VERSION}`;
    case 'settings_changed':
      return 'built with other search settings';
  }
}


/** What a persisted index must match to be reused (chunking, ignore rules, size cap). */
export function searchSettingsKey(s: SearchSettings): string {
  return JSON.stringify({ v: INDEX_FORMAT_VERSION, c: s.chunk, x: [...s.excludeGlobs].sort(), g: s.useGitignore, m: s.maxFileSizeBytes });
}
