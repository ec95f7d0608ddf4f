import assert from 'node:assert/strict';
import { install, type Clock as FakeClock } from '@sinonjs/fake-timers';
import { CancelledError } from '../../../src/core/errors';
import { RateLimiter, type RateLimiterOptions } from '../../../src/core/http/rateLimiter';
import { sleep } from '../../../src/core/http/sleep';

/**
 * Time here is a fake clock: the limiter reads it through its injected `now`, and its waits are
 * `setTimeout`s that only fire when the test ticks. Assertions are about when (on that clock) each
 * caller got its token, never about how long the test took.
 */
let clock: FakeClock;

/** Fake timers for the suites below only (a root-level hook would apply to every unit test). */
function useFakeClock(): void {
  beforeEach(() => {
    clock = install({ toFake: ['setTimeout', 'clearTimeout'], now: 0 });
  });
  afterEach(() => {
    clock.uninstall();
  });
}

function limiter(options: RateLimiterOptions): RateLimiter {
  return new RateLimiter({ ...options, now: () => clock.now });
}

/** Starts `acquire` and records the fake time at which it resolved (or 'cancelled'). */
function track(promise: Promise<void>): { at: number | 'cancelled' | undefined } {
  const result: { at: number | 'cancelled' | undefined } = { at: undefined };
  promise.then(
    () => (result.at = clock.now),
    (error: unknown) => {
      if (!(error instanceof CancelledError)) throw error;
      result.at = 'cancelled';
    },
  );
  return result;
}

describe('http/rate-limiter', () => {
  useFakeClock();

  it('lets a burst through, then paces to the rate, per key', async () => {
    const rl = limiter({ limits: { iam: { ratePerSecond: 20, burst: 2 } } });
    const calls = [1, 2, 3, 4].map(() => track(rl.acquire('iam')));
    const unlimited = track(rl.acquire('compute')); // no limit for this key
    await clock.tickAsync(0);
    assert.deepEqual(calls.map((c) => c.at), [0, 0, undefined, undefined], 'the burst of 2 goes at once');
    assert.equal(unlimited.at, 0);
    await clock.tickAsync(49);
    assert.equal(calls[2]?.at, undefined, 'not before 1/20 s');
    await clock.runAllAsync();
    assert.deepEqual(calls.map((c) => c.at), [0, 0, 50, 100], 'then one token every 50 ms');
  });

  it('refills while idle, up to the burst size only', async () => {
    const rl = limiter({ limits: { iam: { ratePerSecond: 10, burst: 2 } } });
    await rl.acquire('iam');
    await rl.acquire('iam');
    await clock.tickAsync(10_000); // a long quiet period refills at most `burst` tokens
    const calls = [1, 2, 3].map(() => track(rl.acquire('iam')));
    await clock.runAllAsync();
    assert.deepEqual(calls.map((c) => c.at), [10_000, 10_000, 10_100]);
  });

  it('applies the default limit to keys without their own, and serves callers in order', async () => {
    const rl = limiter({ defaultLimit: { ratePerSecond: 50, burst: 1 } });
    const order: number[] = [];
    const all = Promise.all([1, 2, 3].map((n) => rl.acquire('network').then(() => order.push(n))));
    await clock.runAllAsync();
    await all;
    assert.deepEqual(order, [1, 2, 3]);
    assert.equal(clock.now, 40, 'two paced tokens at 50 r/s');
  });

  it('keeps separate buckets per key', async () => {
    const rl = limiter({ defaultLimit: { ratePerSecond: 1, burst: 1 } });
    const a = [track(rl.acquire('a')), track(rl.acquire('a'))];
    const b = track(rl.acquire('b'));
    await clock.tickAsync(0);
    assert.deepEqual([a[0]?.at, a[1]?.at, b.at], [0, undefined, 0]);
    await clock.runAllAsync();
    assert.equal(a[1]?.at, 1000);
  });

  it('rejects a waiting caller on abort without blocking the next one', async () => {
    const rl = limiter({ defaultLimit: { ratePerSecond: 5, burst: 1 } });
    await rl.acquire('k');
    const controller = new AbortController();
    const waiting = rl.acquire('k', controller.signal);
    controller.abort();
    await assert.rejects(waiting, CancelledError);
    const next = track(rl.acquire('k'));
    await clock.runAllAsync();
    assert.equal(next.at, 200, 'the next caller gets the token the cancelled one did not take');
  });
});

describe('http/sleep', () => {
  useFakeClock();

  it('resolves when its time has come on the clock, not before', async () => {
    const done = track(sleep(1_000));
    await clock.tickAsync(999);
    assert.equal(done.at, undefined);
    await clock.tickAsync(1);
    assert.equal(done.at, 1_000);
  });

  it('is abortable, and leaves no timer behind', async () => {
    const controller = new AbortController();
    const p = track(sleep(10_000, controller.signal));
    await clock.tickAsync(10);
    controller.abort();
    await clock.tickAsync(0);
    assert.equal(p.at, 'cancelled');
    assert.equal(clock.now, 10);
    assert.equal(clock.countTimers(), 0);
  });

  it('rejects at once for a signal aborted before the call', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(sleep(1_000, controller.signal), CancelledError);
    assert.equal(clock.countTimers(), 0);
  });
});

describe('RateLimiter: abort while queued', () => {
  useFakeClock();

  it('rejects a queued caller as soon as its signal aborts, and its turn takes no token', async () => {
    const rl = limiter({ defaultLimit: { ratePerSecond: 5, burst: 1 } });
    await rl.acquire('k');
    const queued = Array.from({ length: 5 }, () => track(rl.acquire('k')));
    const controller = new AbortController();
    const mine = track(rl.acquire('k', controller.signal));
    const after = track(rl.acquire('k'));
    await clock.tickAsync(50);
    controller.abort();
    await clock.tickAsync(0);
    assert.equal(mine.at, 'cancelled', 'told at once, while 5 callers are still ahead of it');
    assert.equal(queued[0]?.at, undefined);
    await clock.runAllAsync();
    assert.deepEqual(queued.map((q) => q.at), [200, 400, 600, 800, 1000]);
    assert.equal(after.at, 1200, 'the cancelled turn took no token');
  });
});
