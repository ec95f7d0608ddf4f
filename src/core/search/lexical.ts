import type { Chunk } from './chunker';
import type { FileStat } from './files';
import { forEachPart, forEachTerm, normalizePart } from './identifiers';

/**
 * The lexical index: BM25 over chunks, an inverted index of packed postings (chunk id and term
 * frequency in one integer), incremental per file (removed chunks are tombstoned, then compacted),
 * persisted as one binary file with a format version. Chunk text is not kept: line ranges, a
 * preview line and (once embeddings have read it) a content hash.
 *
 * Why not MiniSearch (the library first used here): with the same tokenizer on the benchmark's
 * generated 10 MB workspace (15k chunks) it took 1.65 s of CPU to build and 40 ms for a 4-word
 * query, this index 0.37 s and 1.8 ms (half the memory): MiniSearch's radix tree costs several
 * objects per term occurrence and scores through per-term maps; scaled to the 50 MB benchmark its
 * queries would take ~200 ms, over the 50 ms target. Prefix and fuzzy matching, what the radix tree buys, are not used by this search.
 */

/** Bump whenever the persisted shape or the tokenising changes: an older file is rebuilt. */
export const INDEX_FORMAT_VERSION = 3;
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
const PART_CACHE_MAX = 200_000;
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
const DATA_LINE = /^.{1000,}$/gm;

/** The text without its data lines (checked with indexOf first: most chunks have none). */
function withoutDataLines(text: string): string {
  if (text.length <= DATA_LINE_CHARS) return text;
  let from = 0;
  for (;;) {
    const nl = text.indexOf('\n', from);
    const end = nl < 0 ? text.length : nl;
    if (end - from > DATA_LINE_CHARS) return text.replace(DATA_LINE, '');
    if (nl < 0) return text;
    from = nl + 1;
  }
}

/** Why a persisted index was not used. */
export type LoadFailure = { reason: 'corrupt'; detail: string } | { reason: 'old_version'; found: unknown } | { reason: 'settings_changed' };

export class LexicalIndex {
  private readonly chunks = new Map<number, ChunkMeta>();
  private readonly files = new Map<string, FileRecord>();
  /** term -> packed postings (id << TF_BITS | tf), ids ascending. */
  private postings = new Map<string, number[]>();
  /** Terms per chunk (the BM25 length), by id; 0 for a removed chunk. */
  private lengths: number[] = [];
  private totalLength = 0;
  private dead = 0;
  private nextId = 1;
  private scores = new Float64Array(0);
  /**
   * Raw word part as written -> its postings list (null for filler): the hot loop of indexing then
   * costs one map lookup per word part, with no lower-casing or stemming of a part seen before.
   * Lists are replaced by compaction, which clears this cache.
   */
  private partCache = new Map<string, number[] | null>();

  get fileCount(): number {
    return this.files.size;
  }

