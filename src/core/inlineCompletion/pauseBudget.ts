import type { SchedulerTimers } from './debounce';

/** Who asks the budget: ghost text at the cursor, or next edit suggestions. */
export type BudgetClient = 'ghostText' | 'nextEdit';

/** Inter-key intervals remembered to learn the typing rhythm. */
export const BUDGET_RHYTHM_SAMPLES = 24;
/** Fewer intervals than this: the rhythm is not known yet. */
export const BUDGET_RHYTHM_MIN_SAMPLES = 6;
/** A gap longer than this is a pause, not part of the typing rhythm. */
export const BUDGET_PAUSE_GAP_MS = 1_000;
/** Timer delays remembered to learn how late this event loop runs timers. */
export const LATENESS_SAMPLES = 16;
/** Lateness counted at most this much (a machine that sleeps is not "loaded"). */
export const MAX_LATENESS_MS = 1_000;
/** A turn of the event loop that ran this late or less ran on time (Node's 0 ms timer takes 1 ms, a busy tick a few). */
export const ON_TIME_MS = 16;
/** Turns of the event loop waited at most for one that runs on time. */
export const MAX_CONFIRM_TURNS = 3;
/** Next edit waits at least this many of the user's p90 inter-key intervals. */
export const NEXT_EDIT_RHYTHM_FACTOR = 3;
/**
 * A pause that lasts this long after ghost text was shown is a pause of its own: next edit may
 * ask once then (the user read the ghost text and did not take it).
 */
export const LONG_PAUSE_MS = 2_000;

/** One admitted request: `signal` aborts at the next keystroke; `done` says whether it showed anything. */
export interface BudgetTicket {
  readonly epoch: number;
  readonly signal: AbortSignal;
  done(showed: boolean): void;
}

/** What the budget saw (the bench and tests read it). */
export interface BudgetStats {
  keystrokes: number;
  granted: Record<BudgetClient, number>;
  /** Waits that ended without a request: a keystroke came first, or the pause was spent. */
  refused: Record<BudgetClient, number>;
  /** In-flight requests aborted by a keystroke. */
  aborted: number;
}

interface Epoch {
  n: number;
  /** Who spent this pause's request, if anyone. */
  spentBy: BudgetClient | undefined;
  /** Ghost text's outcome in this pause: undefined while unknown or in flight. */
  ghostShowed: boolean | undefined;
  /** Ghost text waits for this pause or has a request in flight. */
  ghostBusy: number;
  /** Next edit had its one request of this pause (the long pause's included). */
  nextEditSpent: boolean;
  /** Admitted requests not yet done. */
  open: number;
  readonly abort: AbortController;
  /** Woken when ghost text settles (next edit waits for it). */
  readonly ghostSettled: (() => void)[];
}

/**
 * One request budget per pause for ghost text and next edit suggestions, pure (time and timers are
 * injected). Both features ask it before sending. The keystroke stream (each document change,
 * deduplicated by document version) opens a new pause; a request is admitted only once the pause
 * has lasted (by the clock, after a turn of the event loop so that keystrokes already queued are
 * seen first), and at most one per pause between the two features: ghost text first at the cursor;
 * next edit only when ghost text had nothing to show (it was off, answered nothing, or never asked),
 * or when the pause lasts on (LONG_PAUSE_MS after ghost text was shown). Every wait is lengthened
 * by how late this event loop runs timers (the p90 of the recent lateness), so a loaded machine
 * waits longer and sends fewer, and next edit's wait follows the user's own rhythm. A keystroke
 * aborts the requests of the pause it ends.
 */
export class PauseBudget {
  readonly stats: BudgetStats = { keystrokes: 0, granted: { ghostText: 0, nextEdit: 0 }, refused: { ghostText: 0, nextEdit: 0 }, aborted: 0 };
  private epoch: Epoch = newEpoch(0);
  private lastKeyAt: number | undefined;
  private readonly intervals: number[] = [];
  private readonly lateness: number[] = [];
  private readonly seen = new Map<string, { version: number; offset: number | undefined }>();
  private readonly timers: SchedulerTimers;
  private readonly now: () => number;

  constructor(options: { timers?: SchedulerTimers; now?: () => number } = {}) {
    this.timers = options.timers ?? globalThis;
    this.now = options.now ?? Date.now;
  }

