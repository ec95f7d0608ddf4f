import { isCount } from '../store/indexBounds';
import { TF_BITS, TF_MAX } from '../shared/indexTypes';
import type { LexicalIndex } from './lexical';
import type { Segment } from '../store/segment';
import type { IndexParts } from '../store/segmentMerge';

/** The live tier beside the segment: what changed since the segment was written (small). */
export const LIVE_FILE = 'search-index.live.bin';
const LIVE_MAGIC = 0x5354534c; // "STSL"
const LIVE_VERSION = 1;

type ChunkRow = [startLine: number, endLine: number, length: number, preview: string, hash: string];
interface LiveHeader {
  key: string;
  generation: number;
  /** Segment files removed or replaced since (their chunks are tombstones). */
  removed: number[];
  /** Content hashes set on segment chunks since (embeddings). */
  hashes: Array<[number, string]>;
  /** The live tier's files, in id order; their chunks are numbered 1.. in this order. */
  files: Array<[path: string, mtime: number, size: number, chunks: ChunkRow[]]>;
  /** Each term's number of postings, in the order of the postings that follow the header. */
  terms: Array<[string, number]>;
}

/**
 * The live file: magic, version, header length, the JSON header (see `LiveHeader`), padding to 4,
 * then the postings (uint32 `n << TF_BITS | tf`, n the chunk's number among the live files').
 * It names the segment it applies to (its generation): another segment ignores it.
 */
export function encodeLive(parts: IndexParts, settingsKey: string): Uint8Array {
  const seg = parts.seg;
  if (!seg) throw new Error('a live file needs a segment');
  const removed: number[] = [];
  for (let f = 0; f < parts.segRemoved.length; f++) if (parts.segRemoved[f]) removed.push(f);
  const remap = new Map<number, number>();
  const files: LiveHeader['files'] = [];
  const records = [...parts.files].filter(([, f]) => f.seg === undefined).sort((a, b) => a[1].first - b[1].first);
  for (const [path, f] of records) {
    const rows: ChunkRow[] = [];
    for (let id = f.first; id < f.first + f.count; id++) {
      const c = parts.chunks.get(id);
      if (!c) continue;
      remap.set(id, remap.size + 1);
      rows.push([c.startLine, c.endLine, parts.lengths[id] ?? 0, c.preview, c.hash]);
    }
    files.push([path, f.mtime, f.size, rows]);
  }
  const terms: LiveHeader['terms'] = [];
  const values: number[] = [];
  const { offsets, data } = parts.base;
  for (let t = 0; t < parts.termNames.length; t++) {
    const before = values.length;
    const add = (p: number): void => {
      const n = remap.get(p >>> TF_BITS);
      if (n !== undefined && (parts.lengths[p >>> TF_BITS] ?? 0) > 0) values.push((n << TF_BITS) | (p & TF_MAX));
    };
    if (t < offsets.length - 1) for (let i = offsets[t] ?? 0; i < (offsets[t + 1] ?? 0); i++) add(data[i] ?? 0);
    for (const p of parts.extra[t] ?? []) add(p);
    if (values.length > before) terms.push([parts.termNames[t] ?? '', values.length - before]);
  }
  const header: LiveHeader = { key: settingsKey, generation: seg.generation, removed, hashes: [...seg.hashEdits], files, terms };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const start = Math.ceil((12 + json.length) / 4) * 4;
  const out = Buffer.alloc(start + 4 * values.length);
  out.writeUInt32LE(LIVE_MAGIC, 0);
  out.writeUInt32LE(LIVE_VERSION, 4);
  out.writeUInt32LE(json.length, 8);
  json.copy(out, 12);
  values.forEach((v, i) => out.writeUInt32LE(v >>> 0, start + 4 * i));
  return out;
}

/**
 * Applies a live file to an index just opened from `seg`; checks it whole first and returns why
 * it was not applied (the index is then left as the segment alone: the walk re-indexes the files
 * changed since), undefined when applied.
 */
