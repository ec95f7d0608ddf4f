/**
 * Exponential backoff with full jitter (AWS architecture blog): a uniform draw in
 * [0, min(cap, base * 2^attempt)], which spreads out clients that failed together.
 * `attempt` counts retries from 0.
 */
export function fullJitterDelay(
  attempt: number,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt));
  return Math.floor(random() * ceiling);
}

/** `value` clamped to [min, max] (±Infinity included); `fallback` when it is not a number or NaN. */
function inRange(value: unknown, min: number, max: number, fallback: number): number {
  if (typeof value !== 'number' || Number.isNaN(value)) return fallback;
  return Math.min(max, Math.max(min, value));
}

/**
 * Retry options as they may come from settings or callers (NaN, negative, a string in a hand-edited
 * settings.json), range-checked field by field: an unusable value is the default, never a wait
 * of NaN (which sleeps through any Retry-After) or an attempt count of NaN.
 */
export function checkedRetry<T extends { attempts: number; baseDelayMs: number; maxDelayMs: number; maxWaitMs: number }>(value: T, defaults: Readonly<T>, maxAttempts: number, maxWaitMs: number): T {
  return {
    ...value,
    attempts: Math.floor(inRange(value.attempts, 1, maxAttempts, defaults.attempts)),
    baseDelayMs: inRange(value.baseDelayMs, 0, maxWaitMs, defaults.baseDelayMs),
    maxDelayMs: inRange(value.maxDelayMs, 0, maxWaitMs, defaults.maxDelayMs),
    maxWaitMs: inRange(value.maxWaitMs, 0, maxWaitMs, defaults.maxWaitMs),
  };
}

/** Timeouts the same way: a positive number of ms up to `max`, else the default. */
export function checkedTimeout(value: unknown, fallback: number, max: number): number {
  return typeof value === 'number' && value > 0 ? Math.min(value, max) : fallback;
}
