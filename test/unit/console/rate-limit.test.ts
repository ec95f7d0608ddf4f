import assert from 'node:assert/strict';
import * as FakeTimers from '@sinonjs/fake-timers';
import { CONTRACT_RATE_LIMITS, createConsoleClient, createConsoleRateLimiter, RATE_HEADROOM } from '../../../src/core/console/index';
import { AUTH_LIMIT_KEY } from '../../../src/core/console/catalog/routes';
import { CancelledError } from '../../../src/core/errors';
import { Fixtures, maxInWindow } from './helpers';

type Clock = ReturnType<typeof FakeTimers.install>;

/**
 * The console's client-side limiter on a fake clock (setTimeout and performance.now): the time each
 * request may leave is exact, so the per-second counts are checked without depending on how busy
 * the machine is. The sandbox tests below only check what the server says (no 429, one request each).
 */
describe('console/rate limiting on a fake clock', () => {
  let clock: Clock;
  beforeEach(() => {
    clock = FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
  });
  afterEach(() => clock.uninstall());

  /** Starts `count` acquisitions per key at once; resolves with the fake time each one was granted. */
  async function grants(keys: Record<string, number>, limits = {}): Promise<Record<string, number[]>> {
    const limiter = createConsoleRateLimiter(limits);
    const times: Record<string, number[]> = {};
    const all: Array<Promise<void>> = [];
    for (const [key, count] of Object.entries(keys)) {
      times[key] = [];
      for (let i = 0; i < count; i++) all.push(limiter.acquire(key).then(() => void times[key]?.push(clock.now)));
    }
    const done = Promise.all(all);
    await clock.runAllAsync();
    await done;
    return times;
  }

  it(`1,000 requests to one module never exceed ${CONTRACT_RATE_LIMITS.perModule} in any one-second window, and use the budget`, async () => {
    const { compute = [] } = await grants({ compute: 1_000 });
    assert.equal(compute.length, 1_000);
    assert.ok(maxInWindow(compute, 1_000) <= CONTRACT_RATE_LIMITS.perModule, `busiest second: ${maxInWindow(compute, 1_000)}`);
    // Evenly spaced at 90 % of the limit: 999 gaps of 1/22.5 s.
    const rate = CONTRACT_RATE_LIMITS.perModule * RATE_HEADROOM;
    assert.ok((compute.at(-1) ?? 0) <= Math.ceil((999 / rate) * 1_000) + 999, `last at ${compute.at(-1)} ms`);
    assert.ok(maxInWindow(compute, 1_000) >= Math.floor(rate), 'the budget is used, not wasted');
  });

  it('modules have their own budgets: two modules in parallel take as long as one', async () => {
    const { compute = [], iam = [] } = await grants({ compute: 30, iam: 30 });
    assert.ok(maxInWindow(compute, 1_000) <= 25);
    assert.ok(maxInWindow(iam, 1_000) <= 25);
    assert.equal(maxInWindow([...compute, ...iam], 1_000) > 25, true, 'together more than one module allows');
    assert.ok(Math.max(...compute, ...iam) < 1_400, `done at ${Math.max(...compute, ...iam)} ms of fake time, not the 2.6 s of a shared budget`);
  });

  it(`the PAT exchange stays under its stricter ${CONTRACT_RATE_LIMITS.auth} r/s`, async () => {
    const { [AUTH_LIMIT_KEY]: auth = [] } = await grants({ [AUTH_LIMIT_KEY]: 20 });
    assert.ok(maxInWindow(auth, 1_000) <= CONTRACT_RATE_LIMITS.auth, `busiest second: ${maxInWindow(auth, 1_000)}`);
    const gaps = auth.slice(1).map((t, i) => t - (auth[i] ?? 0));
    assert.ok(gaps.every((g) => g >= 200), `gaps ${gaps.join(',')}`);
  });

  it('an aborted request waiting in the queue rejects at once, and its turn takes no token', async () => {
    const limiter = createConsoleRateLimiter({ perModule: 10 });
    const times: number[] = [];
    const before = Array.from({ length: 5 }, () => limiter.acquire('compute').then(() => void times.push(clock.now)));
    const controller = new AbortController();
    const mine = limiter.acquire('compute', controller.signal).catch((e: unknown) => e);
    const after = Array.from({ length: 5 }, () => limiter.acquire('compute').then(() => void times.push(clock.now)));
    await clock.tickAsync(150);
    const abortedAt = clock.now;
    controller.abort();
    const error = await mine;
    assert.ok(error instanceof CancelledError);
    assert.equal(clock.now, abortedAt, 'rejected without waiting for its turn');
    await clock.runAllAsync();
    await Promise.all([...before, ...after]);
    assert.equal(times.length, 10);
    const gaps = times.slice(1).map((t, i) => t - (times[i] ?? 0));
    // 9 r/s: every request 112 ms after the previous one; the aborted turn left no hole.
    assert.ok(gaps.every((g) => g >= 111 && g <= 112), `gaps ${gaps.join(',')}`);
  });
});

describe('console/rate limiting against the sandbox (its per-IP limiter is the judge)', function () {
  this.timeout(60_000);
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  it(`60 concurrent requests over two modules: the server refuses none (it allows ${CONTRACT_RATE_LIMITS.perModule} r/s per module), each is sent once`, async () => {
    const sb = await fx.sandbox({ consoleRateLimits: { perModule: 25, auth: 5 }, vmCount: 3 });
    const client = fx.track(createConsoleClient({ baseUrl: sb.consoleUrl, pat: { id: async () => sb.credentials.patId, secret: async () => sb.credentials.patSecret } }));
    const pages = await Promise.all(Array.from({ length: 60 }, (_, i) => client.list(i % 2 ? 'users' : 'virtualMachines', { limit: 1 })));
    assert.equal(pages.length, 60);
    const api = sb.control.requests({ pathPrefix: '/api/' }).filter((r) => !r.path.includes('/auth/'));
    assert.equal(api.filter((r) => r.status === 429).length, 0, 'no request was refused');
    assert.equal(api.length, 60, 'one request each: nothing was refused and retried');
  });

  it('without the client-side limiter the same burst IS refused (the test can fail)', async () => {
    const sb = await fx.sandbox({ consoleRateLimits: { perModule: 25, auth: 5 }, vmCount: 3 });
    const client = fx.track(createConsoleClient({
      baseUrl: sb.consoleUrl,
      pat: { id: async () => sb.credentials.patId, secret: async () => sb.credentials.patSecret },
      rateLimits: { perModule: 100_000 },
      retry: { attempts: 1 },
    }));
    const outcomes = await Promise.allSettled(Array.from({ length: 60 }, () => client.list('virtualMachines', { limit: 1 })));
    assert.ok(outcomes.some((o) => o.status === 'rejected'), 'some were refused with 429');
    assert.ok(sb.control.requests({ pathPrefix: '/api/compute' }).some((r) => r.status === 429));
  });

  it('an aborted request waiting in the limiter queue is never sent', async () => {
    const sb = await fx.sandbox({});
    const client = fx.client(sb);
    await client.auth.signIn();
    const controller = new AbortController();
    // Queued first, so its turn (which must send nothing) comes before the others are done.
    const mine = client.list('roles', { limit: 1, signal: controller.signal });
    const queued = Array.from({ length: 20 }, () => client.list('roles', { limit: 1 }));
    controller.abort();
    await assert.rejects(mine, CancelledError);
    await Promise.all(queued);
    assert.equal(sb.control.requests({ pathPrefix: '/api/iam/v2/roles' }).length, 20);
  });
});
