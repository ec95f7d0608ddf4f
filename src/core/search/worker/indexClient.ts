import type { Worker } from 'node:worker_threads';
import { CancelledError } from '../../errors';
import type { Logger } from '../../log';
import type { SearchFileSystem } from '../shared/files';
import { searchSettingsKey } from '../store/indexFormat';
import { isIndexStats, isLocalResult, isPendingEmbeddings, isSearchHits, isStoredCounts, parseFromWorker, type FileEventKind, type FromWorker, type ToWorker, type WireError, type WireNote, type WorkerInit } from './protocol';
import { readDocuments, rerankStage } from '../query/rerankStage';
import type { IndexStats, OpenOptions, PendingEmbedding, SearchHit, SearchInference, SearchNote, SearchResult, SearchSettings, WorkspaceIndex } from '../shared/searchTypes';

export interface IndexClientOptions {
  /** Starts the index worker (dist/searchIndexWorker.js; its source is indexWorker.ts). */
  makeWorker: () => Worker;
  init: Omit<WorkerInit, 'inference'>;
  /** The folder as the host reads it: rerank reads its candidates' text here. */
  fs: SearchFileSystem;
  settings: () => SearchSettings;
  logger: Logger;
  inference?: () => SearchInference | undefined;
  setTimer?: (ms: number, fire: () => void) => () => void;
  /** Restarts after crashes before giving up (the index then answers with an error). Default 3. */
  maxRestarts?: number;
  /** Called once, on the first crash of the worker (the service tells the user once). */
  onCrash?: (message: string) => void;
}

/** The index worker stopped and could not be restarted (or was disposed). */
export class IndexWorkerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IndexWorkerError';
  }
}

interface Pending {
  message: ToWorker & { id: number };
  /** Checks and converts the answer; throws when it does not fit. */
  accept: (value: unknown) => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  onProgress?: (p: { done: number; total: number }) => void;
}

const defaultTimer = (ms: number, fire: () => void): (() => void) => {
  const t = setTimeout(fire, ms);
  return () => clearTimeout(t);
};

/** An answer without a value (flush, persisted, close): anything fits. */
const anything = (_value: unknown): _value is unknown => true;

/** How long a closing worker may take to write the index before it is stopped. */
const CLOSE_TIMEOUT_MS = 10_000;

/** Errors of inference calls made for the worker, kept so a note shows the host's own error. */
const KEPT_ERRORS = 32;

/**
 * The extension host's side of the index worker: a `WorkspaceIndex` whose index lives in the
 * worker. Requests are posted and answered by id; answers are checked before use. A crash of the
 * worker is survived: a new worker is started, the index is loaded again from disk (only files
 * whose size or time changed are read again), and the requests in flight are sent again (all are
 * reads, answered by the reloaded index, never by a half-built one).
 */
export class IndexClient implements WorkspaceIndex {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private events: Array<[FileEventKind, string]> = [];
  private eventsTimer: (() => void) | undefined;
  private lastSettings = '';
  private restarts = 0;
  private crashReported = false;
  private disposed = false;
  private opened = false;
  /** After a restart: the reload every other request waits for. */
  private reopening: Promise<unknown> | undefined;
  private readonly errors = new Map<number, unknown>();
  private nextErrorRef = 1;
  private status = { ready: false, files: 0, chunks: 0 };
  private readonly setTimer: (ms: number, fire: () => void) => () => void;
  onDidUpdate: ((paths: string[]) => void) | undefined;

  constructor(private readonly options: IndexClientOptions) {
    this.setTimer = options.setTimer ?? defaultTimer;
    this.start();
  }

  get isReady(): boolean {
    return this.status.ready;
  }

  get stats(): { files: number; chunks: number } {
    return { files: this.status.files, chunks: this.status.chunks };
  }

  settingsKey(): string {
    return searchSettingsKey(this.options.settings());
  }

  private start(): void {
    const worker = this.options.makeWorker();
    this.worker = worker;
    worker.on('message', (raw: unknown) => this.receive(raw));
    worker.on('error', (error: Error) => this.crashed(worker, error.message));
    worker.on('exit', (code: number) => this.crashed(worker, `exited with code ${code}`));
    const settings = this.options.settings();
    this.lastSettings = JSON.stringify(settings);
    this.post({ t: 'init', init: { ...this.options.init, inference: this.options.inference !== undefined }, settings });
  }

  private post(message: ToWorker): void {
    this.worker?.postMessage(message);
  }

