import type { FileStat } from './files';
import type { PostingTable } from './postings';

/** Postings are `chunk id << TF_BITS | tf` in one uint32; term frequency is kept up to TF_MAX (BM25 saturates well before). */
export const TF_BITS = 4;
export const TF_MAX = (1 << TF_BITS) - 1;

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


/** What the index keeps per file: its size and time when indexed, and its chunks' ids (consecutive: first .. first + count - 1). */
export interface FileRecord extends FileStat {
  first: number;
  count: number;
  /** Its index in the segment when the segment holds it (not changed since). */
  seg?: number;
}

/** An index built elsewhere (a worker thread), as transferable arrays: see `LexicalIndex.toPartial`. */
export interface PartialIndex {
  terms: string[];
  /** The postings in chunk order, in blocks: term id (into `terms`) and packed value (local ids from 1). */
  postingTerms: Int32Array[];
  postingValues: Uint32Array[];
  /** Per file: path, mtime, size, number of chunks (chunks are numbered in file order). */
  files: Array<[string, number, number, number]>;
  /** Per chunk: start and end line. */
  lines: Int32Array;
  lengths: Int32Array;
  previews: PreviewBytes;
}

/**
 * A partial index with its postings laid out (what a build worker sends, `layOutPartial`): term
 * t's list is `postings.data[postings.offsets[t], postings.offsets[t + 1])`, local ids ascending.
 */
export interface LaidOutPartial extends Omit<PartialIndex, 'postingTerms' | 'postingValues'> {
  postings: PostingTable;
}

/** Chunk previews as one UTF-8 block: chunk i's is `bytes[ends[i - 1] (0 for the first), ends[i])`. */
export interface PreviewBytes {
  bytes: Uint8Array;
  ends: Uint32Array;
}

/** Where chunk `i`'s preview starts in its block (the end of the one before it). */
export function previewStart(ends: Uint32Array, i: number): number {
  return i === 0 ? 0 : (ends[i - 1] ?? 0);
}

/** Why a persisted index was not used. */
export type LoadFailure = { reason: 'corrupt'; detail: string } | { reason: 'old_version'; found: unknown } | { reason: 'settings_changed' };
