import assert from 'node:assert/strict';
import { CancelledError, NotFoundError } from '../../../src/core/errors';
import { ActivityFailedError, isConsoleError, type Activity, type ActivityState } from '../../../src/core/console/index';
import { normaliseState, toActivity } from '../../../src/core/console/activities/readActivities';
import { PROFILES, Fixtures } from './helpers';

const D1 = '2026-01-01T10:00:00Z';
const D2 = '2026-01-01T10:05:00Z';

describe('console/activities: state normalisation', () => {
  const cases: Array<[string, unknown, ActivityState]> = [
    ['keyed waiting', { waiting: {} }, { kind: 'waiting' }],
    ['keyed running', { running: { status: 'Cloning', startDate: D1, progression: 42 } }, { kind: 'running', status: 'Cloning', startDate: D1, progression: 42 }],
    ['keyed completed', { completed: { startDate: D1, stopDate: D2, result: 'uuid-1' } }, { kind: 'completed', startDate: D1, stopDate: D2, result: 'uuid-1' }],
    ['keyed failed', { failed: { startDate: D1, stopDate: D2, reason: 'quota' } }, { kind: 'failed', startDate: D1, stopDate: D2, reason: 'quota' }],
    ['keyed with a null body', { completed: null }, { kind: 'completed' }],
    ['flat empty (waiting)', {}, { kind: 'waiting' }],
    ['flat running', { status: 'Preparing: x', startDate: D1, progression: 20 }, { kind: 'running', status: 'Preparing: x', startDate: D1, progression: 20 }],
    ['flat completed', { startDate: D1, stopDate: D2, result: 'uuid-2' }, { kind: 'completed', startDate: D1, stopDate: D2, result: 'uuid-2' }],
    ['flat failed', { startDate: D1, stopDate: D2, reason: 'boom' }, { kind: 'failed', startDate: D1, stopDate: D2, reason: 'boom' }],
    ['{name: "running"}', { name: 'running', progression: '55' }, { kind: 'running', progression: 55 }],
    ['{state: "completed"}', { state: 'completed', result: 'r' }, { kind: 'completed', result: 'r' }],
    ['{status: "failed"}', { status: 'failed' }, { kind: 'failed' }],
    ['a free-text status that is a synonym stays running', { status: 'Done', progression: 99 }, { kind: 'running', status: 'Done', progression: 99 }],
    ['an unknown form is not terminal', { paused: { x: 1 }, other: 2 }, { kind: 'running' }],
    ['null', null, { kind: 'waiting' }],
    ['a bare state name', 'RUNNING', { kind: 'running' }],
  ];
  for (const [name, raw, expected] of cases) {
    it(name, () => assert.deepEqual(normaliseState(raw), expected));
  }

  it('normalises an activity, tolerating unknown and missing fields', () => {
    const activity = toActivity({
      id: 'a-1',
      tenantId: 't',
      description: 'Create VM',
      type: 'ComputeActivity',
      creationDate: D1,
      concernedItems: [{ type: 'virtual_machine', id: 'vm-1' }, { nope: true }, 'bad'],
      state: { running: { progression: 40 } },
      lastUpdateDate: D2,
    });
    assert.deepEqual({ ...activity, raw: undefined }, {
      id: 'a-1',
      tenantId: 't',
      description: 'Create VM',
      type: 'ComputeActivity',
      creationDate: D1,
      concernedItems: [{ type: 'virtual_machine', id: 'vm-1' }],
      state: { kind: 'running', progression: 40 },
      raw: undefined,
    });
    assert.deepEqual(toActivity({ status: 'completed', result: 'r' }, 'fallback')?.state, { kind: 'completed', result: 'r' });
    assert.equal(toActivity({}, 'x')?.state.kind, 'waiting');
    assert.equal(toActivity('x'), undefined);
    assert.equal(toActivity({ description: 'no id' }), undefined);
  });
});