  private crashed(worker: Worker, why: string): void {
    if (worker !== this.worker || this.disposed) return;
    this.worker = undefined;
    void worker.terminate().catch(() => undefined);
    this.status = { ready: false, files: this.status.files, chunks: this.status.chunks };
    const message = `The search index worker stopped (${why}).`;
    if (!this.crashReported) {
      this.crashReported = true;
      this.options.onCrash?.(message);
    }
    const budget = this.options.maxRestarts ?? 3;
    if (this.restarts >= budget) {
      this.options.logger.error(`${message} Restarted ${this.restarts} times already: search is off until the window reloads.`);
      this.failAll(new IndexWorkerError(`${message} Reload the window to search again.`));
      return;
    }
    this.restarts++;
    this.options.logger.warn(`${message} Restarting it; the index is loaded again from disk.`);
    const inFlight = [...this.pending.values()];
    this.pending.clear();
    this.start();
    // Reload first (from disk: only changed files are read again), then resend what was asked.
    const reopen = this.opened || inFlight.some((p) => p.message.t === 'open') ? this.send({ t: 'open', id: 0, rebuild: false }, isIndexStats) : Promise.resolve();
    this.reopening = reopen.catch(() => undefined);
    for (const p of inFlight) {
      if (p.message.t === 'open' && !p.message.rebuild) {
        reopen.then(p.resolve, p.reject);
        continue;
      }
      void this.reopening.then(() => {
        if (!this.worker) return p.reject(new IndexWorkerError('The search index worker stopped. Reload the window to search again.'));
        const id = this.nextId++;
        p.message = { ...p.message, id } as Pending['message'];
        this.pending.set(id, p);
        this.post(p.message);
      });
    }
  }