  get chunkCount(): number {
    return this.chunks.size;
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
    const pathTerms = new Set<string>();
    forEachTerm(path, (t) => pathTerms.add(t));
    const ids: number[] = [];
    const postings = this.postings;
    // The chunk's postings are appended as terms appear; a repeated term bumps the tf of the
    // entry it appended (always the last one of its list).
    let id = 0;
    let length = 0;
    const add = (term: string, weight: number): void => {
      let list = postings.get(term);
      if (!list) {
        list = [];
        postings.set(term, list);
      }
      const last = list.length - 1;
      const p = last >= 0 ? (list[last] ?? 0) : 0;
      if (last >= 0 && p >>> TF_BITS === id) {
        if ((p & TF_MAX) < TF_MAX) list[last] = p + Math.min(weight, TF_MAX - (p & TF_MAX));
      } else {
        list.push((id << TF_BITS) | Math.min(weight, TF_MAX));
      }
      length += weight;
    };
    const cache = this.partCache;
    const addPart = (part: string): void => {
      let list = cache.get(part);
      if (list === undefined) {
        const term = normalizePart(part);
        if (term === '') list = null;
        else {
          list = postings.get(term) ?? [];
          if (list.length === 0) postings.set(term, list);
        }
        if (cache.size >= PART_CACHE_MAX) cache.clear();
        cache.set(part, list);
      }
      if (list === null) return;
      const last = list.length - 1;
      const p = last >= 0 ? (list[last] ?? 0) : 0;
      if (last >= 0 && p >>> TF_BITS === id) {
        if ((p & TF_MAX) < TF_MAX) list[last] = p + 1;
      } else {
        list.push((id << TF_BITS) | 1);
      }
      length += 1;
    };
    for (const c of chunks) {
      id = this.nextId++;
      length = 0;
      ids.push(id);
      this.chunks.set(id, { path, startLine: c.startLine, endLine: c.endLine, preview: previews ? previewOf(c.text) : '', hash: '' });
      for (const t of pathTerms) add(t, PATH_WEIGHT);
      forEachPart(withoutDataLines(c.text), addPart);
      this.lengths[id] = length;
      this.totalLength += length;
    }
    this.files.set(path, { mtime: stat.mtime, size: stat.size, chunks: ids });
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

  /** Drops the postings of removed chunks. */
  compact(): void {
    this.partCache.clear();
    for (const [term, list] of this.postings) {
      const kept = list.filter((p) => this.chunks.has(p >>> TF_BITS));
      if (kept.length === 0) this.postings.delete(term);
      else if (kept.length !== list.length) this.postings.set(term, kept);
    }
    this.dead = 0;
  }

  /** Best chunks for the query's terms (BM25), best first. */
  search(query: string, limit: number): LexicalHit[] {
    const terms = new Set<string>();
    forEachTerm(query, (t) => terms.add(t));
    const n = this.chunks.size;
    if (terms.size === 0 || n === 0 || limit <= 0) return [];
    if (this.scores.length < this.nextId) this.scores = new Float64Array(Math.max(this.nextId, this.scores.length * 2));
    const scores = this.scores;
    const touched: number[] = [];
    const avg = this.totalLength / n || 1;
    for (const term of terms) {
      const list = this.postings.get(term);
      if (!list) continue;
      const df = list.length;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (let i = 0; i < list.length; i++) {
        const p = list[i] ?? 0;
        const id = p >>> TF_BITS;
        const len = this.lengths[id] ?? 0;
        if (len === 0) continue; // removed
        const tf = p & TF_MAX;
        if (scores[id] === 0) touched.push(id);
        scores[id] = (scores[id] ?? 0) + (idf * (tf * (K1 + 1))) / (tf + K1 * (1 - B + (B * len) / avg));
      }
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
   * One binary file: magic, version, header length, the JSON header (tables, and the terms with
   * their postings counts), padding to a multiple of 4, then every postings list as one
   * little-endian uint32 array in the order of the terms.
   */
  serialize(settingsKey: string): Uint8Array {
    if (this.dead > 0) this.compact();
    const files: Array<[string, number, number, number[]]> = [];
    for (const [path, f] of this.files) files.push([path, f.mtime, f.size, f.chunks]);
    const chunks: Array<[number, number, number, string, string, number]> = [];
    for (const [id, c] of this.chunks) chunks.push([id, c.startLine, c.endLine, c.preview, c.hash, this.lengths[id] ?? 0]);
    const terms: Array<[string, number]> = [];
    let total = 0;
    for (const [term, list] of this.postings) {
      terms.push([term, list.length]);
      total += list.length;
    }
    const header = Buffer.from(JSON.stringify({ format: 'stratus-search-index', key: settingsKey, nextId: this.nextId, files, chunks, terms }), 'utf8');
    const headerEnd = 12 + header.length;
    const dataStart = Math.ceil(headerEnd / 4) * 4;
    const buf = Buffer.alloc(dataStart + total * 4);
    buf.writeUInt32LE(MAGIC, 0);
    buf.writeUInt32LE(INDEX_FORMAT_VERSION, 4);
    buf.writeUInt32LE(header.length, 8);
    header.copy(buf, 12);
    const data = new Uint32Array(buf.buffer, buf.byteOffset + dataStart, total);
    let k = 0;
    for (const list of this.postings.values()) {
      data.set(list, k);
      k += list.length;
    }
    if (!littleEndian()) for (let i = 0; i < total; i++) data[i] = swap32(data[i] ?? 0);
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
      const dataStart = Math.ceil((12 + headerLength) / 4) * 4;
      if (header.format !== 'stratus-search-index') throw new Error('unknown format tag');
      if (header.key !== settingsKey) return { reason: 'settings_changed' };
      const index = new LexicalIndex();
      const nextId = header.nextId;
      if (typeof nextId !== 'number' || !Number.isInteger(nextId) || nextId < 1 || !Array.isArray(header.files) || !Array.isArray(header.chunks) || !Array.isArray(header.terms)) throw new Error('missing tables');
      const byId = new Map<number, [number, number, string, string, number]>();
      for (const row of header.chunks as unknown[]) {
        if (!Array.isArray(row) || row.length !== 6 || typeof row[0] !== 'number' || typeof row[1] !== 'number' || typeof row[2] !== 'number' || typeof row[3] !== 'string' || typeof row[4] !== 'string' || typeof row[5] !== 'number') {
          throw new Error('bad chunk row');
        }
        byId.set(row[0], [row[1], row[2], row[3], row[4], row[5]]);
      }
      const live = new Uint8Array(nextId);
      for (const row of header.files as unknown[]) {
        if (!Array.isArray(row) || typeof row[0] !== 'string' || typeof row[1] !== 'number' || typeof row[2] !== 'number' || !Array.isArray(row[3])) throw new Error('bad file row');
        const chunkIds: number[] = [];
        for (const id of row[3] as unknown[]) {
          const c = typeof id === 'number' ? byId.get(id) : undefined;
          if (!c || typeof id !== 'number' || id >= nextId || live[id]) throw new Error('file refers to a missing chunk');
          live[id] = 1;
          index.chunks.set(id, { path: row[0], startLine: c[0], endLine: c[1], preview: c[2], hash: c[3] });
          index.lengths[id] = c[4];
          index.totalLength += c[4];
          chunkIds.push(id);
        }
        index.files.set(row[0], { mtime: row[1], size: row[2], chunks: chunkIds });
      }
      if (index.chunks.size !== byId.size) throw new Error('chunks without a file');
      let total = 0;
      for (const entry of header.terms as unknown[]) {
        if (!Array.isArray(entry) || typeof entry[0] !== 'string' || typeof entry[1] !== 'number' || !Number.isInteger(entry[1]) || entry[1] < 1) throw new Error('bad term row');
        total += entry[1];
      }
      if (buf.length !== dataStart + total * 4) throw new Error(`postings hold ${buf.length - dataStart} bytes, the terms need ${total * 4}`);
      // An aligned copy when the bytes do not start on a 4-byte boundary.
      const aligned = (buf.byteOffset + dataStart) % 4 === 0 ? buf : Buffer.from(buf);
      const data = new Uint32Array(aligned.buffer, aligned.byteOffset + dataStart, total);
      if (!littleEndian()) for (let i = 0; i < total; i++) data[i] = swap32(data[i] ?? 0);
      for (let i = 0; i < total; i++) {
        const id = (data[i] ?? 0) >>> TF_BITS;
        if (id >= nextId || live[id] !== 1) throw new Error('a posting refers to a missing chunk');
      }
      let k = 0;
      for (const entry of header.terms as Array<[string, number]>) {
        index.postings.set(entry[0], Array.from(data.subarray(k, k + entry[1])));
        k += entry[1];
      }
      index.nextId = nextId;
      return index;
    } catch (error) {
      return { reason: 'corrupt', detail: error instanceof Error ? error.message : String(error) };
    }
  }
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
