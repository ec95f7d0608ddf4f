/**
 * One list of files indexed by two threads from its two ends, in batches, through three shared
 * counters: the index worker takes from the front, the build worker from the back, until they
 * meet. Neither idles while files are left, whatever the files' sizes, and each end stays in list
 * order (the index ends up numbered as one thread reading the list would number it).
 *
 * The build worker may start before the list is complete: the walk hands it the files from the
 * end of the list first (see `Indexer.walk`), and `total` stays unknown (-1) until the walk ends;
 * the index worker takes nothing before that.
 */
const TAKEN = 0;
const TOTAL = 1;
const PUBLISHED = 2;

export class FileClaims {
  private readonly shared: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer) {
    this.shared = new Int32Array(buffer, 0, 3);
  }

  /** A fresh list: nothing taken, its length unknown. */
  static create(): FileClaims {
    const claims = new FileClaims(new SharedArrayBuffer(12));
    Atomics.store(claims.shared, TOTAL, -1);
    return claims;
  }

  /** The list's length, -1 while unknown. */
  get total(): number {
    return Atomics.load(this.shared, TOTAL);
  }

  get published(): number {
    return Atomics.load(this.shared, PUBLISHED);
  }

  /** Says that `n` more files (from the end of the list) were sent to the build worker, and wakes it. */
  publish(n: number): void {
    Atomics.add(this.shared, PUBLISHED, n);
    Atomics.notify(this.shared, PUBLISHED);
  }

  /** Says the list is complete (every file sent first), and wakes the build worker. */
  end(total: number): void {
    Atomics.store(this.shared, TOTAL, total);
    Atomics.add(this.shared, PUBLISHED, 0);
    Atomics.notify(this.shared, PUBLISHED);
  }

  /** Waits (a worker thread only) until more files were published than `seen`, the list ended, or `ms` passed. */
  waitForMore(seen: number, ms: number): void {
    if (this.total >= 0) return;
    Atomics.wait(this.shared, PUBLISHED, seen, ms);
  }

  /**
   * Takes up to `n` files, leaving `leave` to the other end once the list is complete; `known`
   * is how many files the taker knows of (the build worker: those it was sent). How many were
   * taken (0: none left).
   */
  take(n: number, leave = 0, known = Number.POSITIVE_INFINITY): number {
    for (;;) {
      const total = Atomics.load(this.shared, TOTAL);
      const taken = Atomics.load(this.shared, TAKEN);
      const limit = total < 0 ? known : Math.min(known, total - leave);
      const k = Math.min(n, limit - taken);
      if (k <= 0) return 0;
      if (Atomics.compareExchange(this.shared, TAKEN, taken, taken + k) === taken) return k;
    }
  }
}
