/**
 * Growth of a parser's cost with its input, without asserting an absolute time: the least CPU
 * time of a few runs at size n and at 8n are compared. A linear parser takes about 8x as long at
 * 8n; a quadratic one 64x, a cubic one 512x. The bound is generous (collector and cache noise).
 *
 * CPU time of this process (`process.cpuUsage()`), never wall time: on a loaded machine (load
 * ~12 on 2 CPUs) a wall-clock run waits for a CPU for as long as the scheduler likes, and the
 * longer run (at 8n) waits more often, so a linear parser read as quadratic. CPU time counts only
 * the work done; the least of several runs drops the runs a collector thread or a cold cache
 * inflated.
 */
import * as assert from 'node:assert/strict';

/** CPU microseconds (user + system, this process) spent by `work()`. */
export function cpuMicros(work: () => void): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

/** CPU microseconds spent by the async `work()` (nothing else may run meanwhile: no server in this process busy). */
export async function cpuMicrosAsync(work: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  await work();
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

/** The least CPU time of `runs` runs of `reps` calls of `work`, in microseconds. */
export function leastCpu(runs: number, reps: number, work: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let k = 0; k < runs; k++) best = Math.min(best, cpuMicros(() => { for (let r = 0; r < reps; r++) work(); }));
  return best;
}

/** How many calls of `work` take at least `targetMicros` of CPU (doubling from 1, at most `cap`). */
export function repsFor(work: () => void, targetMicros = 10_000, cap = 4096): number {
  let reps = 1;
  while (reps < cap && leastCpu(3, reps, work) < targetMicros) reps *= 2;
  return reps;
}

/**
 * Asserts that `work(input(8n))` costs at most `bound` times `work(input(n))` in CPU time
 * (default 40: linear is 8, quadratic 64, cubic 512). Inputs are built before measuring; the
 * call at n is repeated until a run takes ~10 ms of CPU (the same count at 8n), and the least of
 * `runs` interleaved runs is kept for each size. Keep 8n small enough (tens of KB) that the
 * garbage collector's steps do not dominate.
 */
export function assertLinearGrowth<T>(input: (n: number) => T, work: (value: T) => unknown, n: number, options: { bound?: number; runs?: number; label?: string } = {}): { small: number; large: number; ratio: number } {
  const bound = options.bound ?? 40;
  const runs = options.runs ?? 7;
  const smallInput = input(n);
  const largeInput = input(8 * n);
  // Warm up (the first calls compile the code), and find how many calls at n take ~10 ms of CPU.
  for (let k = 0; k < 3; k++) work(smallInput);
  const reps = repsFor(() => work(smallInput));
  // Interleaved, the least of each kept: noise only ever adds CPU time to a run.
  let small = Number.POSITIVE_INFINITY;
  let large = Number.POSITIVE_INFINITY;
  for (let k = 0; k < runs; k++) {
    small = Math.min(small, leastCpu(1, reps, () => work(smallInput)));
    large = Math.min(large, leastCpu(1, reps, () => work(largeInput)));
  }
  const ratio = large / Math.max(small, 1);
  if (process.env.GROWTH_LOG) console.log(options.label, reps, small, large, ratio.toFixed(1));
  assert.ok(ratio <= bound, `${options.label ?? 'work'}: ${large} µs of CPU at 8n against ${small} µs at n (${reps} call(s) each; x${ratio.toFixed(1)}, linear is x8, bound x${bound})`);
  return { small, large, ratio };
}
