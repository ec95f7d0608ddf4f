import assert from 'node:assert/strict';
import { createClock } from '@sinonjs/fake-timers';
import { activityIdOf, consoleCall, consoleToken, settle, useSandbox, type ActivityView, type Reply } from './helpers';

const VMS = '/api/compute/v1/virtual-machines';
const ACTIVITIES = '/api/activity/v1/activities';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

// The sandbox's clock stands still here (fake timers, never ticked): only advanceTime() moves an
// activity along, so a slow machine cannot push one into its next step between two reads.
describe('sandbox console: activities (contract profile: flat state)', () => {
  const sb = useSandbox({ activityStepMs: 1000, timers: createClock(Date.now()) });
  let token = '';
  beforeEach(async () => {
    sb().control.reset();
    token = await consoleToken(sb());
  });
  const create = (name: string): Promise<Reply> => consoleCall(sb(), token, VMS, { method: 'POST', body: { name } });
  const read = async (id: string): Promise<ActivityView> => {
    const r = await consoleCall(sb(), token, `${ACTIVITIES}/${id}`);
    assert.equal(r.status, 200, r.text);
    return r.json as ActivityView;
  };

  it('Location is the activity URL path; the activity has every contract field', async () => {
    const write = await create('vm-a');
    assert.match(write.headers.get('location') ?? '', /^\/api\/activity\/v1\/activities\/[0-9a-f-]{36}$/);
    const activity = await read(activityIdOf(write));
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { userId: string; scope: { id: string } };
    assert.deepEqual(Object.keys(activity).sort(), ['concernedItems', 'creationDate', 'description', 'id', 'initiator', 'operationType', 'state', 'tags', 'tenantId', 'type']);
    assert.equal(activity.tenantId, claims.scope.id);
    assert.equal(activity.initiator, claims.userId);
    assert.equal(activity.type, 'ComputeActivity');
    assert.equal(activity.operationType, 'write');
    assert.deepEqual(activity.tags, []);
    assert.match(activity.creationDate, ISO);
    assert.equal(activity.description, "Create virtual machine 'vm-a'");
  });

  it('waiting {} -> running {status, startDate, progression rising} -> completed {startDate, stopDate, result}', async () => {
    const id = activityIdOf(await create('vm-b'));
    assert.deepEqual((await read(id)).state, {});
    const progressions: number[] = [];
    for (let step = 0; step < 4; step++) {
      sb().control.advanceTime(1000);
      const state = (await read(id)).state;
      assert.deepEqual(Object.keys(state).sort(), ['progression', 'startDate', 'status']);
      assert.match(String(state.startDate), ISO);
      assert.match(String(state.status), /vm-b/);
      progressions.push(Number(state.progression));
    }
    assert.deepEqual(progressions, [20, 40, 60, 80]);
    sb().control.advanceTime(1000);
    const done = (await read(id)).state;
    assert.deepEqual(Object.keys(done).sort(), ['result', 'startDate', 'stopDate']);
    assert.ok(Date.parse(String(done.stopDate)) > Date.parse(String(done.startDate)));
    assert.equal((await consoleCall(sb(), token, `${VMS}/${String(done.result)}`)).status, 200);
  });

  it('failActivities({next: 1}) fails the next activity only: reason, nothing created', async () => {
    sb().control.failActivities({ next: 1, reason: 'No capacity left on clu001' });
    const failed = await settle(sb(), token, await create('vm-fail'));
    assert.deepEqual(Object.keys(failed.state).sort(), ['reason', 'startDate', 'stopDate']);
    assert.equal(failed.state.reason, 'No capacity left on clu001');
    assert.equal(((await consoleCall(sb(), token, `${VMS}?name=vm-fail`)).json as { total: number }).total, 0);
    const ok = await settle(sb(), token, await create('vm-ok'));
    assert.ok('result' in ok.state);
  });

  it('failActivities() with no argument fails exactly one; {all: true} fails every one until {all: false}', async () => {
    sb().control.failActivities({});
    assert.ok('reason' in (await settle(sb(), token, await create('x1'))).state);
    assert.ok('result' in (await settle(sb(), token, await create('x2'))).state);
    sb().control.failActivities({ all: true });
    assert.ok('reason' in (await settle(sb(), token, await create('x3'))).state);
    assert.ok('reason' in (await settle(sb(), token, await consoleCall(sb(), token, '/api/network/v1/virtual-networks', { method: 'POST', body: { name: 'n' } }))).state);
    sb().control.failActivities({ all: false });
    assert.ok('result' in (await settle(sb(), token, await create('x4'))).state);
  });

  it('slowActivities(factor) stretches the timeline of new activities', async () => {
    sb().control.slowActivities(3);
    const id = activityIdOf(await create('slow'));
    sb().control.advanceTime(5000);
    assert.equal((await read(id)).state.progression, 20);
    sb().control.advanceTime(10_000);
    assert.ok('result' in (await read(id)).state);
    assert.equal(sb().control.snapshot().activities.stepMs, 3000);
  });

  it('setActivityFirstRead404(true): the first read of a new activity is a 404, then it is found', async () => {
    sb().control.setActivityFirstRead404(true);
    const id = activityIdOf(await create('eventual'));
    assert.equal((await consoleCall(sb(), token, `${ACTIVITIES}/${id}`)).status, 404);
    assert.equal((await consoleCall(sb(), token, `${ACTIVITIES}/${id}`)).status, 200);
  });

  it('lists activities newest first; unknown id 404', async () => {
    await create('first');
    await create('second');
    const body = (await consoleCall(sb(), token, ACTIVITIES)).json as { items: ActivityView[]; total: number };
    assert.equal(body.total, 2);
    assert.deepEqual(
      body.items.map((a) => a.description),
      ["Create virtual machine 'second'", "Create virtual machine 'first'"],
    );
    assert.equal((await consoleCall(sb(), token, `${ACTIVITIES}/00000000-0000-4000-8000-000000000000`)).status, 404);
  });
});

