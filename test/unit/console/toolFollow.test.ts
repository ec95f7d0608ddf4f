import assert from 'node:assert/strict';
import * as FakeTimers from '@sinonjs/fake-timers';
import { toActivity } from '../../../src/core/console/activities/readActivities';
import { followActivity } from '../../../src/core/console/activities/followActivity';
import type { Activity, FollowOptions } from '../../../src/core/console/types';
import { silentLogger } from '../../../src/core/log';
import { activityTimeoutMs, DEFAULT_ACTIVITY_TIMEOUT_MINUTES } from '../../../src/core/console/activities/followDeadline';
import { followForTool, stateText, unknownStateName } from '../../../src/core/console/activities/followReport';

type InstalledClock = ReturnType<typeof FakeTimers.install>;

/** An activity as the console sends it, normalised as the client does. */
function activity(state: unknown): Activity {
  const parsed = toActivity({ id: 'act-1', description: 'Power Off vm', state });
  assert.ok(parsed);
  return parsed;
}

/**
 * The chat's cloud action tool follows its activity through `followForTool` with the console
 * client's real follower: here on a fake clock, reads answered from a script.
 */
describe('the cloud tool follows an activity with a deadline, and names states it does not know', () => {
  let clock: InstalledClock;
  beforeEach(() => {
    clock = FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => clock.uninstall());

  function follower(script: (n: number) => unknown): { follow: (id: string, o: FollowOptions) => Promise<Activity>; reads: () => number } {
    let reads = 0;
    const read = (): Promise<Activity> => Promise.resolve(activity(script(++reads)));
    return { follow: (id, o) => followActivity(read, id, o, silentLogger), reads: () => reads };
  }

  it('stops following at the tree\'s deadline (stratus.console.activityTimeoutMinutes) when the activity never ends', async () => {
    const { follow, reads } = follower(() => ({ running: { progression: 40 } }));
    const timeoutMs = activityTimeoutMs(undefined);
    const progress: string[] = [];
    let settled = false;
    const outcome = followForTool(follow, 'act-1', 'Power Off vm', { signal: new AbortController().signal, timeoutMs, report: (t) => progress.push(t) });
    void outcome.then(() => (settled = true));
    await clock.tickAsync(timeoutMs - 1);
    assert.equal(settled, false, 'still following just before the deadline');
    await clock.tickAsync(1);
    const result = await outcome;
    assert.equal(result.status, 'ended');
    assert.match(result.status === 'ended' ? result.text : '', new RegExp(`stopped following activity act-1 after ${DEFAULT_ACTIVITY_TIMEOUT_MINUTES} min .*still running 40% on the server`));
    const readsAtDeadline = reads();
    await clock.tickAsync(60 * 60_000);
    assert.equal(reads(), readsAtDeadline, 'no read after the deadline');
    assert.deepEqual(progress, ['Power Off vm: running 40%']);
  });

  it('reports an unknown state by its name, not as running, and stops at the deadline', async () => {
    const { follow } = follower(() => ({ paused: { since: 'now' } }));
    const progress: string[] = [];
    const outcome = followForTool(follow, 'act-1', 'Power Off vm', { signal: new AbortController().signal, timeoutMs: 5 * 60_000, report: (t) => progress.push(t) });
    await clock.tickAsync(5 * 60_000);
    const result = await outcome;
    assert.equal(result.status, 'ended');
    const text = result.status === 'ended' ? result.text : '';
    assert.match(text, /after 5 min .*last state, "paused", is one Stratus does not know/);
    assert.doesNotMatch(text, /still running (\d+% )?on the server/);
    assert.deepEqual(progress, ['Power Off vm: in state "paused", which Stratus does not know (not known to be running or ended)']);
  });

  it('a completed activity resolves as completed; a failed one says why', async () => {
    const done = follower((n) => (n < 3 ? { running: {} } : { completed: { result: 'vm-1' } }));
    const completed = followForTool(done.follow, 'act-1', 'Power Off vm', { signal: new AbortController().signal, timeoutMs: 60_000, report: () => undefined });
    await clock.tickAsync(10_000);
    assert.equal((await completed).status, 'completed');

    const failing = follower(() => ({ failed: { reason: 'quota exceeded' } }));
    const failed = await followForTool(failing.follow, 'act-1', 'Power Off vm', { signal: new AbortController().signal, timeoutMs: 60_000, report: () => undefined });
    assert.match(failed.status === 'ended' ? failed.text : '', /FAILED\. .*quota exceeded/);
  });

  it('cancelling the turn stops following at once', async () => {
    const { follow } = follower(() => ({ running: {} }));
    const controller = new AbortController();
    const outcome = followForTool(follow, 'act-1', 'Power Off vm', { signal: controller.signal, timeoutMs: 60_000, report: () => undefined });
    await clock.tickAsync(1_500);
    controller.abort();
    const result = await outcome;
    assert.match(result.status === 'ended' ? result.text : '', /stopped waiting \(cancelled\)/);
  });
});

describe('activity states Stratus does not know', () => {
  it('are named, in every form the console uses', () => {
    assert.equal(unknownStateName(activity('paused')), 'paused');
    assert.equal(unknownStateName(activity({ suspended: { since: 'x' } })), 'suspended');
    assert.equal(unknownStateName(activity({ name: 'migrating' })), 'migrating');
    assert.match(stateText(activity('paused')), /"paused", which Stratus does not know/);
  });

  it('known states and synonyms, and the contract\'s flat running form, are not unknown', () => {
    for (const state of ['running', 'in_progress', 'InProgress', { running: { progression: 3 } }, { status: 'copying disks' }, { progression: 10 }, { name: 'queued' }, 'done', { failed: {} }, {}, undefined]) {
      assert.equal(unknownStateName(activity(state)), undefined, JSON.stringify(state));
    }
    assert.equal(stateText(activity({ running: { progression: 40, status: 'copying' } })), 'running 40% (copying)');
  });
});
