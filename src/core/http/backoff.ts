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
