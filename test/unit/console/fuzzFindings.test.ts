// Counterexamples found by the property suite (test/unit/properties), kept as plain examples.
import assert from 'node:assert/strict';
import { normaliseState, toActivity } from '../../../src/core/console/activities/readActivities';
import { createConsoleClient } from '../../../src/core/console/index';
import { AUTH_PATH, fakeJwt, Fixtures, json, jwtClaims } from './helpers';

describe('console bodies found by fuzzing', () => {
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  it('an activity state named "constructor" (or any Object.prototype name) is not a state name: running, not a crash', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      assert.deepEqual(normaliseState(name), { kind: 'running' });
      assert.deepEqual(normaliseState({ [name]: {} }).kind, 'running');
      assert.equal(toActivity({ id: 'a', state: name })?.state.kind, 'running');
    }
  });

  it('a list total that is negative, fractional or beyond integers is no total (paging goes on by page size)', async () => {
    const bodies: Array<{ body: unknown; headers?: Record<string, string> }> = [
      { body: { vms: [{ id: 'vm-1', name: 'web' }], total: -5e-324 } },
      { body: { items: [{ id: 'vm-1', name: 'web' }], total: 2.5 } },
      { body: [{ id: 'vm-1', name: 'web' }], headers: { 'content-range': `items 0-0/${'9'.repeat(400)}` } },
    ];
    let answer = bodies[0];
    const stub = await fx.stub((req, res) => (req.path === AUTH_PATH ? res.end(fakeJwt(jwtClaims())) : json(res, 200, answer?.body, answer?.headers)));
    const client = fx.track(createConsoleClient({ baseUrl: stub.url, pat: { id: async () => 'pat-id', secret: async () => 'pat-secret-FAKE' } }));
    for (answer of bodies) {
      const page = await client.list('virtualMachines', { limit: 1 });
      assert.equal(page.items.length, 1);
      assert.equal(page.total, undefined, JSON.stringify(answer.body));
      assert.equal(page.nextOffset, 1, 'a full page without a usable total may have more behind it');
    }
  });
});
