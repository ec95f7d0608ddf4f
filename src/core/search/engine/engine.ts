import { describeLoadFailure, searchSettingsKey } from '../store/indexFormat';
import { Indexer, yieldToEventLoop } from '../build/indexer';
import { demotedPaths, isLoadFailure, LexicalIndex } from '../lexical/lexical';
import { PathFilter } from '../../workspace/ignoreRules';
import { IndexCorruptError } from '../store/indexBounds';
import type { LexicalHit, LoadFailure } from '../shared/indexTypes';
import { logIndexStats } from './statsLog';
import { INDEX_FILE, LIVE_FILE, loadStoredIndex, needsNewSegment, storeIndex } from '../lexical/storedIndex';
import { embeddingsFile, Ranker, toHit } from '../query/ranking';
import type { LocalCandidates } from '../query/rerankStage';
import type { IndexProgress, IndexStats, PendingEmbedding, SearchEngineOptions, SearchHit, SearchResult, WorkspaceIndex } from '../shared/searchTypes';

export { WORKER_MIN_FILES } from '../build/indexer';
export { describeLoadFailure } from '../store/indexFormat';
export { DEFAULT_SEARCH_SETTINGS } from '../shared/searchTypes';
export type { IndexProgress, IndexStats, SearchEngineOptions, SearchHit, SearchInference, SearchNote, SearchResult, SearchSettings, WorkspaceIndex } from '../shared/searchTypes';
export { INDEX_FILE } from '../lexical/storedIndex';
const SAVE_DELAY_MS = 10_000;

const defaultTimer = (ms: number, fire: () => void): (() => void) => {
  const t = setTimeout(fire, ms);
  return () => clearTimeout(t);
};

type FileEvent = 'changed' | 'deleted';

/**
 * The whole search pipeline over one workspace: the index (built, persisted, kept current from
 * file events), optional embeddings, and the rerank stage with its fallbacks. No VS Code here.
 */
export class SearchEngine implements WorkspaceIndex {
  private index = new LexicalIndex();
  private filter = new PathFilter();
  private readonly pending = new Map<string, FileEvent>();
  private cancelDebounce: (() => void) | undefined;
  private cancelSave: (() => void) | undefined;
  private draining: Promise<void> | undefined;
  private opened: Promise<IndexStats> | undefined;
  private ready = false;
  private loadedGate: Promise<void> = Promise.resolve();
  private rescanNeeded = false;
  private readonly indexer: Indexer;
  private readonly ranker: Ranker;
  private readonly setTimer: (ms: number, fire: () => void) => () => void;
  private readonly now: () => number;
  private disposed = false;
  /** The chain of index writes (one at a time). */
  private saving: Promise<void> = Promise.resolve();
  /** The last write failed: the next failures are not warned about again (a full disk fails every 10 s). */
  private saveFailing = false;
  /** The generation of the segment in storage (a live file is written only beside the index's own). */
  private segmentOnDisk: number | undefined;
  private discardStored = false;
  /** A new segment being written (updates wait for it). */
  private merging: Promise<void> | undefined;
  private damagedBefore = false;
  private keepInMemory = false;
  /** Fires after the index changed through file events (tests and the status bar listen). */
  onDidUpdate: ((paths: string[]) => void) | undefined;

  constructor(private readonly options: SearchEngineOptions) {
    this.setTimer = options.setTimer ?? defaultTimer;
    this.now = options.now ?? (() => performance.now());
    this.indexer = new Indexer(options);
    this.ranker = new Ranker({
      ...options,
      index: () => this.index,
      lexical: (query, limit) => this.searchIndex(query, limit),
      ready: () => this.ready,
      setTimer: this.setTimer,
      save: () => this.save(),
    });
  }

  get isReady(): boolean {
    return this.ready;
  }

  get stats(): { files: number; chunks: number } {
    return { files: this.index.fileCount, chunks: this.index.chunkCount };
  }

  /** What a persisted index must match to be reused (chunking, ignore rules, size cap). */
  settingsKey(): string {
    return searchSettingsKey(this.options.settings());
  }

  /** Loads the stored index and brings it up to date, or builds one. Idempotent while running. */
  open(options: { signal?: AbortSignal; onProgress?: (p: IndexProgress) => void } = {}): Promise<IndexStats> {
    this.opened ??= this.load(options).finally(() => (this.opened = undefined));
    return this.opened;
  }

