import assert from 'node:assert/strict';
import * as FakeTimers from '@sinonjs/fake-timers';
type InstalledClock = ReturnType<typeof FakeTimers.install>;
import { CancelledError, NotFoundError } from '../../../src/core/errors';
import { ActivityFailedError, ActivityStillRunningError, FOLLOW_DEFAULTS, type Activity, type ActivityState } from '../../../src/core/console/index';
import { followActivity } from '../../../src/core/console/activities/followActivity';
import { activityTimeoutMs, DEFAULT_ACTIVITY_TIMEOUT_MINUTES } from '../../../src/core/console/activities/followDeadline';
import { captureLogger } from './helpers';

/**
 * The follower's timing (backoff, deadline, abort) on a fake clock: every read is recorded with the
 * fake time it was made at, so delays are exact and nothing depends on how busy the machine is.
 */
function activity(state: ActivityState): Activity {
  return { id: 'a-1', description: 'Create VM', type: 'ComputeActivity', tenantId: undefined, creationDate: undefined, concernedItems: [], state, raw: {} };
}

interface Reader {
  read: (id: string, signal: AbortSignal | undefined) => Promise<Activity>;
  /** Fake time of each read. */
  at: number[];
  /** Signals each read was given. */
  signals: Array<AbortSignal | undefined>;
}

/** Reads answered from `script(n)` (n = 1 for the first read); `'hang'` never answers until aborted. */
function reader(clock: InstalledClock, script: (n: number) => ActivityState | Error | 'hang'): Reader {
  const at: number[] = [];
  const signals: Array<AbortSignal | undefined> = [];
  const read = (_id: string, signal: AbortSignal | undefined): Promise<Activity> => {
    at.push(clock.now);
    signals.push(signal);
    const next = script(at.length);
    if (next === 'hang') {
      return new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(new CancelledError()), { once: true }));
    }
    return next instanceof Error ? Promise.reject(next) : Promise.resolve(activity(next));
  };
  return { read, at, signals };
}

function gaps(times: readonly number[]): number[] {
  return times.slice(1).map((t, i) => t - (times[i] ?? 0));
}

