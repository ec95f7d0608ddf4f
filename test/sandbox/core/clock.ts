/** Where the sandbox reads time and schedules its waits: `globalThis`, or a fake-timers clock. */
export interface SandboxTimers {
  Date: { now(): number };
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * The sandbox's notion of time. `now()` is wall time plus an offset that the control surface can
 * advance (rate-limit windows, JWT expiry and activity progress all read this clock), and
 * `sleep()` timers are tracked so `close()` can cancel them: nothing keeps running after close.
 */
export class Clock {
  private offset = 0;
  private closed = false;
  private readonly pending = new Map<unknown, () => void>();

  /** `timers` defaults to the real ones; tests pass a `@sinonjs/fake-timers` clock to drive time. */
  constructor(private readonly timers: SandboxTimers = globalThis) {}

  now(): number {
    return this.timers.Date.now() + this.offset;
  }

  nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }

  iso(ms: number = this.now()): string {
    return new Date(ms).toISOString();
  }

  advance(ms: number): void {
    this.offset += ms;
  }

  resetOffset(): void {
    this.offset = 0;
  }

  get offsetMs(): number {
    return this.offset;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Resolves after `ms` (on the timers' clock), or at once when the clock is closed. Never rejects. */
  sleep(ms: number): Promise<void> {
    if (this.closed || ms <= 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = this.timers.setTimeout(() => {
        this.pending.delete(timer);
        resolve();
      }, ms);
      this.pending.set(timer, resolve);
    });
  }

  close(): void {
    this.closed = true;
    for (const [timer, resolve] of this.pending) {
      this.timers.clearTimeout(timer);
      resolve();
    }
    this.pending.clear();
  }

  get pendingTimers(): number {
    return this.pending.size;
  }
}
