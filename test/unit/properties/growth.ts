/**
 * Growth of a parser's cost with its input, without asserting an absolute time: the best of a few
 * runs at size n and at 8n are compared. A linear parser takes about 8x as long at 8n; a quadratic
 * one 64x, a cubic one 512x. The bound is generous (timer noise and garbage collection).
 */
import * as assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';

/** The best time of `runs` runs of `reps` calls of `work`. */
function bestOf(runs: number, reps: number, work: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let k = 0; k < runs; k++) {
    const start = performance.now();
    for (let r = 0; r < reps; r++) work();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/**
 * Asserts that `work(input(8n))` costs at most `bound` times `work(input(n))` (default 40: linear
 * is 8, quadratic 64, cubic 512). Inputs are built before timing; the call at n is repeated
 * until a run takes a few milliseconds (the same count at 8n), and the best of `runs` runs is kept
 * for each size. Keep 8n small enough (tens of KB) that the garbage collector's steps do not
 * dominate.
 */
export function assertLinearGrowth<T>(input: (n: number) => T, work: (value: T) => unknown, n: number, options: { bound?: number; runs?: number; label?: string } = {}): { small: number; large: number; ratio: number } {
  const bound = options.bound ?? 40;
  const runs = options.runs ?? 7;
  const smallInput = input(n);
  const largeInput = input(8 * n);
  // Warm up (the first calls compile the code), and find how many calls at n take ~5 ms.
  for (let k = 0; k < 3; k++) work(smallInput);
  let reps = 1;
  while (reps < 4096 && bestOf(3, reps, () => work(smallInput)) < 5) reps *= 2;
  // Interleaved, the best of each kept: a loaded machine only slows a run down.
  let small = Number.POSITIVE_INFINITY;
  let large = Number.POSITIVE_INFINITY;
  for (let k = 0; k < runs; k++) {
    small = Math.min(small, bestOf(1, reps, () => work(smallInput)));
    large = Math.min(large, bestOf(1, reps, () => work(largeInput)));
  }
  const ratio = large / small;
  if (process.env.GROWTH_LOG) console.log(options.label, reps, small.toFixed(2), large.toFixed(2), ratio.toFixed(1));
  assert.ok(ratio <= bound, `${options.label ?? 'work'}: ${large.toFixed(2)} ms at 8n against ${small.toFixed(2)} ms at n (${reps} call(s) each; x${ratio.toFixed(1)}, linear is x8, bound x${bound})`);
  return { small, large, ratio };
}