describe('console/follow on a fake clock', () => {
  let clock: InstalledClock;
  beforeEach(() => {
    clock = FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => clock.uninstall());

  it('backs off (Fibonacci) while nothing changes, capped, and starts over on a change', async () => {
    const r = reader(clock, (n) => (n < 7 ? { kind: 'running', progression: 10 } : n < 9 ? { kind: 'running', progression: 50 } : { kind: 'completed', result: 'r' }));
    const done = followActivity(r.read, 'a-1', { initialDelayMs: 20, maxDelayMs: 60 }, captureLogger());
    await clock.runAllAsync();
    assert.equal((await done).state.kind, 'completed');
    // 20, 20, 40, 60 (cap), 60, 60 | change -> 20, 20.
    assert.deepEqual(gaps(r.at), [20, 20, 40, 60, 60, 60, 20, 20]);
  });

  it('waits 1 s between reads by default, growing to the 30 s cap', async () => {
    assert.equal(FOLLOW_DEFAULTS.maxDelayMs, 30_000);
    const r = reader(clock, (n) => (n < 12 ? { kind: 'waiting' } : { kind: 'completed' }));
    const done = followActivity(r.read, 'a-1', {}, captureLogger());
    await clock.runAllAsync();
    await done;
    assert.deepEqual(gaps(r.at), [1_000, 1_000, 2_000, 3_000, 5_000, 8_000, 13_000, 21_000, 30_000, 30_000, 30_000]);
  });

  it('abort stops following at once: no later read, no timer left', async () => {
    const r = reader(clock, () => ({ kind: 'running', progression: 1 }));
    const controller = new AbortController();
    const following = followActivity(r.read, 'a-1', { signal: controller.signal, initialDelayMs: 30, maxDelayMs: 30 }, captureLogger());
    const settled = following.catch((e: unknown) => e);
    await clock.tickAsync(100);
    const reads = r.at.length;
    assert.ok(reads >= 3);
    const abortedAt = clock.now;
    controller.abort();
    assert.ok((await settled) instanceof CancelledError);
    assert.equal(clock.now, abortedAt, 'rejected without any time passing');
    assert.equal(clock.countTimers(), 0, 'the sleep timer was cleared');
    await clock.tickAsync(1_000);
    assert.equal(r.at.length, reads, 'no read after the abort');
  });

  describe('overall deadline (timeoutMs)', () => {
    it('stops at the deadline with ActivityStillRunningError carrying the last state read', async () => {
      const r = reader(clock, (n) => ({ kind: 'running', progression: n }));
      const updates: number[] = [];
      const following = followActivity(r.read, 'a-1', { timeoutMs: 60_000, onUpdate: (a) => updates.push(a.state.kind === 'running' ? a.state.progression ?? -1 : -1) }, captureLogger());
      const settled = following.catch((e: unknown) => e);
      await clock.tickAsync(59_999);
      assert.equal(await Promise.race([settled.then(() => 'settled'), Promise.resolve('pending')]), 'pending', 'still following just before the deadline');
      await clock.tickAsync(1);
      const error = await settled;
      assert.ok(error instanceof ActivityStillRunningError, String(error));
      assert.equal(error.kind, 'activity_still_running');
      assert.equal(error.activityId, 'a-1');
      assert.equal(error.timeoutMs, 60_000);
      assert.equal(error.activity?.state.kind, 'running');
      assert.equal(error.activity?.state.kind === 'running' ? error.activity.state.progression : undefined, r.at.length);
      assert.equal(updates.at(-1), r.at.length);
      assert.equal(clock.countTimers(), 0, 'no sleep or deadline timer left');
      const reads = r.at.length;
      await clock.tickAsync(120_000);
      assert.equal(r.at.length, reads, 'no read after the deadline');
      assert.ok(r.at.every((t) => t < 60_000));
    });

    it('aborts a read still in flight at the deadline (the signal reaches the request)', async () => {
      const r = reader(clock, (n) => (n === 1 ? { kind: 'waiting' } : 'hang'));
      const following = followActivity(r.read, 'a-1', { timeoutMs: 5_000 }, captureLogger());
      const settled = following.catch((e: unknown) => e);
      await clock.tickAsync(5_000);
      const error = await settled;
      assert.ok(error instanceof ActivityStillRunningError);
      assert.equal(error.activity?.state.kind, 'waiting');
      assert.equal(r.signals[1]?.aborted, true, 'the hanging read was aborted');
    });

    it('reports no activity when none was read in time', async () => {
      const r = reader(clock, () => 'hang');
      const settled = followActivity(r.read, 'a-1', { timeoutMs: 1_000 }, captureLogger()).catch((e: unknown) => e);
      await clock.tickAsync(1_000);
      const error = await settled;
      assert.ok(error instanceof ActivityStillRunningError);
      assert.equal(error.activity, undefined);
    });

    it('a completion before the deadline resolves and clears the deadline timer', async () => {
      const r = reader(clock, (n) => (n < 3 ? { kind: 'running' } : { kind: 'completed', result: 'vm-1' }));
      const following = followActivity(r.read, 'a-1', { timeoutMs: 600_000 }, captureLogger());
      await clock.tickAsync(5_000);
      const done = await following;
      assert.equal(done.state.kind, 'completed');
      assert.equal(clock.countTimers(), 0, 'the deadline timer was cleared');
    });

    it('a failure before the deadline is ActivityFailedError, not "still running"', async () => {
      const r = reader(clock, (n) => (n < 2 ? { kind: 'running' } : { kind: 'failed', reason: 'quota' }));
      const settled = followActivity(r.read, 'a-1', { timeoutMs: 600_000 }, captureLogger()).catch((e: unknown) => e);
      await clock.tickAsync(5_000);
      const error = await settled;
      assert.ok(error instanceof ActivityFailedError);
      assert.equal(error.reason, 'quota');
      assert.equal(clock.countTimers(), 0);
    });

    it('the caller\'s abort before the deadline is a CancelledError, not "still running"', async () => {
      const r = reader(clock, () => ({ kind: 'running' }));
      const controller = new AbortController();
      const settled = followActivity(r.read, 'a-1', { timeoutMs: 60_000, signal: controller.signal }, captureLogger()).catch((e: unknown) => e);
      await clock.tickAsync(3_000);
      controller.abort();
      assert.ok((await settled) instanceof CancelledError);
      assert.equal(clock.countTimers(), 0, 'the deadline timer was cleared');
    });

    it('a persistent 404 is still an error before the deadline', async () => {
      const r = reader(clock, () => new NotFoundError({ status: 404, message: 'no such activity' }));
      const settled = followActivity(r.read, 'a-1', { timeoutMs: 60_000, notFoundTries: 3 }, captureLogger()).catch((e: unknown) => e);
      await clock.tickAsync(10_000);
      assert.ok((await settled) instanceof NotFoundError);
      assert.equal(r.at.length, 3);
    });
  });
});

describe('stratus.console.activityTimeoutMinutes', () => {
  it('is whole minutes between 1 and 1440; anything else falls back to the default or the nearest bound', () => {
    assert.equal(activityTimeoutMs(undefined), DEFAULT_ACTIVITY_TIMEOUT_MINUTES * 60_000);
    assert.equal(activityTimeoutMs('10'), DEFAULT_ACTIVITY_TIMEOUT_MINUTES * 60_000);
    assert.equal(activityTimeoutMs(Number.NaN), DEFAULT_ACTIVITY_TIMEOUT_MINUTES * 60_000);
    assert.equal(activityTimeoutMs(5), 5 * 60_000);
    assert.equal(activityTimeoutMs(0), 60_000);
    assert.equal(activityTimeoutMs(-3), 60_000);
    assert.equal(activityTimeoutMs(2.4), 2 * 60_000);
    assert.equal(activityTimeoutMs(1e9), 1440 * 60_000);
  });
});
