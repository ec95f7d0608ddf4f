import { CancelledError } from '../../errors';
import type { Logger } from '../../log';
import type { Worker } from 'node:worker_threads';
import { BuildHelper, WORKER_MIN_FILES } from './buildHelper';
import { indexBytes, indexLoaded, type IndexOutcome } from './bulk';
import { NodeFileSystem, type SearchFileSystem } from '../shared/files';
import { PathFilter, type SkipReason } from '../../workspace/ignoreRules';
import type { LexicalIndex } from '../lexical/lexical';
import type { IndexProgress, IndexStats, SearchSettings } from '../shared/searchTypes';

export { WORKER_MIN_FILES } from './buildHelper';
/** Files each thread takes at a time from the shared list (small: the two finish within a batch). */
const SHARE_BATCH = 16;
/** The worker leaves the last 1/Nth of the files to the index worker, which indexes them while the worker's result is packed and sent. */
const SHARE_LEAVE_DIVISOR = 24;
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
    // A build from nothing may share the files with a build worker. It is started before the walk
    // and sent the files as the walk finds them (the end of the list first): its start-up and its
    // first files overlap the walk instead of following it.
    const makeWorker = this.options.buildWorker;
    const helper = makeWorker && load && fs instanceof NodeFileSystem && index.fileCount === 0 ? BuildHelper.launch(makeWorker, this.options.logger) : undefined;
    let done = 0;
    let remoteDone = 0;
    let total = -1;
    helper?.start({ root: fs instanceof NodeFileSystem ? fs.root : '', maxBytes: settings.maxFileSizeBytes, chunk: settings.chunk, batch: SHARE_BATCH, leaveDivisor: SHARE_LEAVE_DIVISOR }, signal, (n) => {
      done += n - remoteDone;
      remoteDone = n;
      if (total >= 0) onProgress?.({ done, total });
    });
    let files: string[];
    try {
      files = await this.walk(filter, settings.useGitignore, skip, signal, '', helper ? (path) => helper.add(path) : undefined);
    } catch (error) {
      helper?.cancel();
      throw error;
    }
    total = files.length;
    if (helper && total < WORKER_MIN_FILES) helper.cancel();
    else helper?.end(total);

    const present = new Set(files);
    let removed = 0;
    for (const path of index.paths()) {
      if (!present.has(path)) {
        index.removeFile(path);
        removed++;
      }
    }
    let indexed = 0;
    let next = 0;
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
      if (helper && total >= WORKER_MIN_FILES) {
        let front = 0;
        try {
          for (let k = helper.claims.take(SHARE_BATCH); k > 0; k = helper.claims.take(SHARE_BATCH)) {
            await indexRange(front, front + k);
            front += k;
          }
        } catch (error) {
          helper.cancel();
          throw error;
        }
        // This thread's own postings are laid out while the worker lays out and sends its share
        // (absorbed after, its lists copied whole: the layout left for one core is short).
        index.settle();
        const result = await helper.result;
        if (signal?.aborted) throw new CancelledError('Indexing cancelled');
        const partial = result && helper.check(result, front, total);
        if (result && partial) {
          index.absorb(partial);
          done += total - front - remoteDone;
          indexed += result.indexed;
          for (const [path, outcome] of result.skipped) if (outcome !== 'gone' && outcome !== 'unchanged' && outcome !== 'indexed') skip(path, outcome);
          if (onProgress) onProgress({ done, total });
        } else {
          // The worker failed (it said so) or stopped: this thread indexes what it had not taken.
          done -= remoteDone;
          remoteDone = 0;
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

  /**
   * The files below `from` that pass the filters, in ascending order (as `sort()` orders them).
   * Depth first, each folder's entries in descending order of name (`name/` for a folder, so
   * that `a.b` comes before `a/x` as in the sorted paths): the files are found, and given to
   * `found`, from the end of the list to its start.
   */
  async walk(filter: PathFilter, useGitignore: boolean, skip: (path: string, reason: SkipReason) => void, signal: AbortSignal | undefined, from = '', found?: (path: string) => void): Promise<string[]> {
    const files: string[] = [];
    /** Entries still to visit: path, whether a folder (the top is the next in descending order). */
    const stack: Array<[string, boolean]> = [[from, true]];
    let undecodableLogged = false;
    const children: Array<[string, string, boolean]> = [];
    const byKey = (a: [string, string, boolean], b: [string, string, boolean]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
    for (let top = stack.pop(); top; top = stack.pop()) {
      const [dir, isDirectory] = top;
      if (!isDirectory) {
        files.push(dir);
        found?.(dir);
        continue;
      }
      if (signal?.aborted) throw new CancelledError('Indexing cancelled');
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
      children.length = 0;
      for (const e of entries) {
        const path = join(dir, e.name);
        if (e.kind === 'other') continue;
        if (e.kind === 'undecodable') {
          // Not silently: counted, and the first one of a walk logged (its name cannot be opened).
          if (!undecodableLogged) this.options.logger.warn(`Search index: skipped ${path} (its name is not valid UTF-8, so it cannot be opened by name); later ones are counted as unreadable.`);
          undecodableLogged = true;
          skip(path, 'unreadable');
          continue;
        }
        const folder = e.kind === 'directory';
        const reason = filter.check(path, folder);
        if (reason) {
          skip(path, reason);
          continue;
        }
        children.push([folder ? `${e.name}/` : e.name, path, folder]);
      }
      children.sort(byKey);
      for (const [, path, folder] of children) stack.push([path, folder]);
    }
    return files.reverse();
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
