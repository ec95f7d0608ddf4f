import type { Logger } from '../../log';
import type { ModelInfo } from '../../inference/models/types';
import type { EmbeddingRequest, EmbeddingResult } from '../../inference/embeddings/types';
import type { RerankRequest, RerankResult } from '../../inference/rerank/types';
import type { CallOptions } from '../../inference/shared/call';
import type { Worker } from 'node:worker_threads';
import type { ChunkOptions } from '../text/chunker';
import type { IndexStorage, SearchFileSystem } from './files';
import type { SkipReason } from '../../workspace/ignoreRules';
import type { LoadFailure } from './indexTypes';

export interface SearchSettings {
  /** Files larger than this are skipped. */
  maxFileSizeBytes: number;
  /** `files.exclude` + `search.exclude` globs (enabled ones). */
  excludeGlobs: readonly string[];
  /** Honour `.gitignore` files. */
  useGitignore: boolean;
  /** The user's globs of files ranked lower, like fixtures (`stratus.search.demoteGlobs`); indexed all the same. */
  demoteGlobs: readonly string[];
  chunk: ChunkOptions;
  /** Lexical candidates sent to rerank (K); with embeddings, K embedding candidates join them (their union, up to 2K). */
  candidates: number;
  /** Results shown. */
  results: number;
  rerank: {
    enabled: boolean;
    /** '' = the first rerank model the service lists. */
    model: string;
    version: 'v1' | 'v2';
    timeoutMs: number;
    batchSize: number;
    concurrency: number;
  };
  /** Embedding model id; '' = no embeddings. */
  embeddingModel: string;
  /** Quiet time after a file event before the index is updated. */
  debounceMs: number;
}

export const DEFAULT_SEARCH_SETTINGS: SearchSettings = {
  maxFileSizeBytes: 1024 * 1024,
  excludeGlobs: ['**/.git', '**/node_modules', '**/.DS_Store'],
  useGitignore: true,
  demoteGlobs: [],
  chunk: {},
  candidates: 50,
  results: 20,
  rerank: { enabled: true, model: '', version: 'v1', timeoutMs: 10_000, batchSize: 25, concurrency: 2 },
  embeddingModel: '',
  debounceMs: 300,
};

export type EmbedFn = (request: EmbeddingRequest, options?: CallOptions) => Promise<EmbeddingResult>;

export type RerankFn = (request: RerankRequest, options?: CallOptions) => Promise<RerankResult>;

/** The part of the inference client search uses (the real client fits it). */
export interface SearchInference {
  rerank: RerankFn;
  embed: EmbedFn;
  listModels(signal?: AbortSignal): Promise<ModelInfo[]>;
}

export interface IndexProgress {
  done: number;
  total: number;
}

export interface IndexStats {
  /** 'built' from scratch, or 'loaded' from storage and brought up to date. */
  source: 'built' | 'loaded';
  /** Why a stored index was not used (a rebuild followed). */
  rejected?: LoadFailure;
  files: number;
  chunks: number;
  /** Files (re)indexed in this pass. */
  indexed: number;
  /** Files dropped from a loaded index because they are gone. */
  removed: number;
  skipped: Record<SkipReason, number>;
  /** A sample of skipped paths with the reason (the log lists them). */
  skippedSample: Array<{ path: string; reason: SkipReason }>;
  ms: number;
}

export interface SearchHit {
  /** Chunk id in the index. */
  id: number;
  path: string;
  startLine: number;
  endLine: number;
  preview: string;
  /** Position in the local (lexical or hybrid) order, 1-based. */
  localRank: number;
  /** The rerank model's score, when this hit was reranked. */
  rerankScore?: number;
}

export type SearchNote =
  | { kind: 'rerank_disabled' }
  | { kind: 'no_rerank_model' }
  | { kind: 'rerank_failed'; error: unknown }
  | { kind: 'rerank_timeout'; timeoutMs: number }
  | { kind: 'query_too_long' }
  | { kind: 'embeddings_failed'; error: unknown }
  | { kind: 'index_not_ready' };

export interface SearchResult {
  query: string;
  /** Best first. */
  hits: SearchHit[];
  /** Whether the order came from the rerank model. */
  reranked: boolean;
  /** Why the order is local, or what else degraded. */
  notes: SearchNote[];
  /** How many candidates the local stage produced. */
  candidates: number;
  /** Billed search units of this search's rerank requests. */
  searchUnits: number;
}

export interface SearchEngineOptions {
  fs: SearchFileSystem;
  storage?: IndexStorage;
  logger: Logger;
  settings: () => SearchSettings;
  inference?: () => SearchInference | undefined;
  /** Schedules a callback (debounce, rerank deadline); injectable for tests. Returns a cancel. */
  setTimer?: (ms: number, fire: () => void) => () => void;
  now?: () => number;
  /** Files read in parallel while indexing. Default 8. */
  readConcurrency?: number;
  /**
   * Starts a worker thread running `buildWorker` (its own bundle entry). When given, a build from
   * nothing of a local folder (NodeFileSystem) of at least `WORKER_MIN_FILES` files indexes every
   * other file in the worker, in parallel with the main thread, and merges its result; if the
   * worker fails, the main thread indexes its share too. Without it, one thread.
   */
  buildWorker?: () => Worker;
}

/** A chunk text without a vector of the embedding model yet, keyed by the content hash of that text. */
export interface PendingEmbedding {
  hash: string;
  path: string;
  text: string;
}

export interface OpenOptions {
  signal?: AbortSignal;
  onProgress?: (p: IndexProgress) => void;
}

/**
 * The index of one workspace as the extension uses it: in this thread (`SearchEngine`, for remote
 * and virtual folders and tests) or owned by the index worker (`IndexClient`).
 */
export interface WorkspaceIndex {
  readonly isReady: boolean;
  readonly stats: { files: number; chunks: number };
  settingsKey(): string;
  /** Loads the stored index and brings it up to date, or builds one. */
  open(options?: OpenOptions): Promise<IndexStats>;
  /** Drops everything (memory and storage) and builds from scratch. */
  rebuild(options?: OpenOptions): Promise<IndexStats>;
  /** The lexical order (what the picker shows while you type). */
  query(query: string, limit?: number): Promise<SearchHit[]>;
  search(query: string, options?: { signal?: AbortSignal; onLocal?: (hits: SearchHit[]) => void }): Promise<SearchResult>;
  notifyChanged(path: string): void;
  notifyDeleted(path: string): void;
  notifyRenamed(from: string, to: string): void;
  /** Applies the queued file events now. */
  flush(): Promise<void>;
  /** Resolves once the writes of the index started so far are done. */
  persisted(): Promise<void>;
  /** The chunks without a vector of `model`, to embed as a batch job. */
  pendingEmbeddings(model: string): Promise<PendingEmbedding[]>;
  /** Stores vectors computed by a batch job; a vector whose text no chunk holds now is dropped (`stale`). */
  storeEmbeddings(model: string, vectors: ReadonlyArray<{ hash: string; vector: Float32Array }>): Promise<{ stored: number; stale: number }>;
  onDidUpdate: ((paths: string[]) => void) | undefined;
  dispose(): void;
}
