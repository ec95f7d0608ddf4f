import { CancelledError } from '../errors';
import type { Logger } from '../log';
import type { Worker } from 'node:worker_threads';
import { FileClaims, indexBytes, indexLoaded, type BuildMessage, type BuildRequest, type BuildResult, type IndexOutcome } from './bulk';
import { NodeFileSystem, type SearchFileSystem } from './files';
import { PathFilter, type SkipReason } from './filter';
import type { PartialIndex } from './indexTypes';
import type { LexicalIndex } from './lexical';
import { unpackPartial } from './packedPartial';
import type { IndexProgress, IndexStats, SearchSettings } from './searchTypes';

/** Below this many files a build worker costs more (start-up, merge) than it saves. */
export const WORKER_MIN_FILES = 400;
/** Files each thread takes at a time from the shared list (small: the two finish within a batch). */
const SHARE_BATCH = 16;
/** The worker leaves the last 1/Nth of the files to the index worker, which indexes them while the worker's result is packed and sent. */
const SHARE_LEAVE_DIVISOR = 20;
const SAMPLE = 50;

function emptySkips(): Record<SkipReason, number> {
  return { excluded: 0, gitignored: 0, binary: 0, too_large: 0, unreadable: 0 };
}

export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function join(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}

export interface IndexerOptions {
  fs: SearchFileSystem;
  logger: Logger;
  settings: () => SearchSettings;
  readConcurrency?: number;
  buildWorker?: () => Worker;
}

/**
 * Reads the workspace into a lexical index: the walk (ignore rules applied), the bulk build (on
 * this thread in slices, and on a build worker thread for a large build from nothing), and one
 * file at a time for updates. The index and the filter are the engine's; they are passed in.
 */
export class Indexer {
  readonly decoder = new TextDecoder('utf-8', { fatal: false });

  constructor(private readonly options: IndexerOptions) {}

