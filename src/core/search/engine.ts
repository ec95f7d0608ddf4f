import { CancelledError } from '../errors';
import type { Logger } from '../log';
import type { ModelInfo } from '../inference/models/types';
import type { ChunkOptions } from './chunker';
import { contentHash, dot, EmbeddingCache, embedTexts, type EmbedFn } from './embeddings';
import type { Worker } from 'node:worker_threads';
import { indexBytes, indexLoaded, type BuildMessage, type BuildRequest, type BuildResult, type IndexOutcome } from './bulk';
import { NodeFileSystem, type IndexStorage, type SearchFileSystem } from './files';
import { PathFilter, type SkipReason } from './filter';
import { reciprocalRankFusion } from './fusion';
import { INDEX_FORMAT_VERSION, isLoadFailure, LexicalIndex, type ChunkMeta, type LexicalHit, type LoadFailure } from './lexical';
import { rerankDocuments, type RerankFn } from './rerank';

export interface SearchSettings {
  /** Files larger than this are skipped. */
  maxFileSizeBytes: number;
  /** `files.exclude` + `search.exclude` globs (enabled ones). */
  excludeGlobs: readonly string[];
  /** Honour `.gitignore` files. */
  useGitignore: boolean;
  chunk: ChunkOptions;
  /** Candidates sent to rerank (K). */
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
  chunk: {},
  candidates: 50,
  results: 20,
  rerank: { enabled: true, model: '', version: 'v1', timeoutMs: 10_000, batchSize: 25, concurrency: 2 },
  embeddingModel: '',
  debounceMs: 300,
};

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

/** Below this many files a build worker costs more (start-up, merge) than it saves. */
export const WORKER_MIN_FILES = 400;

export const INDEX_FILE = 'search-index.bin';
const SAVE_DELAY_MS = 10_000;
const SAMPLE = 50;

const defaultTimer = (ms: number, fire: () => void): (() => void) => {
  const t = setTimeout(fire, ms);
  return () => clearTimeout(t);
};

function emptySkips(): Record<SkipReason, number> {
  return { excluded: 0, gitignored: 0, binary: 0, too_large: 0, unreadable: 0 };
}

function embeddingsFile(model: string): string {
  return `search-embeddings-${model.replace(/[^A-Za-z0-9._-]+/g, '_')}.bin`;
}

type FileEvent = 'changed' | 'deleted';

/**
 * The whole search pipeline over one workspace: the index (built, persisted, kept current from
 * file events), optional embeddings, and the rerank stage with its fallbacks. No VS Code here.
 */
export class SearchEngine {
  private index = new LexicalIndex();
  private filter = new PathFilter();
  private readonly decoder = new TextDecoder('utf-8', { fatal: false });
  private readonly pending = new Map<string, FileEvent>();
  private cancelDebounce: (() => void) | undefined;
  private cancelSave: (() => void) | undefined;
  private draining: Promise<void> | undefined;
  private opened: Promise<IndexStats> | undefined;
  private ready = false;
  private rescanNeeded = false;
  private embeddings: EmbeddingCache | undefined;
  private readonly setTimer: (ms: number, fire: () => void) => () => void;
  private readonly now: () => number;
  private disposed = false;
  /** The chain of index writes (one at a time). */
  private saving: Promise<void> = Promise.resolve();
  /** Fires after the index changed through file events (tests and the status bar listen). */
  onDidUpdate: ((paths: string[]) => void) | undefined;

  constructor(private readonly options: SearchEngineOptions) {
    this.setTimer = options.setTimer ?? defaultTimer;
    this.now = options.now ?? (() => performance.now());
  }

  get isReady(): boolean {
    return this.ready;
  }

  get stats(): { files: number; chunks: number } {
    return { files: this.index.fileCount, chunks: this.index.chunkCount };
  }

  /** What a persisted index must match to be reused (chunking, ignore rules, size cap). */
  settingsKey(): string {
    const s = this.options.settings();
    return JSON.stringify({ v: INDEX_FORMAT_VERSION, c: s.chunk, x: [...s.excludeGlobs].sort(), g: s.useGitignore, m: s.maxFileSizeBytes });
  }

