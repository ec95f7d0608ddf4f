// Test order for the host and UI tiers: `forward` (as registered), `reverse`, or `shuffle[:seed]`
// (a seeded Fisher-Yates shuffle, so a failing order can be replayed). Pure: no vscode, no mocha.

export interface TestOrder {
  readonly kind: 'forward' | 'reverse' | 'shuffle';
  /** The seed of a shuffle (given, or drawn when none was). */
  readonly seed?: number;
  /** How to ask for this order again, e.g. `shuffle:1234`. */
  readonly spec: string;
}

/** Parses `forward`, `reverse`, `shuffle` or `shuffle:<seed>`; empty means forward. */
export function parseOrder(raw: string | undefined, drawSeed: () => number = () => Math.floor(Math.random() * 2 ** 31)): TestOrder {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'forward') return { kind: 'forward', spec: 'forward' };
  if (value === 'reverse') return { kind: 'reverse', spec: 'reverse' };
  const match = /^shuffle(?::(\d{1,10}))?$/.exec(value);
  if (!match) throw new Error(`Unknown test order "${value}": use forward, reverse, shuffle or shuffle:<seed>.`);
  const seed = match[1] === undefined ? drawSeed() : Number(match[1]);
  return { kind: 'shuffle', seed, spec: `shuffle:${seed}` };
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