  /** Walks the workspace and makes the index match it (new, changed, gone files). */
  async reconcile(index: LexicalIndex, options: { signal?: AbortSignal; onProgress?: (p: IndexProgress) => void }): Promise<{ stats: IndexStats; filter: PathFilter }> {
    const { signal, onProgress } = options;
    const settings = this.options.settings();
    const skipped = emptySkips();
    const sample: IndexStats['skippedSample'] = [];
    const skip = (path: string, reason: SkipReason): void => {
      skipped[reason]++;
      if (sample.length < SAMPLE) sample.push({ path, reason });
    };
    const filter = new PathFilter(settings.excludeGlobs);
    const fs = this.options.fs;
    const load = fs.loadSync?.bind(fs);
    // A build from nothing may share the files with a build worker: it is started before the walk,
    // so its start-up (tens of ms: a thread and the bundle) overlaps the walk instead of following it.
    const makeWorker = this.options.buildWorker;
    const helper = makeWorker && load && fs instanceof NodeFileSystem && index.fileCount === 0 ? this.launchWorker(makeWorker) : undefined;
    let files: string[];
    try {
      files = await this.walk(filter, settings.useGitignore, skip, signal);
    } catch (error) {
      helper?.cancel();
      throw error;
    }
    if (helper && files.length < WORKER_MIN_FILES) helper.cancel();

    const present = new Set(files);
    let removed = 0;
    for (const path of index.paths()) {
      if (!present.has(path)) {
        index.removeFile(path);
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
    if (load) {
      // Local disk: one synchronous open, stat and read per file into a reused buffer, slices of
      // ~15 ms of work between turns of the event loop. A build from nothing of many files shares
      // the list with a worker thread when one is configured: this thread takes files from the
      // front, the worker from the back (FileClaims), and the worker's share is absorbed after.
      const decoder = this.decoder;
      const indexRange = async (from: number, to: number): Promise<void> => {
        for (let i = from; i < to; i++) {
          if (performance.now() - sliceStart > 15) {
            await yieldToEventLoop();
            sliceStart = performance.now();
          }
          if (signal?.aborted) throw new CancelledError('Indexing cancelled');
          const path = files[i] ?? '';
          count(path, indexLoaded(index, load, path, settings.maxFileSizeBytes, settings.chunk, decoder));
        }
      };
      if (helper && fs instanceof NodeFileSystem && total >= WORKER_MIN_FILES) {
        const claims = FileClaims.create(total);
        let remoteDone = 0;
        const request = { root: fs.root, paths: files.join('\0'), maxBytes: settings.maxFileSizeBytes, chunk: settings.chunk, claims: claims.buffer, batch: SHARE_BATCH, leave: Math.floor(total / SHARE_LEAVE_DIVISOR) };
        const remote = helper.run(request, signal, (n) => {
          done += n - remoteDone;
          remoteDone = n;
          onProgress?.({ done, total });
        });
        let front = 0;
        try {
          for (let k = claims.take(SHARE_BATCH); k > 0; k = claims.take(SHARE_BATCH)) {
            await indexRange(front, front + k);
            front += k;
          }
        } catch (error) {
          await remote; // terminated by the signal
          throw error;
        }
        const result = await remote;
        if (signal?.aborted) throw new CancelledError('Indexing cancelled');
        const partial = result && this.checkShare(result, front, total);
        if (result && partial) {
          index.absorb(partial);
          done += total - front - remoteDone;
          indexed += result.indexed;
          for (const [path, outcome] of result.skipped) if (outcome !== 'gone' && outcome !== 'unchanged' && outcome !== 'indexed') skip(path, outcome);
          if (onProgress) onProgress({ done, total });
        } else {
          // The worker failed (it said so) or stopped: this thread indexes what it had not taken.
          done -= remoteDone;
          await indexRange(front, total);
        }
      } else {
        await indexRange(0, total);
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
          count(path, await this.indexFile(index, path, settings, true));
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, this.options.readConcurrency ?? 8) }, () => worker()));
    }
    return { stats: { source: 'built', files: index.fileCount, chunks: index.chunkCount, indexed, removed, skipped, skippedSample: sample, ms: 0 }, filter };
  }

  /** The worker's share as a partial index, when it is whole and well-formed (else undefined, with a warning). */
  private checkShare(result: BuildResult, from: number, total: number): PartialIndex | undefined {
    try {
      if (result.from !== from) throw new Error(`it indexed from file ${result.from}, not ${from}`);
      const partial = unpackPartial(result.partial);
      if (partial.files.length !== result.indexed || result.indexed + result.skipped.length !== total - from) throw new Error('its counts do not add up');
      return partial;
    } catch (error) {
      this.options.logger.warn(`Search index: the build worker's share was not used (${error instanceof Error ? error.message : String(error)}); the main thread indexes it.`);
      return undefined;
    }
  }

  async walk(filter: PathFilter, useGitignore: boolean, skip: (path: string, reason: SkipReason) => void, signal: AbortSignal | undefined, from = ''): Promise<string[]> {
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
  async indexFile(index: LexicalIndex, path: string, settings: SearchSettings, onlyIfChanged: boolean): Promise<IndexOutcome> {
    const stat = await this.options.fs.stat(path);
    if (!stat) {
      index.removeFile(path);
      return 'gone';
    }
    const known = index.fileStat(path);
    if (onlyIfChanged && known && known.mtime === stat.mtime && known.size === stat.size) return 'unchanged';
    if (stat.size > settings.maxFileSizeBytes) {
      index.removeFile(path);
      return 'too_large';
    }
    let bytes: Uint8Array;
    try {
      bytes = await this.options.fs.read(path, settings.maxFileSizeBytes);
    } catch {
      index.removeFile(path);
      return 'unreadable';
    }
    return indexBytes(index, path, stat, bytes, settings.chunk, this.decoder);
  }

  /**
   * Starts a build worker (listening at once: a failure during the walk is kept, not thrown);
   * `run` sends it one share of the build and resolves with its result, undefined when it failed;
   * `cancel` terminates it quietly (too few files, or the walk failed).
   */
  private launchWorker(make: () => Worker): { run(request: BuildRequest, signal: AbortSignal | undefined, onProgress: (done: number) => void): Promise<BuildResult | undefined>; cancel(): void } | undefined {
    let worker: Worker;
    try {
      worker = make();
    } catch (error) {
      this.options.logger.warn(`Search index: no build worker (${error instanceof Error ? error.message : String(error)}); one thread.`);
      return undefined;
    }
    let settled = false;
    let progress: (done: number) => void = () => undefined;
    let detach = (): void => undefined;
    let resolveResult: (result: BuildResult | undefined) => void = () => undefined;
    const result = new Promise<BuildResult | undefined>((resolve) => (resolveResult = resolve));
    const finish = (value: BuildResult | undefined, why?: string): void => {
      if (settled) return;
      settled = true;
      detach();
      if (why) this.options.logger.warn(`Search index: the build worker failed (${why}); the main thread indexes its share.`);
      void worker.terminate().catch(() => undefined);
      resolveResult(value);
    };
    worker.on('message', (message: BuildMessage) => {
      if (message.kind === 'progress') progress(message.done);
      else if (message.kind === 'done') finish(message.result);
      else finish(undefined, message.message);
    });
    worker.on('error', (error: Error) => finish(undefined, error.message));
    worker.on('exit', (code: number) => finish(undefined, `exited with code ${code}`));
    return {
      run: (request, signal, onProgress) => {
        if (signal?.aborted) finish(undefined);
        if (settled) return result;
        const abort = (): void => finish(undefined);
        signal?.addEventListener('abort', abort);
        detach = () => signal?.removeEventListener('abort', abort);
        progress = onProgress;
        worker.postMessage(request);
        return result;
      },
      cancel: () => finish(undefined),
    };
  }

  /** Indexes every file below `folder` (filters and .gitignore rules applied); [] when it is not a folder. */
  async indexFolder(index: LexicalIndex, filter: PathFilter, folder: string, settings: SearchSettings): Promise<string[]> {
    let files: string[];
    try {
      await this.options.fs.list(folder);
      files = await this.walk(filter, settings.useGitignore, () => undefined, undefined, folder);
    } catch {
      return [];
    }
    for (const file of files) {
      const outcome = await this.indexFile(index, file, settings, true);
      this.options.logger.trace(`Search index: ${file} ${outcome} (in a new folder)`);
    }
    return files;
  }
}