export function applyLive(index: LexicalIndex, seg: Segment, bytes: Uint8Array, settingsKey: string): string | undefined {
  let header: LiveHeader;
  let values: Uint32Array;
  try {
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (buf.length < 12 || buf.readUInt32LE(0) !== LIVE_MAGIC || buf.readUInt32LE(4) !== LIVE_VERSION) return 'not a live file of this version';
    const length = buf.readUInt32LE(8);
    if (12 + length > buf.length) return 'truncated';
    header = JSON.parse(buf.toString('utf8', 12, 12 + length)) as LiveHeader;
    const start = Math.ceil((12 + length) / 4) * 4;
    if ((buf.length - start) % 4 !== 0 || start > buf.length) return 'truncated postings';
    values = new Uint32Array((buf.length - start) / 4);
    for (let i = 0; i < values.length; i++) values[i] = buf.readUInt32LE(start + 4 * i);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const why = checkLive(header, values, seg, settingsKey);
  if (why) return why;
  for (const f of header.removed) index.removeFile(seg.path(f));
  for (const [id, hash] of header.hashes) seg.hashEdits.set(id, hash);
  const base = index.idSpace - 1;
  for (const [path, mtime, size, rows] of header.files) index.restoreFile(path, { mtime, size }, rows.map(([startLine, endLine, length, preview, hash]) => ({ path, startLine, endLine, length, preview, hash })));
  let at = 0;
  for (const [term, count] of header.terms) {
    const list = values.subarray(at, at + count).map((p) => (((p >>> TF_BITS) + base) << TF_BITS) | (p & TF_MAX));
    index.restorePostings(term, list);
    at += count;
  }
  return undefined;
}

function checkLive(h: LiveHeader, values: Uint32Array, seg: Segment, settingsKey: string): string | undefined {
  if (typeof h !== 'object' || h === null) return 'no header';
  if (h.key !== settingsKey) return 'other settings';
  if (h.generation !== seg.generation) return 'written for another segment';
  if (!Array.isArray(h.removed) || !Array.isArray(h.hashes) || !Array.isArray(h.files) || !Array.isArray(h.terms)) return 'missing tables';
  const removed = new Set<number>();
  for (const f of h.removed) {
    if (!isCount(f) || f >= seg.fileCount || removed.has(f)) return 'a removed file out of range';
    removed.add(f);
  }
  for (const row of h.hashes) if (!Array.isArray(row) || !isCount(row[0]) || row[0] < 1 || row[0] > seg.chunkCount || typeof row[1] !== 'string') return 'a bad hash row';
  let chunks = 0;
  const paths = new Set<string>();
  for (const file of h.files) {
    if (!Array.isArray(file) || typeof file[0] !== 'string' || paths.has(file[0]) || typeof file[1] !== 'number' || !Number.isFinite(file[1]) || !isCount(file[2], Number.MAX_SAFE_INTEGER) || !Array.isArray(file[3])) return 'a bad file row';
    paths.add(file[0]);
    for (const c of file[3]) {
      if (!Array.isArray(c) || !isCount(c[0]) || !isCount(c[1]) || c[0] > c[1] || !isCount(c[2]) || typeof c[3] !== 'string' || typeof c[4] !== 'string') return 'a bad chunk row';
      chunks++;
    }
  }
  if (seg.chunkCount + chunks >= 2 ** (32 - TF_BITS)) return 'too many chunks';
  let at = 0;
  const terms = new Set<string>();
  for (const row of h.terms) {
    if (!Array.isArray(row) || typeof row[0] !== 'string' || row[0] === '' || terms.has(row[0]) || !isCount(row[1]) || row[1] < 1 || at + row[1] > values.length) return 'a bad term row';
    terms.add(row[0]);
    let previous = 0;
    for (let i = at; i < at + row[1]; i++) {
      const p = values[i] ?? 0;
      const n = p >>> TF_BITS;
      if (n <= previous || n > chunks || (p & TF_MAX) === 0) return 'a bad posting';
      previous = n;
    }
    at += row[1];
  }
  return at === values.length ? undefined : 'postings left over';
}
