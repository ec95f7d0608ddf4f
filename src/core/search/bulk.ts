import { chunkRanges, type ChunkOptions } from './chunker';
import { NodeFileSystem, type LoadedFile } from './files';
import { looksBinary, type SkipReason } from './filter';
import { LexicalIndex, type PartialIndex } from './lexical';

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

export function indexBytes(index: LexicalIndex, path: string, stat: { size: number; mtime: number }, bytes: Uint8Array, chunk: ChunkOptions, decoder: Decoder): IndexOutcome {
  if (looksBinary(bytes)) {
    index.removeFile(path);
    return 'binary';
  }
  const text = decoder.decode(bytes);
  index.setFileText(path, stat, text, chunkRanges(path, text, chunk));
  return 'indexed';
}

/** A share of the bulk build, for a worker thread. */
export interface BuildRequest {
  root: string;
  paths: string[];
  maxBytes: number;
  chunk: ChunkOptions;
}

export interface BuildResult {
  partial: PartialIndex;
  /** The files not indexed, and why ('gone' included). */
  skipped: Array<[string, IndexOutcome]>;
  indexed: number;
}

/** Messages from the build worker. */
export type BuildMessage = { kind: 'progress'; done: number } | { kind: 'done'; result: BuildResult } | { kind: 'failed'; message: string };

/** Indexes `paths` under `root` into a fresh index and returns it as a partial index. */
export function buildPartial(request: BuildRequest, onProgress?: (done: number) => void): BuildResult {
  const fs = new NodeFileSystem(request.root);
  const load = fs.loadSync.bind(fs);
  const index = new LexicalIndex();
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const skipped: Array<[string, IndexOutcome]> = [];
  let indexed = 0;
  let done = 0;
  for (const path of request.paths) {
    const outcome = indexLoaded(index, load, path, request.maxBytes, request.chunk, decoder);
    if (outcome === 'indexed') indexed++;
    else skipped.push([path, outcome]);
    if (++done % 100 === 0) onProgress?.(done);
  }
  return { partial: index.toPartial(), skipped, indexed };
}

/** The transferable buffers of a result (moved, not copied, to the main thread). */
export function transferList(result: BuildResult): ArrayBuffer[] {
  const p = result.partial;
  return [...p.postingTerms.map((a) => a.buffer), ...p.postingValues.map((a) => a.buffer), p.lines.buffer, p.lengths.buffer].filter((b): b is ArrayBuffer => b instanceof ArrayBuffer);
}