  /**
   * A change of `documentId` to `version` (each feature reports the ones it sees; the same version
   * twice is one keystroke). `offset`, from ghost text, makes a move of the cursor at the same
   * version a new pause too. Without a version every call is a keystroke.
   */
  keystroke(documentId?: string, version?: number, offset?: number): boolean {
    if (documentId !== undefined && version !== undefined) {
      const last = this.seen.get(documentId);
      const moved = offset !== undefined && last?.offset !== undefined && last.offset !== offset;
      if (last && (version < last.version || (version === last.version && !moved))) {
        if (offset !== undefined) last.offset = offset;
        return false;
      }
      this.seen.set(documentId, { version, offset: offset ?? (last?.version === version ? last.offset : undefined) });
      if (this.seen.size > 64) this.seen.delete(this.seen.keys().next().value as string);
    }
    const now = this.now();
    if (this.lastKeyAt !== undefined) {
      const gap = now - this.lastKeyAt;
      if (gap > 0 && gap < BUDGET_PAUSE_GAP_MS) push(this.intervals, gap, BUDGET_RHYTHM_SAMPLES);
    }
    this.lastKeyAt = now;
    this.stats.keystrokes += 1;
    const ended = this.epoch;
    this.stats.aborted += ended.open;
    ended.abort.abort();
    for (const wake of ended.ghostSettled.splice(0)) wake();
    this.epoch = newEpoch(ended.n + 1);
    return true;
  }

  /**
   * `documentId` was closed: its versions are forgotten. A document opened again at the same
   * address (a file reopened, an untitled editor reusing "Untitled-1") numbers its versions from 1
   * again; remembered, its edits would read as late reports of versions already seen, open no
   * pause, and next edit would find the last pause spent for good.
   */
  forget(documentId: string): void {
    this.seen.delete(documentId);
  }

  /** The p90 of the recent inter-key intervals, or undefined while too few are known. */
  rhythmP90(): number | undefined {
    return this.intervals.length < BUDGET_RHYTHM_MIN_SAMPLES ? undefined : p90(this.intervals);
  }

  /** How late this event loop runs timers now (p90 of the recent lateness), 0 when unknown. */
  latenessMs(): number {
    return this.lateness.length === 0 ? 0 : p90(this.lateness);
  }

  /**
   * Ghost text: waits `waitMs` (its trigger's decision) plus the timers' lateness after the last
   * keystroke, then admits its request unless a keystroke came, `signal` aborted or the pause was
   * spent. Undefined: send nothing.
   */
  async ghostText(waitMs: number, signal?: AbortSignal): Promise<BudgetTicket | undefined> {
    const epoch = this.epoch;
    epoch.ghostBusy += 1;
    let ticket: BudgetTicket | undefined;
    try {
      if (!(await this.pause(epoch, waitMs + this.latenessMs(), signal)) || epoch.spentBy !== undefined) return this.refuse('ghostText');
      ticket = this.grant(epoch, 'ghostText');
      return ticket;
    } finally {
      if (!ticket) this.ghostSettle(epoch, undefined);
    }
  }

