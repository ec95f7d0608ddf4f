// Small helpers shared by bench/console.mjs and bench/console/child.mjs.

export { median } from '../lib.mjs';

/**
 * The busiest window: the most times t_i..t_j with t_j - t_i < windowMs (a sliding window that
 * may start anywhere, as the server's per-IP limiter sees it). Returns { count, startMs }.
 */
export function busiestWindow(times, windowMs = 1000) {
  const s = [...times].filter(Number.isFinite).sort((a, b) => a - b);
  let best = 0;
  let startMs;
  for (let i = 0, j = 0; j < s.length; j++) {
    while (s[j] - s[i] >= windowMs) i++;
    if (j - i + 1 > best) {
      best = j - i + 1;
      startMs = s[i];
    }
  }
  return { count: best, startMs };
}
