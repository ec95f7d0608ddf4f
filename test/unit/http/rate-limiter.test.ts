import assert from 'node:assert/strict';
import { CancelledError } from '../../../src/core/errors';
import { RateLimiter } from '../../../src/core/http/rate-limiter';
import { sleep } from '../../../src/core/http/sleep';

describe('http/rate-limiter', () => {
  it('lets a burst through, then paces to the rate, per key', async () => {
    const limiter = new RateLimiter({ limits: { iam: { ratePerSecond: 20, burst: 2 } } });
    const started = performance.now();
    await limiter.acquire('iam');
    await limiter.acquire('iam');
    assert.ok(performance.now() - started < 20, 'burst is immediate');
    await limiter.acquire('iam');
    await limiter.acquire('iam');
    const elapsed = performance.now() - started;
    assert.ok(elapsed >= 85 && elapsed < 400, `two paced tokens at 20 r/s took ${elapsed} ms`);
    const other = performance.now();
    await limiter.acquire('compute'); // no limit for this key
    assert.ok(performance.now() - other < 20);
  });

  it('applies the default limit to keys without their own, and serves callers in order', async () => {
    const limiter = new RateLimiter({ defaultLimit: { ratePerSecond: 50, burst: 1 } });
    const order: number[] = [];
    await Promise.all([1, 2, 3].map((n) => limiter.acquire('network').then(() => order.push(n))));
    assert.deepEqual(order, [1, 2, 3]);
  });

  it('rejects a waiting caller on abort without blocking the next one', async () => {
    const limiter = new RateLimiter({ defaultLimit: { ratePerSecond: 5, burst: 1 } });
    await limiter.acquire('k');
    const controller = new AbortController();
    const waiting = limiter.acquire('k', controller.signal);
    controller.abort();
    await assert.rejects(waiting, CancelledError);
    await limiter.acquire('k'); // still gets its token after ~200 ms
  });
});

describe('http/sleep', () => {
  it('is abortable', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const p = sleep(10_000, controller.signal);
    setTimeout(() => controller.abort(), 10);
    await assert.rejects(p, CancelledError);
    assert.ok(performance.now() - started < 1000);
  });
});

describe('RateLimiter: abort while queued', () => {
  it('rejects a queued caller as soon as its signal aborts, and its turn takes no token', async () => {
    const limiter = new RateLimiter({ defaultLimit: { ratePerSecond: 5, burst: 1 } });
    await limiter.acquire('k');
    const queued = Array.from({ length: 5 }, () => limiter.acquire('k'));
    const controller = new AbortController();
    const started = performance.now();
    const mine = limiter.acquire('k', controller.signal);
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(mine, (error: Error) => error.name === 'CancelledError');
    const waited = performance.now() - started;
    assert.ok(waited < 400, `settled ${waited.toFixed(0)} ms after the call; the queue ahead needs ~1000 ms`);
    await Promise.all(queued);
  });
});