describe('console/activities against the sandbox', () => {
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  for (const profile of PROFILES) {
    describe(`${profile} profile`, () => {
      it('follows a write through waiting/running to completed, reporting each change', async () => {
        const sb = await fx.sandbox({ profile, activityStepMs: 40 });
        const client = fx.client(sb);
        const { activityId } = await client.perform('virtualMachines', 'create', { input: { name: 'followed' } });
        const updates: Activity[] = [];
        const done = await client.activities.follow(activityId, { onUpdate: (a) => updates.push(a) });
        assert.equal(done.state.kind, 'completed');
        assert.equal(done.id, activityId);
        assert.equal(done.type, 'ComputeActivity');
        assert.match(done.description, /followed/);
        const result = done.state.kind === 'completed' ? done.state.result : undefined;
        assert.ok(result);
        assert.deepEqual(done.concernedItems, [{ type: 'virtual_machine', id: result }]);
        assert.equal((await client.get('virtualMachines', result)).name, 'followed');
        const kinds = updates.map((u) => u.state.kind);
        assert.equal(kinds.at(-1), 'completed');
        assert.ok(kinds.includes('running'), `saw ${kinds.join(',')}`);
        const progress = updates.flatMap((u) => (u.state.kind === 'running' && u.state.progression !== undefined ? [u.state.progression] : []));
        assert.deepEqual(progress, [...progress].sort((a, b) => a - b), 'progression only grows');
        for (let i = 1; i < updates.length; i++) {
          assert.notDeepEqual(updates[i]?.state, updates[i - 1]?.state, 'onUpdate only on a change');
        }
        if (profile === 'production') {
          const reads = sb.control.requests({ pathPrefix: '/api/activity' });
          assert.equal(reads[0]?.status, 404, 'the first read of a new activity is a 404 in production');
        }
      });

      it('tolerates a first 404 (eventual consistency)', async () => {
        const sb = await fx.sandbox({ profile });
        sb.control.setActivityFirstRead404(true);
        const client = fx.client(sb);
        const { activityId } = await client.perform('virtualNetworks', 'create', { input: { name: 'net' } });
        const done = await client.activities.follow(activityId);
        assert.equal(done.state.kind, 'completed');
        assert.equal(sb.control.requests({ pathPrefix: '/api/activity' })[0]?.status, 404);
      });

      it('a failed activity rejects with ActivityFailedError carrying the reason', async () => {
        const sb = await fx.sandbox({ profile });
        sb.control.failActivities({ next: 1, reason: 'Quota exceeded in DC-PAR7-A' });
        const client = fx.client(sb);
        const { activityId } = await client.perform('virtualMachines', 'create', { input: { name: 'doomed' } });
        const updates: string[] = [];
        const err = await client.activities.follow(activityId, { onUpdate: (a) => updates.push(a.state.kind) }).catch((e: unknown) => e);
        assert.ok(err instanceof ActivityFailedError);
        assert.equal(err.kind, 'activity_failed');
        assert.ok(isConsoleError(err));
        assert.equal(err.reason, 'Quota exceeded in DC-PAR7-A');
        assert.equal(err.activity.id, activityId);
        assert.equal(err.activity.state.kind, 'failed');
        assert.match(err.message, /failed: Quota exceeded/);
        assert.equal(updates.at(-1), 'failed');
      });

      it('lists recent activities', async () => {
        const sb = await fx.sandbox({ profile });
        const client = fx.client(sb);
        const a = await client.perform('virtualNetworks', 'create', { input: { name: 'n1' } });
        const b = await client.perform('users', 'create', { input: { name: 'Ann', email: 'ann@example.eu' } });
        const page = await client.activities.list({ limit: 10 });
        assert.deepEqual(page.items.map((x) => x.id).sort(), [a.activityId, b.activityId].sort());
        assert.ok(page.items.every((x) => ['waiting', 'running', 'completed'].includes(x.state.kind)));
        assert.equal(page.nextOffset, undefined);
      });
    });
  }

  it('an activity that stays 404 is a NotFoundError after a few tries', async () => {
    const sb = await fx.sandbox({});
    const client = fx.client(sb);
    await client.auth.signIn();
    sb.control.clearRequests();
    await assert.rejects(client.activities.follow('no-such-activity', { notFoundTries: 3 }), NotFoundError);
    assert.equal(sb.control.requests({ pathPrefix: '/api/activity' }).length, 3);
  });

  it('an abort before the first read sends nothing', async () => {
    const sb = await fx.sandbox({});
    const client = fx.client(sb);
    await assert.rejects(client.activities.follow('x', { signal: AbortSignal.abort() }), CancelledError);
    assert.equal(sb.control.requests().length, 0);
  });

  it('rides out a 503 burst while following', async () => {
    const sb = await fx.sandbox({ profile: 'contract', activityStepMs: 30 });
    const client = fx.client(sb);
    const { activityId } = await client.perform('virtualNetworks', 'create', { input: { name: 'n' } });
    sb.control.burst({ status: 503, count: 5, pathPrefix: '/api/activity' });
    const done = await client.activities.follow(activityId);
    assert.equal(done.state.kind, 'completed');
  });
});
// The follower's timing (backoff, abort, deadline) is tested on a fake clock in follow.test.ts.
