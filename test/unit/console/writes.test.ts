import assert from 'node:assert/strict';
import { MalformedResponseError, RateLimitError, ValidationError } from '../../../src/core/errors';
import { activityIdFromLocation, createConsoleClient } from '../../../src/core/console/index';
import { AUTH_PATH, PROFILES, fakeJwt, Fixtures, json, jwtClaims, type StubRequest } from './helpers';
import type { ServerResponse } from 'node:http';

const ID = '3f6c1f7e-2b1a-4c1e-9d6a-0d4b7f2e9a10';

describe('console/writes: Location header', () => {
  const cases: Array<[string, string]> = [
    ['a bare id', ID],
    ['a bare id with spaces around', `  ${ID} `],
    ['a relative URL', `/api/activity/v1/activities/${ID}`],
    ['a relative URL with a trailing slash', `/api/activity/v1/activities/${ID}/`],
    ['an absolute URL', `https://console.example.eu/api/activity/v1/activities/${ID}`],
    ['an absolute URL with a query', `https://console.example.eu/api/activity/v1/activities/${ID}?x=1#f`],
    ['a relative URL with a query', `activities/${ID}?view=full`],
  ];
  for (const [what, location] of cases) {
    it(`reads the id from ${what}`, () => assert.equal(activityIdFromLocation(location), ID));
  }
  it('decodes an encoded segment, and gives nothing for an empty value', () => {
    assert.equal(activityIdFromLocation('/a/b%20c'), 'b c');
    assert.equal(activityIdFromLocation('   '), undefined);
    assert.equal(activityIdFromLocation('/'), undefined);
  });
});

describe('console/writes against the sandbox', () => {
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  for (const profile of PROFILES) {
    describe(`${profile} profile (Location as ${profile === 'production' ? 'a bare id' : 'a URL path'})`, () => {
      it('creates: 201, activity id from Location, body from the inputs', async () => {
        const sb = await fx.sandbox({ profile });
        const client = fx.client(sb);
        const result = await client.perform('virtualMachines', 'create', { input: { name: 'api-1', cpu: 4, memoryGiB: 8 } });
        if (profile === 'production') assert.equal(result.location, result.activityId);
        else assert.equal(result.location, `/api/activity/v1/activities/${result.activityId}`);
        // Before the write, one read of the collection proved its path (consolePaths.ts).
        const [read, post] = sb.control.requests({ pathPrefix: '/api/compute' });
        assert.equal(read?.method, 'GET');
        assert.equal(post?.method, 'POST');
        assert.equal(post?.status, 201);
        assert.deepEqual(post?.body?.json, { name: 'api-1', cpu: 4, memory: 8 * 1024 ** 3, powerOn: false });
        const activity = await client.activities.follow(result.activityId);
        assert.equal(activity.state.kind, 'completed');
      });

      it('modifies, powers off and deletes a VM', async () => {
        const sb = await fx.sandbox({ profile });
        const client = fx.client(sb);
        const running = (await client.list('virtualMachines')).items.find((v) => v.raw.powerState === 'running');
        assert.ok(running);
        const modify = await client.perform('virtualMachines', 'modify', { target: running, input: { cpu: 8 } });
        await client.activities.follow(modify.activityId);
        const off = await client.perform('virtualMachines', 'powerOff', { target: running });
        await client.activities.follow(off.activityId);
        const after = await client.get('virtualMachines', running.id);
        assert.equal(after.raw.powerState, 'stopped');
        assert.equal(after.raw.cpu, 8);
        const patches = sb.control.requests({ pathPrefix: `/api/compute/v1/virtual-machines/${running.id}` }).filter((r) => r.method === 'PATCH');
        assert.deepEqual(patches.map((r) => r.body?.json), [{ cpu: 8 }, { powerAction: 'off' }]);
        const del = await client.perform('virtualMachines', 'delete', { target: after });
        await client.activities.follow(del.activityId);
        await assert.rejects(client.get('virtualMachines', running.id), { kind: 'not_found' });
      });

      it("powers on through production's power route with the id in the body", async () => {
        const sb = await fx.sandbox({ profile });
        const client = fx.client(sb, {
          resourcePaths: { virtualMachines: '/api/compute/v1/vcenters/virtual_machines', 'virtualMachines.power': '{collection}/power' },
        });
        const stopped = (await client.list('virtualMachines')).items.find((v) => v.raw.powerState === 'stopped' && v.raw.template !== true);
        assert.ok(stopped);
        const on = await client.perform('virtualMachines', 'powerOn', { target: stopped });
        await client.activities.follow(on.activityId);
        assert.equal((await client.get('virtualMachines', stopped.id)).raw.powerState, 'running');
        const patch = sb.control.requests({ pathPrefix: '/api/compute/v1/vcenters/virtual_machines/power' })[0];
        const datacenter = stopped.raw.datacenter as { id: string };
        assert.deepEqual(patch?.body?.json, { powerAction: 'on', id: stopped.id, datacenterId: datacenter.id });
      });

      it('retries a write on 429 but never on 500 (it may have been applied)', async () => {
        const sb = await fx.sandbox({ profile });
        const client = fx.client(sb);
        await client.auth.signIn();
        sb.control.burst({ status: 429, count: 2, retryAfterSeconds: 0, pathPrefix: '/api/network' });
        await client.perform('virtualNetworks', 'create', { input: { name: 'after-429' } });
        assert.deepEqual(sb.control.requests({ pathPrefix: '/api/network' }).map((r) => r.status), [429, 429, 201]);
        sb.control.clearRequests();
        sb.control.burst({ status: 500, count: 1, pathPrefix: '/api/network' });
        await assert.rejects(client.perform('virtualNetworks', 'create', { input: { name: 'x' } }), { kind: 'api', status: 500 });
        assert.equal(sb.control.requests({ pathPrefix: '/api/network' }).length, 1);
      });
    });
  }

  it('refuses an item action without a target, and bad inputs, before sending', async () => {
    const sb = await fx.sandbox({});
    const client = fx.client(sb);
    await assert.rejects(client.perform('virtualMachines', 'delete'), { kind: 'validation', param: 'target' });
    await assert.rejects(client.perform('virtualMachines', 'create', { input: {} }), { param: 'name' });
    await assert.rejects(client.perform('roles', 'create'), ValidationError);
    assert.equal(sb.control.requests().length, 0);
  });
});