  /**
   * Ghost text is on its way for this pause (its provider was called and gathers the context
   * before it asks): next edit waits for it until `release()`, so ghost text stays first at the cursor.
   */
  holdForGhostText(): () => void {
    const epoch = this.epoch;
    epoch.ghostBusy += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.ghostSettle(epoch, undefined);
    };
  }

  /** Ghost text showed something without a request (the cache, type-ahead): next edit waits for the long pause. */
  ghostShown(): void {
    this.epoch.ghostShowed = true;
  }

  /**
   * Next edit: waits `idleMs` (or NEXT_EDIT_RHYTHM_FACTOR x the user's p90 inter-key interval, when
   * longer) plus the timers' lateness; then for ghost text when it is asking or answering; then
   * admits the request if ghost text had nothing to show, else only once the pause reaches
   * LONG_PAUSE_MS. Undefined: send nothing.
   */
  async nextEdit(idleMs: number, signal?: AbortSignal): Promise<BudgetTicket | undefined> {
    const epoch = this.epoch;
    const rhythm = this.rhythmP90();
    const wait = Math.max(idleMs, rhythm === undefined ? 0 : rhythm * NEXT_EDIT_RHYTHM_FACTOR);
    if (!(await this.pause(epoch, wait + this.latenessMs(), signal))) return this.refuse('nextEdit');
    while (epoch.ghostBusy > 0 && this.epoch === epoch && !signal?.aborted) await new Promise<void>((r) => epoch.ghostSettled.push(r));
    if (this.epoch !== epoch || signal?.aborted || epoch.nextEditSpent) return this.refuse('nextEdit');
    if (epoch.ghostShowed === true) {
      if (!(await this.pause(epoch, Math.max(wait, LONG_PAUSE_MS) + this.latenessMs(), signal))) return this.refuse('nextEdit');
      if (epoch.nextEditSpent) return this.refuse('nextEdit');
    }
    return this.grant(epoch, 'nextEdit');
  }

  /**
   * Resolves true once `ms` have passed since the last keystroke by the clock, then one more turn
   * of the event loop that ran on time (a timer that ran late ran before the keystrokes queued
   * behind the same busy stretch: one more turn lets them arrive first), with the pause still
   * unbroken; false as soon as a keystroke or `signal` ends it.
   */
  private async pause(epoch: Epoch, ms: number, signal: AbortSignal | undefined): Promise<boolean> {
    for (;;) {
      if (this.epoch !== epoch || signal?.aborted) return false;
      const left = (this.lastKeyAt ?? -Infinity) + ms - this.now();
      if (left <= 0) break;
      if ((await this.sleep(left, epoch, signal)) === undefined) return false;
    }
    for (let turn = 0; turn < MAX_CONFIRM_TURNS; turn++) {
      const late = await this.sleep(0, epoch, signal);
      if (late === undefined) return false;
      if (late <= ON_TIME_MS) break;
    }
    return this.epoch === epoch && signal?.aborted !== true;
  }

  /** A timer of `ms` that records its own lateness; resolves that lateness, or undefined when the pause or `signal` ended first. */
  private sleep(ms: number, epoch: Epoch, signal: AbortSignal | undefined): Promise<number | undefined> {
    return new Promise((resolve) => {
      const due = this.now() + ms;
      const finish = (late: number | undefined): void => {
        epoch.abort.signal.removeEventListener('abort', onAbort);
        signal?.removeEventListener('abort', onAbort);
        resolve(late);
      };
      const handle = this.timers.setTimeout(() => {
        const late = Math.min(MAX_LATENESS_MS, Math.max(0, this.now() - due));
        push(this.lateness, late, LATENESS_SAMPLES);
        finish(this.epoch === epoch ? late : undefined);
      }, ms);
      const onAbort = (): void => {
        this.timers.clearTimeout(handle);
        finish(undefined);
      };
      epoch.abort.signal.addEventListener('abort', onAbort, { once: true });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private grant(epoch: Epoch, client: BudgetClient): BudgetTicket {
    epoch.spentBy ??= client;
    if (client === 'nextEdit') epoch.nextEditSpent = true;
    this.stats.granted[client] += 1;
    epoch.open += 1;
    let settled = false;
    return {
      epoch: epoch.n,
      signal: epoch.abort.signal,
      done: (showed) => {
        if (settled) return;
        settled = true;
        epoch.open -= 1;
        if (client === 'ghostText') this.ghostSettle(epoch, showed);
      },
    };
  }

  private refuse(client: BudgetClient): undefined {
    this.stats.refused[client] += 1;
    return undefined;
  }

  private ghostSettle(epoch: Epoch, showed: boolean | undefined): void {
    epoch.ghostBusy = Math.max(0, epoch.ghostBusy - 1);
    if (showed !== undefined) epoch.ghostShowed = (epoch.ghostShowed ?? false) || showed;
    if (epoch.ghostBusy === 0) for (const wake of epoch.ghostSettled.splice(0)) wake();
  }
}

function newEpoch(n: number): Epoch {
  return { n, spentBy: undefined, ghostShowed: undefined, ghostBusy: 0, nextEditSpent: false, open: 0, abort: new AbortController(), ghostSettled: [] };
}

function push(samples: number[], value: number, max: number): void {
  samples.push(value);
  if (samples.length > max) samples.shift();
}

function p90(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.9 * sorted.length) - 1)] ?? 0;
}
