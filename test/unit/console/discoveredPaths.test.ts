import assert from 'node:assert/strict';
import { InMemoryPathMemory, readSnapshot, type PathMemorySnapshot } from '../../../src/core/console/catalog/pathMemory';
import { PRODUCTION_PATHS } from '../../../src/core/console/catalog/productionPaths';
import { NotFoundError } from '../../../src/core/errors';
import type { RecordedRequest, Sandbox } from '../../sandbox/index';
import { AUTH_PATH, Fixtures, fakeJwt, json, jwtClaims } from './helpers';

// Issue 32 section 7: the production console serves VMs (and users) at other paths than the
// contract's; the client finds them after one 404, remembers them per base URL, and never probes
// with a write.
const CONTRACT_VMS = '/api/compute/v1/virtual-machines';
const PRODUCTION_VMS = '/api/compute/v1/vcenters/virtual_machines';

const sent = (sb: Sandbox, prefix = '/api/compute'): string[] =>
  sb.control.requests({ pathPrefix: prefix }).map((r: RecordedRequest) => `${r.method} ${r.path} ${ok(r.status) ? 'ok' : String(r.status)}`);
// A production list of more than one page answers 206 (partial): both are a path that answered.
const ok = (status: number | null): boolean => status !== null && status >= 200 && status < 300;

