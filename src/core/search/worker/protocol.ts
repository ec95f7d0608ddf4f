import type { IndexStats, PendingEmbedding, SearchHit, SearchNote, SearchSettings } from '../shared/searchTypes';

/**
 * The messages between the extension host and the index worker (the thread that owns the index).
 * Every message is checked on arrival, both ways: a message that does not fit is dropped (and
 * logged), never half-used. Results are small (hits, stats, counts): no index data crosses.
 */

/** An error as it crosses: a message, whether it is a cancellation, and the host's own error when it came from there. */
export interface WireError {
  message: string;
  cancelled: boolean;
  /** The host's error this one stands for (an inference call the host made for the worker). */
  ref?: number;
}

/** A note with its error made wire-safe. */
export type WireNote = Exclude<SearchNote, { error: unknown }> | { kind: 'rerank_failed' | 'embeddings_failed'; error: WireError };

export type FileEventKind = 'changed' | 'deleted';

/** What the worker may ask the host to do for it (the host holds the inference client). */
export type InferenceOp = 'embed' | 'listModels';

export interface WorkerInit {
  /** The workspace folder on the local disk. */
  root: string;
  /** The folder the index is persisted in; none: in memory only. */
  storageDir?: string;
  /** The bulk build's helper thread (dist/searchWorker.js), when the machine has a core to spare. */
  buildWorkerScript?: string;
  /** Whether the host offers inference (embeddings need it). */
  inference: boolean;
}

export type ToWorker =
  | { t: 'init'; init: WorkerInit; settings: SearchSettings }
  | { t: 'settings'; settings: SearchSettings }
  | { t: 'open'; id: number; rebuild: boolean }
  | { t: 'local'; id: number; query: string }
  | { t: 'lexical'; id: number; query: string; limit: number }
  /** `dropped`: set by the parser, how many malformed events it left out (the rest still apply). */
  | { t: 'update'; events: Array<[FileEventKind, string]>; dropped?: number }
  | { t: 'flush'; id: number }
  /** The chunks without a vector of `model`; vectors a batch job computed, stored (see `WorkspaceIndex`). */
  | { t: 'pendingEmbeddings'; id: number; model: string }
  | { t: 'storeEmbeddings'; id: number; model: string; vectors: Array<{ hash: string; vector: Float32Array }> }
  | { t: 'persisted'; id: number }
  | { t: 'close'; id: number }
  | { t: 'cancel'; id: number }
  | { t: 'answer'; id: number; ok: true; value: unknown }
  | { t: 'answer'; id: number; ok: false; error: WireError };

export type FromWorker =
  | { t: 'done'; id: number; value: unknown }
  | { t: 'failed'; id: number; error: WireError }
  | { t: 'progress'; id: number; done: number; total: number }
  | { t: 'status'; ready: boolean; files: number; chunks: number }
  | { t: 'updated'; paths: string[] }
  | { t: 'call'; id: number; op: InferenceOp; request: unknown }
  | { t: 'log'; level: 'info' | 'warn' | 'error'; message: string };

/** Paths listed in one `updated` message at most (a branch switch touches thousands). */
export const UPDATED_PATHS_MAX = 200;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isStr = (v: unknown, max = 1 << 20): v is string => typeof v === 'string' && v.length <= max;
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';

export function isWireError(v: unknown): v is WireError {
  return isObj(v) && isStr(v.message) && isBool(v.cancelled) && (v.ref === undefined || isId(v.ref));
}

function isStrings(v: unknown, max: number): v is string[] {
  return Array.isArray(v) && v.length <= max && v.every((s) => isStr(s, 4096));
}

export function isSearchSettings(v: unknown): v is SearchSettings {
  if (!isObj(v) || !isObj(v.rerank) || !isObj(v.chunk)) return false;
  const r = v.rerank;
  return (
    isCount(v.maxFileSizeBytes) && isStrings(v.excludeGlobs, 10_000) && isStrings(v.demoteGlobs, 10_000) && isBool(v.useGitignore) && isCount(v.candidates) && isCount(v.results) && isStr(v.embeddingModel, 500) && isCount(v.debounceMs) &&
    isBool(r.enabled) && isStr(r.model, 500) && (r.version === 'v1' || r.version === 'v2') && isCount(r.timeoutMs) && isCount(r.batchSize) && isCount(r.concurrency) &&
    Object.values(v.chunk).every((n) => n === undefined || isCount(n))
  );
}

function isInit(v: unknown): v is WorkerInit {
  return isObj(v) && isStr(v.root, 4096) && v.root !== '' && (v.storageDir === undefined || isStr(v.storageDir, 4096)) && (v.buildWorkerScript === undefined || isStr(v.buildWorkerScript, 4096)) && isBool(v.inference);
}

function isEvent(v: unknown): v is [FileEventKind, string] {
  return Array.isArray(v) && v.length === 2 && (v[0] === 'changed' || v[0] === 'deleted') && isStr(v[1], 4096);
}

/**
 * An update keeps its good events and drops each malformed one (a path over 4,096 characters):
 * one bad path must not leave every other edit of the same debounce window stale.
 */
function parseUpdate(events: unknown): ToWorker | undefined {
  if (!Array.isArray(events) || events.length > 1_000_000) return undefined;
  const good = events.filter(isEvent);
  const dropped = events.length - good.length;
  return dropped === 0 ? { t: 'update', events: good } : { t: 'update', events: good, dropped };
}

