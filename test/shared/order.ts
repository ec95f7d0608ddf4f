// Test order for the host and UI tiers: `forward` (as registered), `reverse`, or `shuffle[:seed]`
// (a seeded Fisher-Yates shuffle, so a failing order can be replayed). By default only the
// top-level suites (one per file) move; a `+tests` suffix (e.g. `shuffle:7+tests`) also reorders
// the tests inside every suite. Pure: no vscode, no mocha.

export interface TestOrder {
  readonly kind: 'forward' | 'reverse' | 'shuffle';
  /** The seed of a shuffle (given, or drawn when none was). */
  readonly seed?: number;
  /** Reorder the tests inside each suite too, not only the top-level suites. */
  readonly withinSuites: boolean;
  /** How to ask for this order again, e.g. `shuffle:1234`. */
  readonly spec: string;
}

const USAGE = 'use forward, reverse, shuffle or shuffle:<seed>, optionally followed by +tests';

/** Parses `forward`, `reverse`, `shuffle` or `shuffle:<seed>` (each optionally `+tests`); empty means forward. */
export function parseOrder(raw: string | undefined, drawSeed: () => number = () => Math.floor(Math.random() * 2 ** 31)): TestOrder {
  const match = /^(forward|reverse|shuffle(?::(\d{1,10}))?)?(\+tests)?$/.exec((raw ?? '').trim());
  if (!match || (match[1] === undefined && match[3] !== undefined)) throw new Error(`Unknown test order "${raw ?? ''}": ${USAGE}.`);
  const withinSuites = match[3] !== undefined;
  const suffix = withinSuites ? '+tests' : '';
  const head = match[1] ?? 'forward';
  if (head === 'forward' || head === 'reverse') return { kind: head, withinSuites, spec: `${head}${suffix}` };
  const seed = match[2] === undefined ? drawSeed() : Number(match[2]);
  return { kind: 'shuffle', seed, withinSuites, spec: `shuffle:${seed}${suffix}` };
}

/** mulberry32: a small deterministic PRNG, enough to shuffle a handful of suites. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A new array in the given order; the input is not changed. */
export function applyOrder<T>(items: readonly T[], order: TestOrder): T[] {
  const copy = [...items];
  if (order.kind === 'reverse') return copy.reverse();
  if (order.kind === 'shuffle') {
    const next = random(order.seed ?? 0);
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
  }
  return copy;
}

/** The parts of a mocha suite that ordering touches (kept structural: no mocha import). */
export interface OrderableSuite<S extends OrderableSuite<S>> {
  tests: unknown[];
  suites: S[];
}

/** Reorders `root`'s child suites in place, and with `+tests` every suite's tests, recursively. */
export function orderSuites<S extends OrderableSuite<S>>(root: OrderableSuite<S>, order: TestOrder): void {
  root.suites.splice(0, root.suites.length, ...applyOrder(root.suites, order));
  if (!order.withinSuites) return;
  const deep = (suite: OrderableSuite<S>): void => {
    suite.tests.splice(0, suite.tests.length, ...applyOrder(suite.tests, order));
    suite.suites.forEach(deep);
  };
  root.suites.forEach(deep);
}

/**
 * A new array where the items of one key follow each other, each group at the place of its first
 * item, in their order within it (the UI tier runs the suites that share a workbench together).
 */
export function groupTogether<T>(items: readonly T[], keyOf: (item: T, index: number) => string): T[] {
  const groups = new Map<string, T[]>();
  items.forEach((item, index) => {
    const key = keyOf(item, index);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  });
  return [...groups.values()].flat();
}

/** JSON with every object's keys sorted: the same for values equal but for the order of their keys. */
export function stableKey(value: unknown): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sorted) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, x]) => [k, sorted(x)])) : v;
  return JSON.stringify(sorted(value)) ?? 'undefined';
}