describe('console paths: the production shape found by itself (issue 32, 7)', () => {
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  const productionOnly = (): Promise<Sandbox> => fx.sandbox({ profile: 'production', consolePaths: 'production' });

  it('the sandbox in this mode serves only production paths: the contract path answers 404', async () => {
    const sb = await productionOnly();
    assert.equal(sb.control.snapshot().consolePaths, 'production');
    const token = await (await fetch(`${sb.consoleUrl}${AUTH_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: sb.credentials.patId, secret: sb.credentials.patSecret }) })).text();
    const get = (path: string): Promise<number> => fetch(`${sb.consoleUrl}${path}`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
    assert.equal(await get(CONTRACT_VMS), 404);
    assert.equal(await get(PRODUCTION_VMS), 200);
    assert.equal(await get('/api/iam/v1/users'), 404);
    sb.control.setConsolePaths('all');
    assert.equal(await get(CONTRACT_VMS), 200, 'the control surface switches the mode');
    sb.control.reset();
    assert.equal(sb.control.snapshot().consolePaths, 'production', 'reset restores the start option');
  });

  it('listing VMs finds the production path after one 404 and remembers it: the second listing asks it directly', async () => {
    const sb = await productionOnly();
    const client = fx.client(sb);
    assert.equal(client.kindInUse('virtualMachines').collection, CONTRACT_VMS, 'the contract path until a read says otherwise');
    const first = await client.list('virtualMachines');
    assert.equal(client.kindInUse('virtualMachines').collection, PRODUCTION_VMS);
    assert.ok(first.items.length > 0);
    assert.deepEqual(sent(sb), [`GET ${CONTRACT_VMS} 404`, `GET ${PRODUCTION_VMS} ok`]);
    sb.control.clearRequests();
    const second = await client.list('virtualMachines', { offset: 0, limit: 10 });
    assert.equal(second.items.length, 10);
    assert.deepEqual(sent(sb), [`GET ${PRODUCTION_VMS} ok`]);
    assert.ok(client.endpointsInUse().some((e) => e.method === 'PATCH' && e.path === `${PRODUCTION_VMS}/power`), 'the endpoints in use follow');
  });

  it('users: the contract path answers 404, production lists them by the token\'s companyId', async () => {
    const sb = await productionOnly();
    const client = fx.client(sb);
    const users = await client.list('users');
    assert.ok(users.items.length > 0);
    const reads = sb.control.requests({ pathPrefix: '/api/iam/v' }).filter((r) => r.path !== AUTH_PATH);
    assert.deepEqual(reads.map((r) => `${r.path} ${ok(r.status) ? 'ok' : String(r.status)}`), ['/api/iam/v1/users 404', '/api/iam/v2/users ok']);
    assert.ok(new URLSearchParams(reads[1]?.query).get('companyId'), 'companyId from the JWT');
  });

  it('a power action before any read: the read proves the path first, then PATCH .../power with {id, datacenterId, powerAction}', async () => {
    const sb = await productionOnly();
    // The target as the tree holds it, listed by another window (its own memory).
    const stopped = (await fx.client(sb).list('virtualMachines', { limit: 200 })).items.find((v) => v.raw.powerState === 'stopped' && v.raw.template !== true);
    assert.ok(stopped, 'the sandbox seeds a stopped VM');
    sb.control.clearRequests();
    const client = fx.client(sb);
    const result = await client.perform('virtualMachines', 'powerOn', { target: stopped });
    assert.deepEqual(sent(sb), [`GET ${CONTRACT_VMS} 404`, `GET ${PRODUCTION_VMS} ok`, `PATCH ${PRODUCTION_VMS}/power ok`]);
    const patch = sb.control.requests({ pathPrefix: `${PRODUCTION_VMS}/power` })[0];
    const datacenter = stopped.raw.datacenter as { id: string };
    assert.deepEqual(patch?.body?.json, { powerAction: 'on', id: stopped.id, datacenterId: datacenter.id });
    assert.equal((await client.activities.follow(result.activityId)).state.kind, 'completed');
    sb.control.clearRequests();
    const after = await client.get('virtualMachines', stopped.id);
    assert.equal(after.raw.powerState, 'running');
    assert.deepEqual(sent(sb), [`GET ${PRODUCTION_VMS}/${stopped.id} ok`], 'a proven path needs no read before the next request');
  });

  it('every write kind goes to the path its collection\'s read proved: VMs created, modified (id in the body) and deleted, users created, networks created at their one path', async () => {
    const sb = await productionOnly();
    const client = fx.client(sb);
    const done = async (activityId: string): Promise<void> => assert.equal((await client.activities.follow(activityId, { initialDelayMs: 5, maxDelayMs: 20 })).state.kind, 'completed');

    // A write first: the read proves the path, then the write goes there (never to the contract's).
    await done((await client.perform('virtualMachines', 'create', { input: { name: 'prod-created', cpu: 2, memoryGiB: 4 } })).activityId);
    assert.deepEqual(sent(sb).filter((r) => !r.includes('/activity/')), [`GET ${CONTRACT_VMS} 404`, `GET ${PRODUCTION_VMS} ok`, `POST ${PRODUCTION_VMS} ok`]);
    const created = (await client.list('virtualMachines', { limit: 200 })).items.find((v) => v.name === 'prod-created');
    assert.ok(created, 'the VM was created');

    sb.control.clearRequests();
    await done((await client.perform('virtualMachines', 'modify', { target: created, input: { name: 'prod-renamed', cpu: 4 } })).activityId);
    const modify = sb.control.requests({ pathPrefix: '/api/compute' }).filter((r) => r.method !== 'GET');
    assert.deepEqual(modify.map((r) => `${r.method} ${r.path}`), [`PATCH ${PRODUCTION_VMS}`]);
    assert.deepEqual(modify[0]?.body?.json, { name: 'prod-renamed', cpu: 4, id: created.id });
    const renamed = await client.get('virtualMachines', created.id);
    assert.deepEqual([renamed.name, renamed.raw.cpu], ['prod-renamed', 4]);

    sb.control.clearRequests();
    await done((await client.perform('virtualMachines', 'delete', { target: renamed })).activityId);
    assert.deepEqual(sb.control.requests({ pathPrefix: '/api/compute' }).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`), [`DELETE ${PRODUCTION_VMS}/${created.id}`]);

    sb.control.clearRequests();
    await done((await client.perform('users', 'create', { input: { name: 'Prod User', email: 'prod.user@example.com' } })).activityId);
    const iam = sb.control.requests({ pathPrefix: '/api/iam/v' }).filter((r) => r.path !== AUTH_PATH).map((r) => `${r.method} ${r.path} ${ok(r.status) ? 'ok' : String(r.status)}`);
    assert.deepEqual(iam, ['GET /api/iam/v1/users 404', 'GET /api/iam/v2/users ok', 'POST /api/iam/v2/users ok']);
    assert.ok((await client.list('users', { limit: 200 })).items.some((u) => u.raw.email === 'prod.user@example.com'), 'the user was created');

    sb.control.clearRequests();
    await done((await client.perform('virtualNetworks', 'create', { input: { name: 'prod-net' } })).activityId);
    assert.deepEqual(sb.control.requests({ pathPrefix: '/api/network' }).map((r) => `${r.method} ${r.path}`), ['POST /api/network/v1/virtual-networks'], 'no probe where production follows the contract');
  });

  it('a modify on the contract console keeps the id in the path and out of the body', async () => {
    const sb = await fx.sandbox({ profile: 'production' });
    const client = fx.client(sb);
    const vm = (await client.list('virtualMachines', { limit: 1 })).items[0];
    assert.ok(vm);
    sb.control.clearRequests();
    await client.perform('virtualMachines', 'modify', { target: vm, input: { cpu: 3 } });
    const patch = sb.control.requests({ pathPrefix: '/api/compute' }).filter((r) => r.method === 'PATCH');
    assert.deepEqual(patch.map((r) => [r.path, r.body?.json]), [[`${CONTRACT_VMS}/${vm.id}`, { cpu: 3 }]]);
  });

  it('the production modify route refuses a body without the VM id, clearly', async () => {
    const sb = await productionOnly();
    const token = await (await fetch(`${sb.consoleUrl}${AUTH_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: sb.credentials.patId, secret: sb.credentials.patSecret }) })).text();
    const res = await fetch(`${sb.consoleUrl}${PRODUCTION_VMS}`, { method: 'PATCH', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ cpu: 2 }) });
    assert.equal(res.status, 400);
    assert.match(await res.text(), /'id' is required/);
  });

  it('a write never goes to a path no read proved: no collection answered, nothing is written', async () => {
    const stub = await fx.stub((req, res) => {
      if (req.path === AUTH_PATH) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(fakeJwt(jwtClaims()));
      } else json(res, 404, { error: { status: '404 Not Found', message: 'No route' } });
    });
    const client = fx.client({ consoleUrl: stub.url, credentials: { patId: 'pat-id-fixture', patSecret: 'pat-secret-fixture' } } as Sandbox);
    const target = { id: 'vm-1', name: 'web', raw: { id: 'vm-1', name: 'web', powerState: 'running', datacenter: { id: 'dc-1' } } };
    await assert.rejects(client.perform('virtualMachines', 'powerOff', { target }), NotFoundError);
    await assert.rejects(client.perform('virtualMachines', 'delete', { target }), NotFoundError);
    await assert.rejects(client.perform('virtualMachines', 'create', { input: { name: 'n' } }), NotFoundError);
    const seen = stub.requests.filter((r) => r.path !== AUTH_PATH).map((r) => `${r.method} ${r.path}`);
    assert.ok(seen.length > 0 && seen.every((r) => r.startsWith('GET ')), seen.join(', '));
  });

  it('a write that answers 404 at the proven path is not sent again at another path', async () => {
    const stub = await fx.stub((req, res) => {
      if (req.path === AUTH_PATH) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(fakeJwt(jwtClaims()));
      } else if (req.method === 'GET' && req.path === PRODUCTION_VMS) json(res, 200, []);
      else json(res, 404, { error: { status: '404 Not Found', message: 'No route' } });
    });
    const client = fx.client({ consoleUrl: stub.url, credentials: { patId: 'pat-id-fixture', patSecret: 'pat-secret-fixture' } } as Sandbox);
    const target = { id: 'vm-1', name: 'web', raw: { id: 'vm-1', name: 'web', powerState: 'running', datacenter: { id: 'dc-1' } } };
    await assert.rejects(client.perform('virtualMachines', 'powerOff', { target }), NotFoundError);
    const writes = stub.requests.filter((r) => r.method !== 'GET' && r.path !== AUTH_PATH).map((r) => `${r.method} ${r.path}`);
    assert.deepEqual(writes, [`PATCH ${PRODUCTION_VMS}/power`]);
  });

  it('a power action refuses a VM without its datacenter id in the production shape, before sending', async () => {
    const sb = await productionOnly();
    const client = fx.client(sb);
    await client.list('virtualMachines', { limit: 1 });
    sb.control.clearRequests();
    const target = { id: 'vm-x', name: 'bare', raw: { id: 'vm-x', name: 'bare', powerState: 'running' } };
    await assert.rejects(client.perform('virtualMachines', 'powerOff', { target }), /datacenter\.id/);
    assert.deepEqual(sent(sb), []);
  });

  it("a user's resourcePaths wins: no probing around the path the user chose", async () => {
    const sb = await productionOnly();
    const chosen = fx.client(sb, { resourcePaths: { virtualMachines: PRODUCTION_VMS } });
    await chosen.list('virtualMachines');
    assert.deepEqual(sent(sb), [`GET ${PRODUCTION_VMS} ok`]);
    sb.control.clearRequests();
    const wrong = fx.client(sb, { resourcePaths: { virtualMachines: CONTRACT_VMS } });
    await assert.rejects(wrong.list('virtualMachines'), NotFoundError);
    assert.deepEqual(sent(sb), [`GET ${CONTRACT_VMS} 404`], 'the user\'s path only');
  });

  it("a user's action path wins over the table's once the collection is found", async () => {
    const sb = await fx.sandbox({ profile: 'production', consolePaths: 'production' });
    const client = fx.client(sb, { resourcePaths: { 'virtualMachines.power': '{collection}/power-v2' } });
    const vm = (await client.list('virtualMachines')).items.find((v) => v.raw.powerState === 'running');
    assert.ok(vm);
    sb.control.clearRequests();
    await assert.rejects(client.perform('virtualMachines', 'powerOff', { target: vm }));
    assert.deepEqual(sent(sb).map((r) => r.split(' ').slice(0, 2).join(' ')), [`PATCH ${PRODUCTION_VMS}/power-v2`]);
  });

  it('the memory is per base URL: a contract console sharing it still asks the contract path', async () => {
    const memory = new InMemoryPathMemory();
    const production = await productionOnly();
    const contract = await fx.sandbox({ profile: 'contract' });
    await fx.client(production, { pathMemory: memory }).list('virtualMachines');
    await fx.client(contract, { pathMemory: memory }).list('virtualMachines');
    assert.equal(memory.get(production.consoleUrl, 'virtualMachines'), 'production');
    assert.equal(memory.get(`${production.consoleUrl}/`, 'virtualMachines'), 'production', 'a trailing slash is the same console');
    assert.equal(memory.get(contract.consoleUrl, 'virtualMachines'), 'contract');
    assert.deepEqual(sent(contract), [`GET ${CONTRACT_VMS} ok`]);
    production.control.clearRequests();
    await fx.client(production, { pathMemory: memory }).list('virtualMachines');
    assert.deepEqual(sent(production), [`GET ${PRODUCTION_VMS} ok`], 'a new client of that console asks production directly');
  });

  it('a remembered path is persisted, and read back it is used for reads and writes alike', async () => {
    const sb = await productionOnly();
    const saved: PathMemorySnapshot[] = [];
    await fx.client(sb, { pathMemory: new InMemoryPathMemory(undefined, (s) => saved.push(s)) }).list('virtualMachines');
    assert.deepEqual(saved, [{ [sb.consoleUrl]: { virtualMachines: 'production' } }]);
    const vm = (await fx.client(sb).list('virtualMachines')).items.find((v) => v.raw.powerState === 'running');
    assert.ok(vm);
    sb.control.clearRequests();
    const restored = fx.client(sb, { pathMemory: new InMemoryPathMemory(saved[0]) });
    await restored.perform('virtualMachines', 'powerOff', { target: vm });
    assert.deepEqual(sent(sb), [`PATCH ${PRODUCTION_VMS}/power ok`]);
  });

  it('a remembered production path that now answers 404 is read at the contract path again', async () => {
    // The console was upgraded: the production path is gone, the contract's answers.
    const stub = await fx.stub((req, res) => {
      if (req.path === AUTH_PATH) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(fakeJwt(jwtClaims()));
      } else if (req.method === 'GET' && req.path === CONTRACT_VMS) json(res, 200, { items: [{ id: 'vm-1', name: 'web' }], total: 1 });
      else json(res, 404, { error: { status: '404 Not Found', message: 'No route' } });
    });
    const moved = new InMemoryPathMemory({ [stub.url]: { virtualMachines: 'production' } });
    const client = fx.client({ consoleUrl: stub.url, credentials: { patId: 'pat-id-fixture', patSecret: 'pat-secret-fixture' } } as Sandbox, { pathMemory: moved });
    assert.equal((await client.list('virtualMachines')).items.length, 1);
    assert.equal(moved.get(stub.url, 'virtualMachines'), 'contract');
  });

  it('kinds without a production row are read at their one path, with no probe', async () => {
    const sb = await fx.sandbox({ profile: 'contract', consolePaths: 'production' });
    const client = fx.client(sb);
    await client.list('roles');
    await client.list('virtualNetworks');
    const reads = sb.control.requests({ pathPrefix: '/api/' }).filter((r) => r.path !== AUTH_PATH).map((r) => `${r.path} ${ok(r.status) ? 'ok' : String(r.status)}`);
    assert.deepEqual(reads, ['/api/iam/v2/roles ok', '/api/network/v1/virtual-networks ok']);
  });

  it('every row of the table is a valid resourcePaths key and path; a stored memory is range-checked', () => {
    assert.ok(PRODUCTION_PATHS.some((r) => r.key === 'virtualMachines.power' && r.path === '{collection}/power'));
    for (const row of PRODUCTION_PATHS) assert.ok(row.source.length > 0, row.key);
    assert.deepEqual(readSnapshot({ a: { virtualMachines: 'production', users: 'elsewhere' }, b: 'x' }), { a: { virtualMachines: 'production' } });
    assert.deepEqual(readSnapshot('not an object'), {});
  });
});