  /** Drops everything (memory and storage) and builds from scratch. */
  async rebuild(options: { signal?: AbortSignal; onProgress?: (p: IndexProgress) => void } = {}): Promise<IndexStats> {
    await this.opened?.catch(() => undefined);
    await this.saving;
    this.ready = false;
    this.replaceIndex(new LexicalIndex());
    this.segmentOnDisk = undefined;
    await this.options.storage?.delete(INDEX_FILE);
    await this.options.storage?.delete(LIVE_FILE);
    return this.open(options);
  }

  private async load(options: { signal?: AbortSignal; onProgress?: (p: IndexProgress) => void }): Promise<IndexStats> {
    const started = this.now();
    const key = this.settingsKey();
    let source: IndexStats['source'] = 'built';
    let rejected: LoadFailure | undefined;
    if (!this.ready) {
      let markLoaded = (): void => undefined;
      this.loadedGate = new Promise<void>((resolve) => (markLoaded = resolve));
      try {
        const storage = this.options.storage;
        // After a damaged segment was found: not read again, rebuilt.
        const discard = this.discardStored;
        this.discardStored = false;
        if (discard) await Promise.all([storage?.delete(INDEX_FILE), storage?.delete(LIVE_FILE)]);
        const stored = storage && !discard ? await loadStoredIndex(storage, key) : undefined;
        this.readStored(stored, (r) => (rejected = r), () => (source = 'loaded'));
      } finally {
        markLoaded();
      }
    } else {
      source = 'loaded';
    }
    const index = this.index;
    const { stats, filter } = await this.indexer.reconcile(index, options);
    // A damaged segment found meanwhile replaced the index: the open that follows builds it.
    if (index !== this.index) return { ...stats, source };
    this.filter = filter;
    this.rescanNeeded = false;
    stats.source = source;
    if (rejected) stats.rejected = rejected;
    this.index.settle();
    stats.ms = this.now() - started;
    this.ready = true;
    logIndexStats(this.options.logger, stats, this.options.settings().maxFileSizeBytes);
    // Ready to query now; the index is written right after, off the path to the first query
    // (`persisted()` says when it is on disk). A loaded index nothing changed in is not rewritten.
    if (source === 'built' || stats.indexed > 0 || stats.removed > 0) void this.persistSoon();
    return stats;
  }

  /** Takes the stored index when it can be used (else starts from an empty one, saying why). */
  private readStored(stored: Awaited<ReturnType<typeof loadStoredIndex>>, reject: (r: LoadFailure) => void, accept: () => void): void {
    if (!stored) return;
    const loaded = stored.index;
    if (isLoadFailure(loaded)) {
      reject(loaded);
      this.options.logger.warn(`Search index in storage not used (${describeLoadFailure(loaded)}); rebuilding.`);
      this.replaceIndex(new LexicalIndex());
    } else {
      if (stored.liveRefused) this.options.logger.info(`Search index: the changes saved beside it were not used (${stored.liveRefused}); the files changed since are re-read.`);
      this.replaceIndex(loaded);
      this.segmentOnDisk = loaded.segment?.generation;
      accept();
    }
  }

  /** Swaps the index (closing the segment file of the one replaced). */
  private replaceIndex(next: LexicalIndex): void {
    if (this.index !== next) this.index.close();
    this.index = next;
  }

  /**
   * The lexical search, guarded: a segment list that cannot be read or is damaged is reported once,
   * the index rebuilt, and nothing answered from it (an empty answer marked not ready meanwhile).
   */
  private searchIndex(query: string, limit: number): LexicalHit[] {
    try {
      return this.index.search(query, limit, demotedPaths(this.options.settings().demoteGlobs));
    } catch (error) {
      if (!(error instanceof IndexCorruptError)) throw error;
      this.damaged(error);
      return [];
    }
  }

  private damaged(error: IndexCorruptError): void {
    // Twice in a session (a fault of the disk or of this code): the index stays in memory from then on.
    if (this.damagedBefore) this.keepInMemory = true;
    this.options.logger.warn(`Search index in storage is damaged (${error.message}); rebuilding${this.keepInMemory ? ', and keeping it in memory from now on' : ''}.`);
    this.damagedBefore = true;
    this.ready = false;
    this.discardStored = true;
    this.replaceIndex(new LexicalIndex());
    this.segmentOnDisk = undefined;
    const rebuilt = (this.opened ?? Promise.resolve()).catch(() => undefined).then(() => this.open());
    void rebuilt.catch((e: unknown) => this.options.logger.warn(`Search index rebuild failed: ${e instanceof Error ? e.message : String(e)}`));
  }