  /** Loads the stored index and brings it up to date, or builds one. Idempotent while running. */
  open(options: { signal?: AbortSignal; onProgress?: (p: IndexProgress) => void } = {}): Promise<IndexStats> {
    this.opened ??= this.load(options).finally(() => {
      this.opened = undefined;
    });
    return this.opened;
  }

  /** Drops everything (memory and storage) and builds from scratch. */
  async rebuild(options: { signal?: AbortSignal; onProgress?: (p: IndexProgress) => void } = {}): Promise<IndexStats> {
    await this.opened?.catch(() => undefined);
    await this.saving;
    this.ready = false;
    this.index = new LexicalIndex();
    await this.options.storage?.delete(INDEX_FILE);
    return this.open(options);
  }

  private async load(options: { signal?: AbortSignal; onProgress?: (p: IndexProgress) => void }): Promise<IndexStats> {
    const started = this.now();
    const key = this.settingsKey();
    let source: IndexStats['source'] = 'built';
    let rejected: LoadFailure | undefined;
    if (!this.ready) {
      const stored = await this.options.storage?.read(INDEX_FILE);
      if (stored) {
        const loaded = LexicalIndex.deserialize(stored, key);
        if (isLoadFailure(loaded)) {
          rejected = loaded;
          this.options.logger.warn(`Search index in storage not used (${describeLoadFailure(loaded)}); rebuilding.`);
          this.index = new LexicalIndex();
        } else {
          this.index = loaded;
          source = 'loaded';
        }
      }
    } else {
      source = 'loaded';
    }
    const stats = await this.reconcile(options);
    stats.source = source;
    if (rejected) stats.rejected = rejected;
    this.index.settle();
    stats.ms = this.now() - started;
    this.ready = true;
    this.logStats(stats);
    // Ready to query now; the index is written right after, off the path to the first query
    // (`persisted()` says when it is on disk). A loaded index nothing changed in is not rewritten.
    if (source === 'built' || stats.indexed > 0 || stats.removed > 0) void this.persistSoon();
    return stats;
  }

  /** Writes the index after one turn of the event loop (a query waiting to run goes first). */
  private persistSoon(): Promise<void> {
    this.saving = this.saving.then(async () => {
      await yieldToEventLoop();
      await this.saveNow();
    });
    return this.saving;
  }

  /** Resolves once every write of the index started so far is done (or failed, which only logs). */
  persisted(): Promise<void> {
    return this.saving;
  }

