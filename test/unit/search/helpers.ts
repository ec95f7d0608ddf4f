import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { silentLogger, type Logger } from '../../../src/core/log';
import { DEFAULT_SEARCH_SETTINGS, MemoryIndexStorage, NodeFileSystem, SearchEngine, type SearchInference, type SearchSettings } from '../../../src/core/search';

/** A throwaway workspace folder. */
export class TempWorkspace {
  readonly root = mkdtempSync(join(tmpdir(), 'stratus-search-'));

  write(path: string, content: string | Uint8Array): void {
    const full = join(this.root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }

  remove(path: string): void {
    rmSync(join(this.root, path), { recursive: true, force: true });
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** Timers fired by hand: the debounce and the rerank deadline without sleeping. */
export class ManualTimers {
  private readonly pending = new Map<number, { ms: number; fire: () => void }>();
  private next = 1;
  readonly set = (ms: number, fire: () => void): (() => void) => {
    const id = this.next++;
    this.pending.set(id, { ms, fire });
    return () => this.pending.delete(id);
  };
  get count(): number {
    return this.pending.size;
  }
  /** Fires every pending timer whose delay is `ms` (all when omitted). */
  fire(ms?: number): number {
    let n = 0;
    for (const [id, t] of [...this.pending]) {
      if (ms !== undefined && t.ms !== ms) continue;
      this.pending.delete(id);
      t.fire();
      n++;
    }
    return n;
  }
}

export interface EngineRig {
  engine: SearchEngine;
  storage: MemoryIndexStorage;
  timers: ManualTimers;
  settings: SearchSettings;
  logs: string[];
}

export function recordingLogger(logs: string[]): Logger {
  const push = (level: string) => (m: string | Error) => void logs.push(`${level} ${m instanceof Error ? m.message : m}`);
  return { ...silentLogger, info: push('info'), warn: push('warn'), debug: push('debug'), error: push('error') };
}

export function engineFor(root: string, options: { settings?: Partial<SearchSettings>; storage?: MemoryIndexStorage; inference?: SearchInference; buildWorker?: () => Worker } = {}): EngineRig {
  const storage = options.storage ?? new MemoryIndexStorage();
  const timers = new ManualTimers();
  const settings: SearchSettings = { ...DEFAULT_SEARCH_SETTINGS, ...options.settings, rerank: { ...DEFAULT_SEARCH_SETTINGS.rerank, ...options.settings?.rerank } };
  const logs: string[] = [];
  const inference = options.inference;
  const engine = new SearchEngine({
    fs: new NodeFileSystem(root),
    storage,
    logger: recordingLogger(logs),
    settings: () => settings,
    ...(inference ? { inference: () => inference } : {}),
    ...(options.buildWorker ? { buildWorker: options.buildWorker } : {}),
    setTimer: timers.set,
  });
  return { engine, storage, timers, settings, logs };
}

export const paths = (hits: ReadonlyArray<{ path: string }>): string[] => hits.map((h) => h.path);
