import assert from 'node:assert/strict';
import { CONTRACT_RATE_LIMITS, createConsoleClient } from '../../../src/core/console/index';
import { CancelledError } from '../../../src/core/errors';
import { delay, Fixtures, maxInWindow } from './helpers';

/**
 * Counted on the wire: a proxy in front of the sandbox records when each request arrives, and the
 * busiest sliding one-second window per module must stay within the server's limit.
 */
describe('console/rate limiting', function () {
  this.timeout(120_000);
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  async function burst(total: number, perModule: number, kinds: readonly string[]) {
    const sb = await fx.sandbox({ consoleRateLimits: { perModule, auth: 5 }, vmCount: 3 });
    const proxy = await fx.proxy(sb.consoleUrl);
    const client = fx.track(
      createConsoleClient({
        baseUrl: proxy.url,
        pat: { id: async () => sb.credentials.patId, secret: async () => sb.credentials.patSecret },
        rateLimits: { perModule },
      }),
    );
    const started = performance.now();
    const pages = await Promise.all(Array.from({ length: total }, (_, i) => client.list(kinds[i % kinds.length] ?? 'roles', { limit: 1 })));
    const elapsed = performance.now() - started;
    assert.equal(pages.length, total);
    const api = proxy.arrivals.filter((a) => !a.path.includes('/auth/'));
    assert.equal(api.length, total, 'one request each: nothing was refused and retried');
    assert.equal(api.filter((a) => a.status === 429).length, 0);
    const byModule = new Map<string, number[]>();
    for (const a of api) {
      const module = a.path.split('/')[2] ?? '';
      byModule.set(module, [...(byModule.get(module) ?? []), a.at]);
    }
    return { elapsed, busiest: [...byModule.values()].map((times) => maxInWindow(times, 1_000)) };
  }

  it(`keeps each module under the contract's ${CONTRACT_RATE_LIMITS.perModule} r/s, modules in parallel`, async () => {
    const { busiest, elapsed } = await burst(60, CONTRACT_RATE_LIMITS.perModule, ['virtualMachines', 'users']);
    for (const n of busiest) assert.ok(n <= 25, `a module saw ${n} requests in one second`);
    assert.equal(busiest.length, 2);
    // 30 per module at ~22.5 r/s each, side by side: about 1.3 s, not the 2.6 s of a shared budget.
    assert.ok(elapsed < 2_200, `took ${elapsed.toFixed(0)} ms`);
  });

  it('1,000 concurrent requests never exceed the limit on the wire (limit scaled to 500 r/s)', async () => {
    // The same limiter at 20x the contract's rate, so the test takes ~2 s instead of ~45 s.
    const { busiest } = await burst(1_000, 500, ['virtualMachines']);
    assert.ok((busiest[0] ?? 0) <= 500, `busiest second: ${busiest[0]}`);
    // Timer granularity (a few ms per wait) keeps the limiter below its nominal 450 r/s at this scale.
    assert.ok((busiest[0] ?? 0) >= 250, `and the budget is actually used (${busiest[0]})`);
  });

  it('an aborted request waiting in the limiter queue rejects at once and is never sent', async () => {
    const sb = await fx.sandbox({});
    const client = fx.client(sb);
    await client.auth.signIn();
    const queued = Array.from({ length: 20 }, () => client.list('roles', { limit: 1 }));
    const controller = new AbortController();
    const mine = client.list('roles', { limit: 1, signal: controller.signal });
    await delay(50);
    const started = performance.now();
    controller.abort();
    await assert.rejects(mine, CancelledError);
    assert.ok(performance.now() - started < 30, 'not when its turn comes (~900 ms later)');
    await Promise.all(queued);
    await delay(100);
    assert.equal(sb.control.requests({ pathPrefix: '/api/iam/v2/roles' }).length, 20);
  });
  // The full 1,000 expansions at the real 25 r/s (~45 s) is measured by `npm run bench` (bench/console).
});
