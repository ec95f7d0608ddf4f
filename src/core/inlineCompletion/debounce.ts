/** The timer functions the scheduler uses: the real ones, or a fake clock in tests. */
export interface SchedulerTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * Default wait after the last keystroke before a request: 100 ms, inside the range of Continue
 * (~150 ms) and Copilot (~75 ms for its own requests): short enough that a pause feels instant,
 * long enough to skip the keystrokes of a word typed at 60-120 ms per key.
 */
export const DEFAULT_DEBOUNCE_MS = 100;

/** A job run after the debounce; its signal aborts when the next keystroke arrives. */
export type DebouncedJob<T> = (signal: AbortSignal) => Promise<T>;

/** The outcome of one `schedule()`: the job's value, or `superseded` when a newer keystroke won. */
export type Scheduled<T> = { kind: 'ran'; value: T } | { kind: 'superseded' };

/**
 * One pending completion per editor: each `schedule()` (a keystroke) cancels the pending timer
 * and aborts the request in flight (AbortController), then waits `delayMs` before running the
 * new job. A superseded call resolves `superseded` at once; it never rejects for that.
 */
export class DebounceScheduler {
  private timer: unknown;
  private controller: AbortController | undefined;
  private settlePending: (() => void) | undefined;

  constructor(
    private readonly timers: SchedulerTimers = globalThis,
    private delayMs: number = DEFAULT_DEBOUNCE_MS,
  ) {}

  get delay(): number {
    return this.delayMs;
  }

  setDelay(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('delay must be a number >= 0');
    this.delayMs = ms;
  }

  /** Runs `job` after the delay unless another call comes first; `signal` is the caller's own. */
  schedule<T>(job: DebouncedJob<T>, signal?: AbortSignal, delayMs = this.delayMs): Promise<Scheduled<T>> {
    this.cancel();
    const controller = new AbortController();
    this.controller = controller;
    const onCallerAbort = (): void => {
      if (this.controller === controller) this.cancel();
    };
    if (signal?.aborted) {
      this.controller = undefined;
      return Promise.resolve({ kind: 'superseded' });
    }
    signal?.addEventListener('abort', onCallerAbort, { once: true });
    return new Promise<Scheduled<T>>((resolve, reject) => {
      const superseded = (): void => {
        signal?.removeEventListener('abort', onCallerAbort);
        resolve({ kind: 'superseded' });
      };
      this.settlePending = superseded;
      this.timer = this.timers.setTimeout(() => {
        this.timer = undefined;
        this.settlePending = undefined;
        job(controller.signal).then(
          (value) => resolve(controller.signal.aborted ? { kind: 'superseded' } : { kind: 'ran', value }),
          (error: unknown) => (controller.signal.aborted ? resolve({ kind: 'superseded' }) : reject(error)),
        ).finally(() => {
          signal?.removeEventListener('abort', onCallerAbort);
          if (this.controller === controller) this.controller = undefined;
        });
      }, delayMs);
    });
  }

  /** Cancels the pending timer and aborts the request in flight (the user typed or left). */
  cancel(): void {
    if (this.timer !== undefined) {
      this.timers.clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.settlePending?.();
    this.settlePending = undefined;
    this.controller?.abort();
    this.controller = undefined;
  }

  /** A request is waiting for its timer or running. */
  get busy(): boolean {
    return this.controller !== undefined;
  }
}