describe('console/writes against a stub server', () => {
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  async function clientFor(handler: (req: StubRequest, res: ServerResponse) => void) {
    const stub = await fx.stub((req, res) => (req.path === AUTH_PATH ? res.end(fakeJwt(jwtClaims())) : handler(req, res)));
    return fx.track(
      createConsoleClient({ baseUrl: stub.url, pat: { id: async () => 'i', secret: async () => 's' }, retry: { baseDelayMs: 1, maxDelayMs: 2 } }),
    );
  }

  it('a 2xx without Location is a MalformedResponseError', async () => {
    const client = await clientFor((_req, res) => json(res, 201, { ok: true }));
    const err = await client.perform('virtualNetworks', 'create', { input: { name: 'n' } }).catch((e: unknown) => e);
    assert.ok(err instanceof MalformedResponseError);
    assert.equal(err.kind, 'malformed_response');
    assert.match(err.message, /without a Location header/);
  });

  it('accepts another 2xx that carries a Location (an absolute URL)', async () => {
    const client = await clientFor((_req, res) => {
      res.writeHead(202, { location: `https://elsewhere.example/api/activity/v1/activities/${ID}` });
      res.end();
    });
    assert.equal((await client.perform('virtualNetworks', 'create', { input: { name: 'n' } })).activityId, ID);
  });

  it('gives up on 429 after 4 attempts with a RateLimitError', async () => {
    let calls = 0;
    const client = await clientFor((_req, res) => {
      calls++;
      json(res, 429, { error: { status: '429 Too Many Requests', message: 'Too Many Requests' } }, { 'retry-after': '0' });
    });
    await assert.rejects(client.perform('virtualNetworks', 'create', { input: { name: 'n' } }), RateLimitError);
    assert.equal(calls, 4);
  });
});
