import assert from 'node:assert/strict';
import { OutcomeUnknownError } from '../../../src/core/errors';
import { presentError } from '../../../src/core/presentError';
import { Fixtures, PROFILES } from '../console/helpers';

// Issue 8, item 3: a write that reached the server must never be sent again by the client.
describe('a write is never sent twice', () => {
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  for (const profile of PROFILES) {
    it(`a VM create whose connection is reset after the server applied it creates exactly one VM (${profile})`, async () => {
      const sb = await fx.sandbox({ profile });
      const client = fx.client(sb);
      await client.auth.signIn();
      const before = sb.control.snapshot().counts;
      sb.control.resetAfterApply({ method: 'POST', pathPrefix: '/api/compute', count: 5 });

      await assert.rejects(client.perform('virtualMachines', 'create', { input: { name: 'only-once', cpu: 2, memoryGiB: 4 } }), (e: unknown) => {
        assert.ok(e instanceof OutcomeUnknownError, String(e));
        assert.match(e.target, /^POST /);
        // The edge says the outcome is unknown, not "cannot reach the service", and offers no Retry.
        const shown = presentError(e);
        assert.match(shown.message, /cannot tell whether/);
        assert.ok(!shown.actions.includes('retry'));
        return true;
      });
      const posts = sb.control.requests({ pathPrefix: '/api/compute' }).filter((r) => r.method === 'POST');
      assert.equal(posts.length, 1, 'the POST went out once');
      assert.equal(sb.control.snapshot().counts.activities, before.activities + 1, 'one activity: the write was applied once');
      // The user checks the Activities view: the one activity completes with the one new VM.
      const activities = (await client.activities.list()).items;
      assert.ok(activities.length > 0);
      for (const activity of activities) await client.activities.follow(activity.id);
      assert.equal(sb.control.snapshot().counts.vms, before.vms + 1, 'exactly one VM was created');
    });
  }

  it('an idempotent read under the same fault is retried and succeeds', async () => {
    const sb = await fx.sandbox({ profile: 'contract' });
    const client = fx.client(sb);
    await client.auth.signIn();
    sb.control.resetAfterApply({ method: 'GET', pathPrefix: '/api/compute', count: 1 });
    const page = await client.list('virtualMachines', { limit: 5 });
    assert.ok(page.items.length > 0);
    assert.equal(sb.control.requests({ pathPrefix: '/api/compute' }).filter((r) => r.method === 'GET').length, 2);
  });
});
