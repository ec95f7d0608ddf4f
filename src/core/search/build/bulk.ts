import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { chunkRanges, type ChunkOptions } from '../text/chunker';
import { decodeFileText, utf16ByteOrder, type Decoder } from '../text/fileText';
import { NodeFileSystem, type LoadedFile } from '../shared/files';
import type { SkipReason } from '../../workspace/ignoreRules';
import { FileClaims } from './fileClaims';
import { LexicalIndex } from '../lexical/lexical';
import { batchesInListOrder, layOutPartial, packedTransferList, packPartial, type PackedPartial } from './packedPartial';


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
  // UTF-16 text has NUL bytes (its ASCII characters' high bytes): its byte-order mark says text.
  if (!utf16ByteOrder(bytes) && nulInProbe(bytes)) {
    index.removeFile(path);
    return 'binary';
  }
  const text = decodeFileText(bytes, decoder);
  index.setFileText(path, stat, text, chunkRanges(path, text, chunk));
  return 'indexed';
}

/** The build worker's part of a bulk build (see FileClaims). */
export interface BuildRequest {
  root: string;
  /** Where the walk sends the files, from the end of the list: each message a batch joined by NUL (no path holds one), in descending list order. */
  paths: MessagePort;
  maxBytes: number;
  chunk: ChunkOptions;
  /** The shared counters of FileClaims. */
  claims: SharedArrayBuffer;
  /** Files taken at a time. */
  batch: number;
  /** 1/N of the list is left to the index worker at the end: it indexes those files while this result is packed and sent. */
  leaveDivisor: number;
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

/** How long the build worker waits for files before it looks again (it is woken when some come). */
const WAIT_MS = 50;

/**
 * Indexes batches of files from the end of the list (see FileClaims) into a fresh index, from
 * the first files the walk sends until the two ends meet; returns the index packed, in list order.
 */
export function buildShare(request: BuildRequest, onProgress?: (done: number) => void): BuildResult {
  const claims = new FileClaims(request.claims);
  /** The files sent so far, the end of the list first. */
  const sent: string[] = [];
  const receive = (): void => {
    for (let m = receiveMessageOnPort(request.paths); m; m = receiveMessageOnPort(request.paths)) {
      if (typeof m.message === 'string' && m.message !== '') for (const path of m.message.split('\0')) sent.push(path);
    }
  };
  const fs = new NodeFileSystem(request.root);
  const load = fs.loadSync.bind(fs);
  const index = new LexicalIndex();
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const skipped: Array<[string, IndexOutcome]> = [];
  const batches: number[] = [];
  let indexed = 0;
  let taken = 0;
  for (;;) {
    const published = claims.published;
    const ended = claims.total >= 0;
    receive();
    const k = claims.take(request.batch, ended ? Math.floor(claims.total / request.leaveDivisor) : 0, sent.length);
    if (k === 0) {
      if (ended) break;
      claims.waitForMore(published, WAIT_MS);
      continue;
    }
    // sent[taken, taken + k) is a run of the list in descending order: indexed in list order.
    const before = index.fileCount;
    for (let i = taken + k - 1; i >= taken; i--) {
      const path = sent[i] ?? '';
      const outcome = indexLoaded(index, load, path, request.maxBytes, request.chunk, decoder);
      if (outcome === 'indexed') indexed++;
      else skipped.push([path, outcome]);
    }
    const done = taken + k;
    if (Math.floor(done / 100) > Math.floor(taken / 100)) onProgress?.(done);
    taken = done;
    batches.push(index.fileCount - before);
  }
  request.paths.close();
  // Laid out here, on this core: the index worker then copies each list whole into place.
  return { partial: packPartial(layOutPartial(batchesInListOrder(index.toPartial(), batches))), skipped, indexed, from: claims.total - taken };
}

/** The transferable buffers of a result (moved, not copied, to the index worker). */
export function transferList(result: BuildResult): ArrayBuffer[] {
  return packedTransferList(result.partial);
}