  /**
   * Resolves once the stored index is in memory (or found unusable) during an open, at once
   * otherwise: a query waits for it rather than answer from nothing, but not for the check of
   * every file's size and time that follows (answers then come from what was on disk, marked
   * partial until the check is done; a build from nothing answers from the files indexed so far).
   */
  whenLoaded(): Promise<void> {
    return this.loadedGate;
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
      await this.store(storage);
      if (this.ranker.embeddings && this.ranker.embeddings.size > 0) await storage.write(embeddingsFile(this.ranker.embeddings.model), this.ranker.embeddings.serialize());
      if (this.saveFailing) this.options.logger.info('Search index saved again.');
      this.saveFailing = false;
    } catch (error) {
      if (error instanceof IndexCorruptError) return this.damaged(error);
      const why = `Search index not saved: ${error instanceof Error ? error.message : String(error)}`;
      if (this.saveFailing) this.options.logger.debug(why);
      else this.options.logger.warn(`${why} (searches go on from memory; not said again until a save succeeds)`);
      this.saveFailing = true;
    }
  }

  /** Writes the index (see `storeIndex`); a new segment written replaces the index in memory unless it changed meanwhile. */
  private async store(storage: NonNullable<SearchEngineOptions['storage']>): Promise<void> {
    const index = this.index;
    const merge = needsNewSegment(index, this.segmentOnDisk);
    const writing = this.writeIndex(storage, index, index.version);
    // Updates wait for a new segment (written in slices from the index as it is now); queries do not.
    if (merge) this.merging = writing.catch(() => undefined).finally(() => (this.merging = undefined));
    await writing;
  }

  private async writeIndex(storage: NonNullable<SearchEngineOptions['storage']>, index: LexicalIndex, version: number): Promise<void> {
    const written = await storeIndex(storage, index, this.settingsKey(), this.segmentOnDisk, () => !this.keepInMemory && this.index === index && index.version === version);
    if (written.generation !== undefined) this.segmentOnDisk = written.reopened || (this.index === index && index.version === version) ? written.generation : undefined;
    if (written.reopened) this.replaceIndex(written.reopened);
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
    while (this.merging) await this.merging;
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
      const outcome = await this.indexer.indexFile(this.index, path, settings, false);
      this.options.logger.trace(`Search index: ${path} ${outcome}`);
      touched.push(path);
      // A folder created or copied in can be reported alone, without events for its files: index
      // what it holds (a path that is no file may be a folder; list it).
      if (outcome === 'gone') touched.push(...(await this.indexer.indexFolder(this.index, this.filter, path, settings)));
    }
    this.scheduleSave();
    this.onDidUpdate?.(touched);
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
    return this.searchIndex(query, limit).map((h, i) => toHit(h, i));
  }

  /** Local candidates, then the rerank model's order; degrades with a note, throws only CancelledError (see `Ranker.search`). */
  search(query: string, options: { signal?: AbortSignal; onLocal?: (hits: SearchHit[]) => void } = {}): Promise<SearchResult> {
    return this.ranker.search(query, options);
  }

  /** The local stage alone (lexical, fused with embeddings when configured): what the index worker answers. */
  local(query: string, signal?: AbortSignal): Promise<LocalCandidates> {
    return this.ranker.local(query, signal);
  }

  /** The lexical order, as the index worker's client offers it (see `WorkspaceIndex`). */
  query(query: string, limit?: number): Promise<SearchHit[]> {
    return Promise.resolve(this.lexical(query, limit));
  }

  /** The chunks without a vector of `model`, and vectors computed by a batch job stored (see `Ranker`). */
  pendingEmbeddings(model: string): Promise<PendingEmbedding[]> {
    return this.ranker.pendingEmbeddings(model);
  }
  storeEmbeddings(model: string, vectors: ReadonlyArray<{ hash: string; vector: Float32Array }>): Promise<{ stored: number; stale: number }> {
    return this.ranker.storeEmbeddings(model, vectors);
  }

  /** The text of each hit's line range, read from the file (the preview when unreadable). */
  documentsFor(hits: readonly SearchHit[]): Promise<string[]> {
    return this.ranker.documentsFor(hits);
  }

  /** Stops listening; an index changed since its last save is written one last time, then closed. */
  dispose(): void {
    this.disposed = true;
    this.cancelDebounce?.();
    this.pending.clear();
    if (this.cancelSave) {
      this.cancelSave();
      this.cancelSave = undefined;
      void this.save();
    }
    // Then the segment's file is closed (stats stay; a query after this answers nothing).
    this.saving = this.saving.then(() => this.index.close());
  }
}

