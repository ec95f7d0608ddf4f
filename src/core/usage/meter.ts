import type { Logger } from '../log';
import { sleep as realSleep } from '../http/sleep';
import type { UsageEvent, UsageListener } from './events';
import { COUNTER_KEYS, Ledger } from './ledger';
import { DEFAULT_USAGE_SETTINGS, type UsageSettings } from './settings';
import type { UsageStore } from './store';
import { validEvent } from './validate';
import { summarize, type UsageSnapshot } from './summary';

/** Changes whenever a request is added, folded differently, or the rate-limit headers change. */
function signature(ledger: Ledger): string {
  const c = ledger.total(-Infinity, Infinity);
  return `${ledger.size}|${COUNTER_KEYS.map((k) => c[k]).join('|')}|${ledger.rateLimit?.at ?? ''}`;
}

export interface UsageMeterOptions {
  /** Where events persist; none: in memory only. */
  store?: UsageStore | undefined;
  timeZone: string;
  now?: () => number;
  settings?: () => UsageSettings;
  logger?: Logger;
  /** Compact (fold this window's file into the shared base) after this many events. Default 200. */
  compactEvery?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Counts what every inference response reports. Events apply to the in-memory ledger at once
 * (live figures), and are appended to this window's file in the background, one operation at a
 * time; `refresh()` merges in what other windows wrote.
 */
export class UsageMeter {
  private ledger: Ledger;
  private readonly store: UsageStore | undefined;
  private readonly now: () => number;
  private readonly settings: () => UsageSettings;
  private readonly logger: Logger | undefined;
  private readonly compactEvery: number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private queue: Promise<void> = Promise.resolve();
  /** Recorded, not yet written. */
  private pending: UsageEvent[] = [];
  private sinceCompaction = 0;
  private readonly listeners = new Set<() => void>();
  /** Hand this to the inference client (`onUsage`). */
  readonly listener: UsageListener = (event) => this.record(event);

  constructor(options: UsageMeterOptions) {
    this.store = options.store;
    this.now = options.now ?? Date.now;
    this.settings = options.settings ?? ((): UsageSettings => DEFAULT_USAGE_SETTINGS);
    this.logger = options.logger;
    this.compactEvery = options.compactEvery ?? 200;
    this.sleep = options.sleep ?? realSleep;
    this.ledger = new Ledger(options.timeZone);
  }

  get timeZone(): string {
    return this.ledger.timeZone;
  }

  /** Called for every response. Never throws: a bad event is dropped and logged. */
  record(event: UsageEvent): void {
    if (!validEvent(event)) {
      this.logger?.warn('Usage: dropped an event with an unexpected shape.');
      return;
    }
    this.ledger.add(event);
    if (this.store) {
      this.pending.push(event);
      // Failures are logged by the queue; the events stay pending for the next write.
      this.enqueue(() => this.writePending()).catch(() => undefined);
    }
    this.notify();
  }

  /** Figures at `now` with the current settings. */
  snapshot(): UsageSnapshot {
    return summarize(this.ledger, this.settings(), this.now());
  }

  currentSettings(): UsageSettings {
    return this.settings();
  }

  /** A copy of the ledger, for exports and tests. */
  ledgerCopy(): Ledger {
    return this.ledger.clone();
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Waits until every recorded event is written. */
  flush(): Promise<void> {
    return this.enqueue(() => this.writePending());
  }

  /** Merges what every window wrote (and compacts this window's file first when asked). */
  refresh(options: { compact?: boolean } = {}): Promise<void> {
    return this.enqueue(async () => {
      const store = this.store;
      if (!store) return;
      await this.writePending();
      if (options.compact) {
        await store.compact();
        this.sinceCompaction = 0;
      }
      const loaded = await store.load();
      if (loaded.skippedLines > 0) this.logger?.warn(`Usage: skipped ${loaded.skippedLines} unreadable line(s) in the usage files.`);
      if (loaded.baseRecovered) this.logger?.warn('Usage: the usage summary file was unreadable; it is rebuilt from the event files.');
      // Events recorded while loading are not on disk yet: keep them.
      for (const e of this.pending) loaded.ledger.add(e);
      const changed = signature(loaded.ledger) !== signature(this.ledger);
      this.ledger = loaded.ledger;
      // A periodic refresh that found nothing new does not redraw the view.
      if (changed) this.notify();
    });
  }

  /** Empties the statistics of every window. */
  reset(): Promise<void> {
    return this.enqueue(async () => {
      const store = this.store;
      this.pending = [];
      if (store) {
        for (let attempt = 0; !(await store.compact({ reset: true })); attempt++) {
          if (attempt >= 50) throw new Error('Another window keeps the usage files locked; try again.');
          await this.sleep(100);
        }
      }
      this.ledger = new Ledger(this.ledger.timeZone);
      this.notify();
    });
  }

  private async writePending(): Promise<void> {
    const store = this.store;
    if (!store || this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    try {
      await store.append(batch);
    } catch (error) {
      // Keep them for the next attempt rather than losing them.
      this.pending = batch.concat(this.pending);
      throw error;
    }
    this.sinceCompaction += batch.length;
    if (this.sinceCompaction >= this.compactEvery) {
      this.sinceCompaction = 0;
      await store.compact();
    }
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(task);
    this.queue = run.catch((error: unknown) => {
      this.logger?.warn(`Usage: could not update the usage files: ${error instanceof Error ? error.message : String(error)}`);
    });
    return run;
  }

  private notify(): void {
    for (const l of [...this.listeners]) {
      try {
        l();
      } catch (error) {
        this.logger?.warn(`Usage: a listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}