  private failAll(error: Error): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) p.reject(error);
  }

  private receive(raw: unknown): void {
    const m = parseFromWorker(raw);
    if (!m) {
      this.options.logger.warn('Search index: a malformed message from the index worker was dropped.');
      return;
    }
    this.handle(m);
  }

  private handle(m: FromWorker): void {
    switch (m.t) {
      case 'done': {
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        let value: unknown;
        try {
          value = p.accept(m.value);
        } catch (error) {
          p.reject(error);
          return;
        }
        p.resolve(value);
        return;
      }
      case 'failed': {
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        p.reject(this.fromWire(m.error));
        return;
      }
      case 'progress':
        this.pending.get(m.id)?.onProgress?.({ done: m.done, total: m.total });
        return;
      case 'status':
        this.status = { ready: m.ready, files: m.files, chunks: m.chunks };
        return;
      case 'updated':
        this.onDidUpdate?.(m.paths);
        return;
      case 'log':
        this.options.logger[m.level](m.message);
        return;
      case 'call':
        void this.serveCall(m.id, m.op, m.request);
        return;
    }
  }

  /** An inference call the worker asks for (embeddings need the host's client and credentials). */
  private async serveCall(id: number, op: 'embed' | 'listModels', request: unknown): Promise<void> {
    const inference = this.options.inference?.();
    try {
      if (!inference) throw new Error('No inference client.');
      const value = op === 'embed' ? await inference.embed(request as Parameters<SearchInference['embed']>[0]) : await inference.listModels();
      this.post({ t: 'answer', id, ok: true, value });
    } catch (error) {
      const ref = this.nextErrorRef++;
      this.errors.set(ref, error);
      if (this.errors.size > KEPT_ERRORS) this.errors.delete(ref - KEPT_ERRORS);
      this.post({ t: 'answer', id, ok: false, error: { message: error instanceof Error ? error.message : String(error), cancelled: error instanceof CancelledError, ref } });
    }
  }

  private fromWire(error: WireError): unknown {
    if (error.cancelled) return new CancelledError();
    if (error.ref !== undefined && this.errors.has(error.ref)) return this.errors.get(error.ref);
    return new Error(error.message);
  }

  private fromWireNote(note: WireNote): SearchNote {
    return note.kind === 'rerank_failed' || note.kind === 'embeddings_failed' ? { kind: note.kind, error: this.fromWire(note.error) } : note;
  }

  /** Sends the settings when they changed since last sent (they travel before the request that reads them). */
  private syncSettings(): void {
    const settings = this.options.settings();
    const json = JSON.stringify(settings);
    if (json === this.lastSettings) return;
    this.lastSettings = json;
    this.post({ t: 'settings', settings });
  }

  private send<T>(message: ToWorker & { id: number }, check: (v: unknown) => v is T, extra: { signal?: AbortSignal; onProgress?: (p: { done: number; total: number }) => void } = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.disposed) return reject(new IndexWorkerError('The search index is closed.'));
      if (!this.worker) return reject(new IndexWorkerError('The search index worker stopped. Reload the window to search again.'));
      const { signal, onProgress } = extra;
      if (signal?.aborted) return reject(new CancelledError());
      this.syncSettings();
      this.flushEvents();
      const id = this.nextId++;
      const accept = (v: unknown): T => {
        if (!check(v)) throw new IndexWorkerError('The search index worker sent an answer of the wrong shape.');
        return v;
      };
      const entry: Pending = { message: { ...message, id }, accept, resolve: resolve as (v: unknown) => void, reject, ...(onProgress ? { onProgress } : {}) };
      this.pending.set(id, entry);
      signal?.addEventListener('abort', () => {
        for (const [pid, p] of this.pending) {
          if (p !== entry) continue;
          this.pending.delete(pid);
          this.post({ t: 'cancel', id: pid });
          reject(new CancelledError());
        }
      });
      this.post(entry.message);
    });
  }

  /** Requests wait for a reload after a crash (answers come from the whole index, not a part). */
  private async request<T>(message: ToWorker & { id: number }, check: (v: unknown) => v is T, extra: { signal?: AbortSignal; onProgress?: (p: { done: number; total: number }) => void } = {}): Promise<T> {
    if (this.reopening) await this.reopening;
    return this.send(message, check, extra);
  }

  async open(options: OpenOptions = {}): Promise<IndexStats> {
    const stats = await this.request({ t: 'open', id: 0, rebuild: false }, isIndexStats, options);
    this.opened = true;
    return stats;
  }

  async rebuild(options: OpenOptions = {}): Promise<IndexStats> {
    const stats = await this.request({ t: 'open', id: 0, rebuild: true }, isIndexStats, options);
    this.opened = true;
    return stats;
  }

  query(query: string, limit = this.options.settings().candidates): Promise<SearchHit[]> {
    return this.request({ t: 'lexical', id: 0, query, limit }, isSearchHits);
  }

  /** The local stage in the worker, then rerank here (the host holds the client; candidates are few). */
  async search(query: string, options: { signal?: AbortSignal; onLocal?: (hits: SearchHit[]) => void } = {}): Promise<SearchResult> {
    const { signal } = options;
    const wire = await this.request({ t: 'local', id: 0, query }, isLocalResult, signal ? { signal } : {});
    const local = { hits: wire.hits, notes: wire.notes.map((n) => this.fromWireNote(n)) };
    options.onLocal?.(local.hits);
    const settings = this.options.settings();
    const documentsFor = (hits: readonly SearchHit[]): Promise<string[]> => readDocuments(this.options.fs, settings.maxFileSizeBytes, hits);
    return rerankStage(query, local, { settings, inference: this.options.inference?.(), setTimer: this.setTimer, documentsFor }, signal);
  }

  notifyChanged(path: string): void {
    this.queueEvent('changed', path);
  }

  notifyDeleted(path: string): void {
    this.queueEvent('deleted', path);
  }

  notifyRenamed(from: string, to: string): void {
    this.queueEvent('deleted', from);
    this.queueEvent('changed', to);
  }

  /** File events go in batches (a branch switch reports thousands at once); the worker debounces them. */
  private queueEvent(kind: FileEventKind, path: string): void {
    if (this.disposed) return;
    this.events.push([kind, path]);
    this.eventsTimer ??= this.setTimer(0, () => this.flushEvents());
  }

  private flushEvents(): void {
    this.eventsTimer?.();
    this.eventsTimer = undefined;
    if (this.events.length === 0) return;
    const events = this.events;
    this.events = [];
    this.syncSettings();
    this.post({ t: 'update', events });
  }

  async flush(): Promise<void> {
    await this.request({ t: 'flush', id: 0 }, anything);
  }

  async persisted(): Promise<void> {
    await this.request({ t: 'persisted', id: 0 }, anything);
  }

  pendingEmbeddings(model: string): Promise<PendingEmbedding[]> {
    return this.request({ t: 'pendingEmbeddings', id: 0, model }, isPendingEmbeddings);
  }

  storeEmbeddings(model: string, vectors: ReadonlyArray<{ hash: string; vector: Float32Array }>): Promise<{ stored: number; stale: number }> {
    return this.request({ t: 'storeEmbeddings', id: 0, model, vectors: [...vectors] }, isStoredCounts);
  }

  /**
   * Stops the worker: it first writes what changed since its last save (a worker that does not
   * answer within `CLOSE_TIMEOUT_MS` is stopped all the same). Requests still waiting fail.
   * Resolves once the worker has exited.
   */
  async close(): Promise<void> {
    if (this.disposed) return;
    this.flushEvents();
    const worker = this.worker;
    this.disposed = true;
    this.worker = undefined;
    this.failAll(new IndexWorkerError('The search index is closed.'));
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    const stop = (): void => void worker.terminate().catch(() => undefined);
    const cancel = this.setTimer(CLOSE_TIMEOUT_MS, stop);
    // The close's answer arrives on the worker's message handler, which still runs.
    const id = this.nextId++;
    worker.on('message', (raw: unknown) => {
      const m = parseFromWorker(raw);
      if (m && (m.t === 'done' || m.t === 'failed') && m.id === id) {
        cancel();
        stop();
      }
    });
    worker.postMessage({ t: 'close', id } satisfies ToWorker);
    await exited;
  }

  dispose(): void {
    void this.close();
  }
}