/** The message if it is a well-formed host message, else undefined. */
export function parseToWorker(m: unknown): ToWorker | undefined {
  if (!isObj(m)) return undefined;
  switch (m.t) {
    case 'init':
      return isInit(m.init) && isSearchSettings(m.settings) ? (m as ToWorker) : undefined;
    case 'settings':
      return isSearchSettings(m.settings) ? (m as ToWorker) : undefined;
    case 'open':
      return isId(m.id) && isBool(m.rebuild) ? (m as ToWorker) : undefined;
    case 'local':
      return isId(m.id) && isStr(m.query, 100_000) ? (m as ToWorker) : undefined;
    case 'lexical':
      return isId(m.id) && isStr(m.query, 100_000) && isCount(m.limit) && m.limit <= 10_000 ? (m as ToWorker) : undefined;
    case 'update':
      return parseUpdate(m.events);
    case 'pendingEmbeddings':
      return isId(m.id) && isStr(m.model, 500) ? (m as ToWorker) : undefined;
    case 'storeEmbeddings':
      return isId(m.id) && isStr(m.model, 500) && Array.isArray(m.vectors) && m.vectors.length <= 10_000_000 && m.vectors.every(isHashVector) ? (m as ToWorker) : undefined;
    case 'flush':
    case 'persisted':
    case 'close':
    case 'cancel':
      return isId(m.id) ? (m as ToWorker) : undefined;
    case 'answer':
      if (!isId(m.id)) return undefined;
      if (m.ok === true) return m as ToWorker;
      return m.ok === false && isWireError(m.error) ? (m as ToWorker) : undefined;
    default:
      return undefined;
  }
}

/** The message if it is a well-formed worker message, else undefined. */
export function parseFromWorker(m: unknown): FromWorker | undefined {
  if (!isObj(m)) return undefined;
  switch (m.t) {
    case 'done':
      return isId(m.id) ? (m as FromWorker) : undefined;
    case 'failed':
      return isId(m.id) && isWireError(m.error) ? (m as FromWorker) : undefined;
    case 'progress':
      return isId(m.id) && isCount(m.done) && isCount(m.total) ? (m as FromWorker) : undefined;
    case 'status':
      return isBool(m.ready) && isCount(m.files) && isCount(m.chunks) ? (m as FromWorker) : undefined;
    case 'updated':
      return isStrings(m.paths, UPDATED_PATHS_MAX) ? (m as FromWorker) : undefined;
    case 'call':
      return isId(m.id) && (m.op === 'embed' || m.op === 'listModels') ? (m as FromWorker) : undefined;
    case 'log':
      return (m.level === 'info' || m.level === 'warn' || m.level === 'error') && isStr(m.message, 100_000) ? (m as FromWorker) : undefined;
    default:
      return undefined;
  }
}

// ---- results (the `value` of a `done`, checked against what was asked) -------------------------

export function isSearchHit(v: unknown): v is SearchHit {
  return isObj(v) && isCount(v.id) && isStr(v.path, 4096) && isCount(v.startLine) && isCount(v.endLine) && isStr(v.preview, 4096) && isCount(v.localRank) && (v.rerankScore === undefined || isNum(v.rerankScore));
}

export function isSearchHits(v: unknown): v is SearchHit[] {
  return Array.isArray(v) && v.length <= 10_000 && v.every(isSearchHit);
}

const NOTE_KINDS = new Set(['rerank_disabled', 'no_rerank_model', 'rerank_timeout', 'query_too_long', 'index_not_ready']);

export function isWireNote(v: unknown): v is WireNote {
  if (!isObj(v)) return false;
  if (v.kind === 'rerank_failed' || v.kind === 'embeddings_failed') return isWireError(v.error);
  if (v.kind === 'rerank_timeout') return isCount(v.timeoutMs);
  return typeof v.kind === 'string' && NOTE_KINDS.has(v.kind);
}

export function isLocalResult(v: unknown): v is { hits: SearchHit[]; notes: WireNote[] } {
  return isObj(v) && isSearchHits(v.hits) && Array.isArray(v.notes) && v.notes.length <= 10 && v.notes.every(isWireNote);
}

const isHash = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{40}$/.test(v);

function isHashVector(v: unknown): v is { hash: string; vector: Float32Array } {
  return isObj(v) && isHash(v.hash) && v.vector instanceof Float32Array && v.vector.length <= 100_000;
}

export function isPendingEmbeddings(v: unknown): v is PendingEmbedding[] {
  return Array.isArray(v) && v.every((p) => isObj(p) && isHash(p.hash) && isStr(p.path, 4096) && isStr(p.text));
}

export function isStoredCounts(v: unknown): v is { stored: number; stale: number } {
  return isObj(v) && isCount(v.stored) && isCount(v.stale);
}

const SKIP_REASONS = ['excluded', 'gitignored', 'binary', 'too_large', 'unreadable'] as const;

export function isIndexStats(v: unknown): v is IndexStats {
  if (!isObj(v) || !isObj(v.skipped) || !Array.isArray(v.skippedSample)) return false;
  const skipped = v.skipped;
  return (
    (v.source === 'built' || v.source === 'loaded') && isCount(v.files) && isCount(v.chunks) && isCount(v.indexed) && isCount(v.removed) && isNum(v.ms) &&
    SKIP_REASONS.every((k) => isCount(skipped[k])) && v.skippedSample.length <= 1000 &&
    v.skippedSample.every((s) => isObj(s) && isStr(s.path, 4096) && SKIP_REASONS.includes(s.reason as (typeof SKIP_REASONS)[number])) &&
    (v.rejected === undefined || (isObj(v.rejected) && typeof v.rejected.reason === 'string'))
  );
}
