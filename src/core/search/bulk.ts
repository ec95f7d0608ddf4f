import { chunkRanges, type ChunkOptions } from './chunker';
import { NodeFileSystem, type LoadedFile } from './files';
import type { SkipReason } from './filter';
import { LexicalIndex } from './lexical';
import { batchesInListOrder, packedTransferList, packPartial, type PackedPartial } from './packedPartial';

/** A text decoder (TextDecoder fits). */
interface Decoder {
  decode(bytes: Uint8Array): string;
}

/** What indexing one file came to. */
export type IndexOutcome = 'indexed' | 'unchanged' | 'gone' | SkipReason;

/**
 * Indexes one file through a synchronous load (the bulk build's path, on the main thread or in
 * the build worker): reads it unless its size and time are those the index knows.
 */
export function indexLoaded(index: LexicalIndex, load: (path: string, maxBytes: number, unless?: { size: number; mtime: number }) => LoadedFile | undefined, path: string, maxBytes: number, chunk: ChunkOptions, decoder: Decoder): IndexOutcome {
  const known = index.fileStat(path);
  let loaded;
  try {
    loaded = load(path, maxBytes, known);
  } catch {
    index.removeFile(path);
    return 'unreadable';
  }
  if (!loaded) {
    index.removeFile(path);
    return 'gone';
  }
  const { stat, bytes } = loaded;
  if (stat.size > maxBytes) {
    index.removeFile(path);
    return 'too_large';
  }
  if (!bytes) return 'unchanged';
  return indexBytes(index, path, stat, bytes, chunk, decoder);
}

/** How far `looksBinary` (src/core/workspace/confinedReader.ts) looks for a NUL byte. */
const BINARY_PROBE = 8192;

/**
 * `looksBinary` by Buffer's native search for the byte: the same answer, several times faster
 * than a loop over the bytes (that loop was ~2% of a bulk build).
 */
export function nulInProbe(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, BINARY_PROBE)).indexOf(0) >= 0;
}

export function indexBytes(index: LexicalIndex, path: string, stat: { size: number; mtime: number }, bytes: Uint8Array, chunk: ChunkOptions, decoder: Decoder): IndexOutcome {
  if (nulInProbe(bytes)) {
    index.removeFile(path);
    return 'binary';
  }
  const text = decoder.decode(bytes);
  index.setFileText(path, stat, text, chunkRanges(path, text, chunk));
  return 'indexed';
}

/**
 * One list of files indexed by two threads from its two ends, in batches, through one shared
 * counter of the files taken: the index worker takes from the front, the build worker from the
 * back, until they meet. Neither idles while files are left, whatever the files' sizes, and each
 * end stays in list order (the index ends up numbered as one thread reading the list would).
 */
export class FileClaims {
  private readonly taken: Int32Array;

  constructor(
    readonly buffer: SharedArrayBuffer,
    readonly total: number,
  ) {
    this.taken = new Int32Array(buffer, 0, 1);
  }

  static create(total: number): FileClaims {
    return new FileClaims(new SharedArrayBuffer(4), total);
  }

  /** Takes up to `n` files, leaving at least `leave` to the other thread; how many were taken (0: none). */
  take(n: number, leave = 0): number {
    for (;;) {
      const taken = Atomics.load(this.taken, 0);
      const k = Math.min(n, this.total - leave - taken);
      if (k <= 0) return 0;
      if (Atomics.compareExchange(this.taken, 0, taken, taken + k) === taken) return k;
    }
  }
}

/** The build worker's part of a bulk build. */
export interface BuildRequest {
  root: string;
  /** Every file of the build, in list order, joined by NUL (no path holds one). */
  paths: string;
  maxBytes: number;
  chunk: ChunkOptions;
  /** The shared counter of files taken (see FileClaims). */
  claims: SharedArrayBuffer;
  /** Files taken at a time. */
  batch: number;
  /** Files left to the index worker at the end: it indexes them while this result is packed and sent. */
  leave: number;
}

export interface BuildResult {
  partial: PackedPartial;
  /** The files not indexed, and why ('gone' included). */
  skipped: Array<[string, IndexOutcome]>;
  indexed: number;
  /** The worker indexed the files from this position of the list to its end. */
  from: number;
}

/** Messages from the build worker. */
export type BuildMessage = { kind: 'progress'; done: number } | { kind: 'done'; result: BuildResult } | { kind: 'failed'; message: string };

/** Indexes batches of files from the end of the request's list (see FileClaims) into a fresh index; returns it packed, in list order. */
export function buildShare(request: BuildRequest, onProgress?: (done: number) => void): BuildResult {
  const paths = request.paths === '' ? [] : request.paths.split('\0');
  const claims = new FileClaims(request.claims, paths.length);
  const fs = new NodeFileSystem(request.root);
  const load = fs.loadSync.bind(fs);
  const index = new LexicalIndex();
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const skipped: Array<[string, IndexOutcome]> = [];
  const batches: number[] = [];
  let indexed = 0;
  let done = 0;
  let from = paths.length;
  for (let k = claims.take(request.batch, request.leave); k > 0; k = claims.take(request.batch, request.leave)) {
    const before = index.fileCount;
    for (let i = from - k; i < from; i++) {
      const path = paths[i] ?? '';
      const outcome = indexLoaded(index, load, path, request.maxBytes, request.chunk, decoder);
      if (outcome === 'indexed') indexed++;
      else skipped.push([path, outcome]);
      if (++done % 100 === 0) onProgress?.(done);
    }
    from -= k;
    batches.push(index.fileCount - before);
  }
  return { partial: packPartial(batchesInListOrder(index.toPartial(), batches)), skipped, indexed, from };
}

/** The transferable buffers of a result (moved, not copied, to the index worker). */
export function transferList(result: BuildResult): ArrayBuffer[] {
  return packedTransferList(result.partial);
}
