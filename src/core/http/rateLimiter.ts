import { abortable } from '../abortable';
import { CancelledError } from '../errors';
import { sleep } from './sleep';

export interface RateLimit {
  /** Sustained requests per second. */
  ratePerSecond: number;
  /** Bucket size: how many requests may go at once after a quiet period. Default: ratePerSecond. */
  burst?: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
  limit: Required<RateLimit>;
  /** Callers queue per key so they are served in order instead of racing for refills. */
  tail: Promise<void>;
}

export interface RateLimiterOptions {
  /** Limit for keys without their own entry; omit to leave such keys unlimited. */
  defaultLimit?: RateLimit;
  /** Per-key limits, e.g. `{ iam: {ratePerSecond: 25}, auth: {ratePerSecond: 5} }`. */
  limits?: Record<string, RateLimit>;
  now?: () => number;
}

/**
 * Client-side token buckets, one per key (for the console: one per module and a stricter one for
 * authentication), so we stay under the server's r/s limits instead of collecting 429s.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly now: () => number;

  constructor(private readonly options: RateLimiterOptions = {}) {
    this.now = options.now ?? ((): number => performance.now());
  }

  /** Resolves when a request under `key` may be sent; rejects with CancelledError on abort. */
  acquire(key: string, signal?: AbortSignal): Promise<void> {
    const bucket = this.bucket(key);
    if (!bucket) return Promise.resolve();
    const turn = bucket.tail.then(() => this.take(bucket, signal));
    // The next caller waits for this one's turn, whether it succeeded or was cancelled.
    bucket.tail = turn.catch(() => undefined);
    // A caller that gives up while queued is told at once; its turn, when it comes, takes no token.
    return abortable(turn, signal);
  }

  private async take(bucket: Bucket, signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      if (signal?.aborted) throw new CancelledError();
      this.refill(bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return;
      }
      const waitMs = ((1 - bucket.tokens) / bucket.limit.ratePerSecond) * 1000;
      await sleep(Math.ceil(waitMs), signal);
    }
  }

  private refill(bucket: Bucket): void {
    const now = this.now();
    const elapsed = (now - bucket.updatedAt) / 1000;
    bucket.tokens = Math.min(bucket.limit.burst, bucket.tokens + elapsed * bucket.limit.ratePerSecond);
    bucket.updatedAt = now;
  }

  private bucket(key: string): Bucket | undefined {
    const existing = this.buckets.get(key);
    if (existing) return existing;
    const limit = this.options.limits?.[key] ?? this.options.defaultLimit;
    if (!limit || !(limit.ratePerSecond > 0)) return undefined;
    const burst = Math.max(1, limit.burst ?? limit.ratePerSecond);
    const bucket: Bucket = {
      tokens: burst,
      updatedAt: this.now(),
      limit: { ratePerSecond: limit.ratePerSecond, burst },
      tail: Promise.resolve(),
    };
    this.buckets.set(key, bucket);
    return bucket;
  }
}