describe('sandbox console: activities move with the clock on their own', () => {
  // No control call moves time here: a fake clock under the sandbox does, as real time would.
  const timers = createClock(Date.now());
  const sb = useSandbox({ activityStepMs: 10, timers });
  it('waiting, then running 20..80 one step at a time, then completed at 5 steps', async () => {
    const token = await consoleToken(sb());
    const id = activityIdOf(await consoleCall(sb(), token, VMS, { method: 'POST', body: { name: 'on-its-own' } }));
    const state = async (): Promise<Record<string, unknown>> => ((await consoleCall(sb(), token, `${ACTIVITIES}/${id}`)).json as ActivityView).state;
    const seen: unknown[] = [];
    for (let ms = 0; ms <= 50; ms += 5) {
      const s = await state();
      seen.push([ms, 'result' in s ? 'completed' : 'progression' in s ? s.progression : 'waiting']);
      timers.tick(5);
    }
    assert.deepEqual(seen, [
      [0, 'waiting'], [5, 'waiting'],
      [10, 20], [15, 20], [20, 40], [25, 40], [30, 60], [35, 60], [40, 80], [45, 80],
      [50, 'completed'],
    ]);
  });
});

describe('sandbox console: activities (production profile: keyed state, raw id)', () => {
  const sb = useSandbox({ profile: 'production', activityStepMs: 1000, timers: createClock(Date.now()) });
  let token = '';
  beforeEach(async () => {
    sb().control.reset();
    token = await consoleToken(sb());
  });

  it('Location is the raw id; the first read is a 404 (eventual consistency); the state is keyed by name', async () => {
    const write = await consoleCall(sb(), token, VMS, { method: 'POST', body: { name: 'p1' } });
    const id = write.headers.get('location') ?? '';
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.equal((await consoleCall(sb(), token, `${ACTIVITIES}/${id}`)).status, 404);
    const read = async (): Promise<Record<string, unknown>> => ((await consoleCall(sb(), token, `${ACTIVITIES}/${id}`)).json as ActivityView).state;
    assert.deepEqual(await read(), { waiting: {} });
    sb().control.advanceTime(2000);
    const running = await read();
    assert.deepEqual(Object.keys(running), ['running']);
    assert.equal((running.running as { progression: number }).progression, 40);
    sb().control.advanceTime(3000);
    const completed = await read();
    assert.deepEqual(Object.keys(completed), ['completed']);
    assert.deepEqual(Object.keys(completed.completed as object).sort(), ['result', 'startDate', 'stopDate']);
  });

  it('a failed activity is {"failed": {...reason}}; the first-read 404 can be turned off', async () => {
    sb().control.setActivityFirstRead404(false);
    sb().control.failActivities({ next: 1 });
    const activity = await settle(sb(), token, await consoleCall(sb(), token, VMS, { method: 'POST', body: { name: 'p2' } }));
    assert.deepEqual(Object.keys(activity.state), ['failed']);
    assert.equal(typeof (activity.state.failed as { reason: unknown }).reason, 'string');
    assert.ok('lastUpdateDate' in activity, 'unknown extra field');
  });
});