  /** Walks the workspace and makes the index match it (new, changed, gone files). */
  private async reconcile(options: { signal?: AbortSignal; onProgress?: (p: IndexProgress) => void }): Promise<IndexStats> {
    const { signal, onProgress } = options;
    const settings = this.options.settings();
    const skipped = emptySkips();
    const sample: IndexStats['skippedSample'] = [];
    const skip = (path: string, reason: SkipReason): void => {
      skipped[reason]++;
      if (sample.length < SAMPLE) sample.push({ path, reason });
    };
    const filter = new PathFilter(settings.excludeGlobs);
    const files = await this.walk(filter, settings.useGitignore, skip, signal);
    this.filter = filter;
    this.rescanNeeded = false;

    const present = new Set(files);
    let removed = 0;
    for (const path of this.index.paths()) {
      if (!present.has(path)) {
        this.index.removeFile(path);
        removed++;
      }
    }
    let done = 0;
    let indexed = 0;
    let next = 0;
    const total = files.length;
    let sliceStart = performance.now();
    const count = (path: string, outcome: IndexOutcome): void => {
      if (outcome === 'indexed') indexed++;
      else if (outcome !== 'unchanged' && outcome !== 'gone') skip(path, outcome);
      done++;
      if (onProgress && (done % 100 === 0 || done === total)) onProgress({ done, total });
    };
    const fs = this.options.fs;
    const load = fs.loadSync?.bind(fs);
    if (load) {
      // Local disk: one synchronous open, stat and read per file into a reused buffer, slices of
      // ~15 ms of work between turns of the event loop. A build from nothing of many files shares
      // the work with a worker thread when one is configured.
      let mine = files;
      let remote: Promise<BuildResult | undefined> | undefined;
      let theirs: string[] = [];
      let remoteDone = 0;
      const makeWorker = this.options.buildWorker;
      if (makeWorker && fs instanceof NodeFileSystem && this.index.fileCount === 0 && files.length >= WORKER_MIN_FILES) {
        mine = files.filter((_, i) => i % 2 === 0);
        theirs = files.filter((_, i) => i % 2 === 1);
        remote = this.runWorker(makeWorker, { root: fs.root, paths: theirs, maxBytes: settings.maxFileSizeBytes, chunk: settings.chunk }, signal, (n) => {
          done += n - remoteDone;
          remoteDone = n;
          onProgress?.({ done, total });
        });
      }
      const decoder = this.decoder;
      const local = (paths: readonly string[]): Promise<void> =>
        (async () => {
          for (const path of paths) {
            if (performance.now() - sliceStart > 15) {
              await yieldToEventLoop();
              sliceStart = performance.now();
            }
            if (signal?.aborted) throw new CancelledError('Indexing cancelled');
            count(path, indexLoaded(this.index, load, path, settings.maxFileSizeBytes, settings.chunk, decoder));
          }
        })();
      try {
        await local(mine);
      } catch (error) {
        await remote; // terminated by the signal
        throw error;
      }
      if (remote) {
        const result = await remote;
        if (signal?.aborted) throw new CancelledError('Indexing cancelled');
        if (result) {
          this.index.absorb(result.partial);
          done += theirs.length - remoteDone;
          indexed += result.indexed;
          for (const [path, outcome] of result.skipped) if (outcome !== 'gone' && outcome !== 'unchanged' && outcome !== 'indexed') skip(path, outcome);
          if (onProgress) onProgress({ done, total });
        } else {
          done -= remoteDone;
          await local(theirs);
        }
      }
    } else {
      const worker = async (): Promise<void> => {
        while (next < files.length) {
          if (signal?.aborted) throw new CancelledError('Indexing cancelled');
          // Local reads resolve at once: give the event loop a turn every ~15 ms of work.
          if (performance.now() - sliceStart > 15) {
            await yieldToEventLoop();
            sliceStart = performance.now();
          }
          const path = files[next++];
          if (path === undefined) return;
          count(path, await this.indexFile(path, settings, true));
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, this.options.readConcurrency ?? 8) }, () => worker()));
    }
    return { source: 'built', files: this.index.fileCount, chunks: this.index.chunkCount, indexed, removed, skipped, skippedSample: sample, ms: 0 };
  }

  private async walk(filter: PathFilter, useGitignore: boolean, skip: (path: string, reason: SkipReason) => void, signal: AbortSignal | undefined, from = ''): Promise<string[]> {
    const files: string[] = [];
    const dirs: string[] = [from];
    while (dirs.length > 0) {
      if (signal?.aborted) throw new CancelledError('Indexing cancelled');
      const dir = dirs.pop() ?? '';
      let entries;
      try {
        entries = await this.options.fs.list(dir);
      } catch {
        skip(dir, 'unreadable');
        continue;
      }
      if (useGitignore && entries.some((e) => e.name === '.gitignore' && e.kind === 'file')) {
        try {
          filter.addGitignore(dir, this.decoder.decode(await this.options.fs.read(join(dir, '.gitignore'), this.options.settings().maxFileSizeBytes)));
        } catch {
          // An unreadable .gitignore ignores nothing.
        }
      }
      for (const e of entries) {
        const path = join(dir, e.name);
        if (e.kind === 'other') continue;
        const reason = filter.check(path, e.kind === 'directory');
        if (reason) {
          skip(path, reason);
          continue;
        }
        if (e.kind === 'directory') dirs.push(path);
        else files.push(path);
      }
    }
    return files.sort();
  }

  /** (Re)indexes one file when its size or time changed (or always with `onlyIfChanged` false). */
  private async indexFile(path: string, settings: SearchSettings, onlyIfChanged: boolean): Promise<IndexOutcome> {
    const stat = await this.options.fs.stat(path);
    if (!stat) {
      this.index.removeFile(path);
      return 'gone';
    }
    const known = this.index.fileStat(path);
    if (onlyIfChanged && known && known.mtime === stat.mtime && known.size === stat.size) return 'unchanged';
    if (stat.size > settings.maxFileSizeBytes) {
      this.index.removeFile(path);
      return 'too_large';
    }
    let bytes: Uint8Array;
    try {
      bytes = await this.options.fs.read(path, settings.maxFileSizeBytes);
    } catch {
      this.index.removeFile(path);
      return 'unreadable';
    }
    return indexBytes(this.index, path, stat, bytes, settings.chunk, this.decoder);
  }

  /** Runs one share of the build in a worker thread; undefined when the worker failed. */
  private runWorker(make: () => Worker, request: BuildRequest, signal: AbortSignal | undefined, onProgress: (done: number) => void): Promise<BuildResult | undefined> {
    return new Promise<BuildResult | undefined>((resolve) => {
      let worker: Worker;
      try {
        worker = make();
      } catch (error) {
        this.options.logger.warn(`Search index: no build worker (${error instanceof Error ? error.message : String(error)}); one thread.`);
        resolve(undefined);
        return;
      }
      let settled = false;
      const finish = (result: BuildResult | undefined, why?: string): void => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', abort);
        if (why) this.options.logger.warn(`Search index: the build worker failed (${why}); the main thread indexes its share.`);
        void worker.terminate().catch(() => undefined);
        resolve(result);
      };
      const abort = (): void => finish(undefined);
      signal?.addEventListener('abort', abort);
      worker.on('message', (message: BuildMessage) => {
        if (message.kind === 'progress') onProgress(message.done);
        else if (message.kind === 'done') finish(message.result);
        else finish(undefined, message.message);
      });
      worker.on('error', (error: Error) => finish(undefined, error.message));
      worker.on('exit', (code: number) => finish(undefined, `exited with code ${code}`));
      worker.postMessage(request);
    });
  }

  private logStats(stats: IndexStats): void {
    const s = stats.skipped;
    const skippedTotal = Object.values(s).reduce((a, b) => a + b, 0);
    this.options.logger.info(
      `Search index ${stats.source === 'loaded' ? 'loaded and updated' : 'built'}: ${stats.files} files, ${stats.chunks} chunks ` +
        `(${stats.indexed} indexed now${stats.removed ? `, ${stats.removed} removed` : ''}); skipped ${skippedTotal}: ` +
        `${s.excluded} excluded by files.exclude/search.exclude, ${s.gitignored} by .gitignore, ${s.binary} binary, ` +
        `${s.too_large} over ${Math.round(this.options.settings().maxFileSizeBytes / 1024)} KB, ${s.unreadable} unreadable; ${stats.ms.toFixed(0)} ms.`,
    );
    for (const { path, reason } of stats.skippedSample) this.options.logger.debug(`Search index skipped ${path || '(root)'}: ${reason}`);
  }

  /** Persists the index now (best effort: a failed write only costs a rebuild next time). */
  save(): Promise<void> {
    this.saving = this.saving.then(() => this.saveNow());
    return this.saving;
  }

  /** One write at a time: two writers would share the temporary file. */
  private async saveNow(): Promise<void> {
    const storage = this.options.storage;
    if (!storage) return;
    try {
      await storage.write(INDEX_FILE, this.index.serialize(this.settingsKey()));
      if (this.embeddings && this.embeddings.size > 0) await storage.write(embeddingsFile(this.embeddings.model), this.embeddings.serialize());
    } catch (error) {
      this.options.logger.warn(`Search index not saved: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  // ---- incremental updates -------------------------------------------------------------------

  /** A file was created or changed (debounced). */
  notifyChanged(path: string): void {
    this.enqueue(path, 'changed');
  }

  notifyDeleted(path: string): void {
    this.enqueue(path, 'deleted');
  }

  /** A rename is a delete of the old path and a create of the new one. */
  notifyRenamed(from: string, to: string): void {
    this.enqueue(from, 'deleted');
    this.enqueue(to, 'changed');
  }

  private enqueue(path: string, event: FileEvent): void {
    if (this.disposed) return;
    if (path === '.gitignore' || path.endsWith('/.gitignore')) this.rescanNeeded = true;
    this.pending.set(path, event);
    this.cancelDebounce?.();
    this.cancelDebounce = this.setTimer(this.options.settings().debounceMs, () => {
      this.cancelDebounce = undefined;
      void this.flush().catch((error: unknown) => this.options.logger.warn(`Search index update failed: ${error instanceof Error ? error.message : String(error)}`));
    });
  }

  /** Applies the queued file events now. */
  async flush(): Promise<void> {
    this.cancelDebounce?.();
    this.cancelDebounce = undefined;
    while (this.draining) await this.draining;
    if (this.pending.size === 0 && !this.rescanNeeded) return;
    this.draining = this.drain().finally(() => {
      this.draining = undefined;
    });
    await this.draining;
  }

  private async drain(): Promise<void> {
    if (this.opened) await this.opened.catch(() => undefined);
    if (!this.ready) return; // the build in progress or to come reads the files anyway
    if (this.rescanNeeded) {
      this.pending.clear();
      await this.open();
      this.onDidUpdate?.([]);
      return;
    }
    const settings = this.options.settings();
    const batch = [...this.pending];
    this.pending.clear();
    const touched: string[] = [];
    for (const [path, event] of batch) {
      if (event === 'deleted') {
        // A deleted folder: every indexed file below it goes too.
        for (const p of this.index.paths()) {
          if (p === path || p.startsWith(`${path}/`)) {
            this.index.removeFile(p);
            touched.push(p);
          }
        }
        continue;
      }
      if (this.isFiltered(path)) continue;
      const outcome = await this.indexFile(path, settings, false);
      this.options.logger.trace(`Search index: ${path} ${outcome}`);
      touched.push(path);
      // A folder created or copied in can be reported alone, without events for its files: index
      // what it holds (a path that is no file may be a folder; list it).
      if (outcome === 'gone') touched.push(...(await this.indexFolder(path, settings)));
    }
    this.scheduleSave();
    this.onDidUpdate?.(touched);
  }

  /** Indexes every file below `folder` (filters and .gitignore rules applied); [] when it is not a folder. */
  private async indexFolder(folder: string, settings: SearchSettings): Promise<string[]> {
    let files: string[];
    try {
      await this.options.fs.list(folder);
      files = await this.walk(this.filter, settings.useGitignore, () => undefined, undefined, folder);
    } catch {
      return [];
    }
    for (const file of files) {
      const outcome = await this.indexFile(file, settings, true);
      this.options.logger.trace(`Search index: ${file} ${outcome} (in a new folder)`);
    }
    return files;
  }

  /** Writing a large index costs a moment: after file events it is written at most every 10 s. */
  private scheduleSave(): void {
    if (this.cancelSave || this.disposed) return;
    this.cancelSave = this.setTimer(SAVE_DELAY_MS, () => {
      this.cancelSave = undefined;
      void this.save();
    });
  }

  private isFiltered(path: string): boolean {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) if (this.filter.check(parts.slice(0, i).join('/'), true)) return true;
    return this.filter.check(path, false) !== undefined;
  }

  // ---- search --------------------------------------------------------------------------------

  /** The local (lexical) order at once, from memory. */
  lexical(query: string, limit = this.options.settings().candidates): SearchHit[] {
    return this.index.search(query, limit).map((h, i) => toHit(h, i));
  }

  /**
   * Local candidates (lexical, fused with embeddings when configured), then the rerank model's
   * order. Degrades to the local order with a note, never to an empty answer; throws only
   * CancelledError (the caller's signal).
   */
  async search(query: string, options: { signal?: AbortSignal; onLocal?: (hits: SearchHit[]) => void } = {}): Promise<SearchResult> {
    const { signal } = options;
    const settings = this.options.settings();
    const notes: SearchNote[] = [];
    if (!this.ready) notes.push({ kind: 'index_not_ready' });
    const lexicalHits = this.index.search(query, settings.candidates);
    let local: LexicalHit[] = lexicalHits;
    const inference = this.options.inference?.();
    if (settings.embeddingModel && inference) {
      try {
        local = await this.hybrid(inference, query, lexicalHits, settings, signal);
      } catch (error) {
        if (signal?.aborted) throw new CancelledError();
        notes.push({ kind: 'embeddings_failed', error });
      }
    }
    const localHits = local.slice(0, settings.candidates).map((h, i) => toHit(h, i));
    options.onLocal?.(localHits);
    const base: SearchResult = { query, hits: localHits.slice(0, settings.results), reranked: false, notes, candidates: localHits.length, searchUnits: 0 };
    if (localHits.length === 0) return base;
    if (!settings.rerank.enabled) return { ...base, notes: [...notes, { kind: 'rerank_disabled' }] };
    if (!inference) return { ...base, notes: [...notes, { kind: 'no_rerank_model' }] };

    let model: ModelInfo | undefined;
    try {
      const models = await inference.listModels(signal);
      model = settings.rerank.model
        ? models.find((m) => m.id === settings.rerank.model || m.aliases.includes(settings.rerank.model))
        : models.find((m) => m.kind === 'rerank');
      if (!model && settings.rerank.model) {
        // Not listed: try it anyway with a conservative context; a 404 falls back below.
        model = { id: settings.rerank.model, kind: 'rerank', aliases: [], maxModelLen: 512, created: undefined, ownedBy: undefined, root: undefined };
      }
    } catch (error) {
      if (signal?.aborted) throw new CancelledError();
      return { ...base, notes: [...notes, { kind: 'rerank_failed', error }] };
    }
    if (!model) return { ...base, notes: [...notes, { kind: 'no_rerank_model' }] };

    const documents = await this.documentsFor(localHits);
    const outcome = await rerankDocuments(
      inference.rerank,
      query,
      documents,
      {
        model: model.id,
        maxModelLen: model.maxModelLen ?? 512,
        version: settings.rerank.version,
        topN: settings.results,
        batchSize: settings.rerank.batchSize,
        concurrency: settings.rerank.concurrency,
        timeoutMs: settings.rerank.timeoutMs,
        setTimer: this.setTimer,
      },
      signal,
    );
    if (!outcome.ok) {
      const note: SearchNote =
        outcome.reason === 'timeout' ? { kind: 'rerank_timeout', timeoutMs: outcome.timeoutMs } : outcome.reason === 'query_too_long' ? { kind: 'query_too_long' } : { kind: 'rerank_failed', error: outcome.error };
      return { ...base, notes: [...notes, note] };
    }
    const hits: SearchHit[] = [];
    const seen = new Set<number>();
    for (const s of outcome.scores) {
      const h = localHits[s.index];
      if (!h || seen.has(s.index)) continue;
      seen.add(s.index);
      hits.push({ ...h, rerankScore: s.score });
    }
    // Whatever the reranker did not return keeps its local order after the reranked ones.
    for (let i = 0; i < localHits.length && hits.length < settings.results; i++) {
      const h = localHits[i];
      if (h && !seen.has(i)) hits.push(h);
    }
    return { query, hits: hits.slice(0, settings.results), reranked: true, notes, candidates: localHits.length, searchUnits: outcome.searchUnits };
  }

  /** The text of each hit's line range, read from the file (the preview when unreadable). */
  async documentsFor(hits: readonly SearchHit[]): Promise<string[]> {
    const byPath = new Map<string, string[] | undefined>();
    await Promise.all(
      [...new Set(hits.map((h) => h.path))].map(async (path) => {
        try {
          byPath.set(path, this.decoder.decode(await this.options.fs.read(path, this.options.settings().maxFileSizeBytes)).split(/\r?\n/));
        } catch {
          byPath.set(path, undefined);
        }
      }),
    );
    return hits.map((h) => {
      const lines = byPath.get(h.path);
      const body = lines ? lines.slice(h.startLine - 1, h.endLine).join('\n') : h.preview;
      return `${h.path}\n${body}`;
    });
  }

  // ---- embeddings ----------------------------------------------------------------------------

  private async hybrid(inference: SearchInference, query: string, lexicalHits: LexicalHit[], settings: SearchSettings, signal: AbortSignal | undefined): Promise<LexicalHit[]> {
    const models = await inference.listModels(signal);
    const model = models.find((m) => m.id === settings.embeddingModel || m.aliases.includes(settings.embeddingModel));
    const maxModelLen = model?.maxModelLen ?? 512;
    const cache = await this.embeddingCache(settings.embeddingModel);
    await this.embedMissing(inference, cache, maxModelLen, signal);
    const [q] = await embedTexts(inference.embed, settings.embeddingModel, [query], { maxModelLen, signal });
    if (!q) return lexicalHits;
    const scored: Array<{ id: number; score: number }> = [];
    for (const [id, c] of this.index.allChunks()) {
      const v = cache.get(c.hash);
      if (v) scored.push({ id, score: dot(q, v) });
    }
    scored.sort((a, b) => b.score - a.score);
    const vectorIds = scored.slice(0, settings.candidates).map((s) => s.id);
    const fused = reciprocalRankFusion([lexicalHits.map((h) => h.id), vectorIds]);
    const lexicalById = new Map(lexicalHits.map((h) => [h.id, h]));
    const out: LexicalHit[] = [];
    for (const { key, score } of fused) {
      const meta = this.index.chunk(key);
      if (!meta) continue;
      out.push(lexicalById.get(key) ?? { id: key, score, ...meta });
    }
    return out;
  }

  private async embeddingCache(model: string): Promise<EmbeddingCache> {
    if (this.embeddings?.model === model) return this.embeddings;
    const stored = await this.options.storage?.read(embeddingsFile(model));
    this.embeddings = (stored && EmbeddingCache.deserialize(stored, model)) || new EmbeddingCache(model);
    return this.embeddings;
  }

  /** Embeds the chunks whose text has no vector yet (cached by content hash, persisted). */
  async embedMissing(inference: SearchInference, cache: EmbeddingCache, maxModelLen: number, signal?: AbortSignal): Promise<number> {
    // Chunks indexed since the last embedding pass have no hash yet: read them once to get it.
    const unhashed: Array<{ id: number; meta: ChunkMeta }> = [];
    for (const [id, meta] of this.index.allChunks()) if (meta.hash === '') unhashed.push({ id, meta });
    const texts = new Map<string, string>();
    if (unhashed.length > 0) {
      const bodies = await this.documentsFor(unhashed.map(({ id, meta }, i) => ({ id, path: meta.path, startLine: meta.startLine, endLine: meta.endLine, preview: meta.preview, localRank: i + 1 })));
      unhashed.forEach(({ meta }, i) => {
        const text = bodies[i] ?? '';
        meta.hash = contentHash(text);
        texts.set(meta.hash, text);
      });
    }
    const missing = new Map<string, ChunkMeta>();
    for (const [, meta] of this.index.allChunks()) if (!cache.get(meta.hash) && !missing.has(meta.hash)) missing.set(meta.hash, meta);
    if (missing.size === 0) return 0;
    const entries = [...missing];
    const absent = entries.filter(([hash]) => !texts.has(hash));
    if (absent.length > 0) {
      const bodies = await this.documentsFor(absent.map(([, m], i) => ({ id: 0, path: m.path, startLine: m.startLine, endLine: m.endLine, preview: m.preview, localRank: i + 1 })));
      absent.forEach(([hash], i) => texts.set(hash, bodies[i] ?? ''));
    }
    const vectors = await embedTexts(inference.embed, cache.model, entries.map(([hash]) => texts.get(hash) ?? ''), { maxModelLen, signal });
    entries.forEach(([hash], i) => {
      const v = vectors[i];
      if (v) cache.set(hash, v);
    });
    cache.retain(new Set([...this.index.allChunks()].map(([, c]) => c.hash)));
    await this.save();
    return entries.length;
  }

  /** Stops listening; an index changed since its last save is written one last time. */
  dispose(): void {
    this.disposed = true;
    this.cancelDebounce?.();
    this.pending.clear();
    if (this.cancelSave) {
      this.cancelSave();
      this.cancelSave = undefined;
      void this.save();
    }
  }
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function toHit(h: LexicalHit, i: number): SearchHit {
  return { id: h.id, path: h.path, startLine: h.startLine, endLine: h.endLine, preview: h.preview, localRank: i + 1 };
}

function join(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
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

