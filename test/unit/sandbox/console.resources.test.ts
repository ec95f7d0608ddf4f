import assert from 'node:assert/strict';
import { consoleCall, consoleToken, settle, useSandbox, type ConsoleErrorEnvelope } from './helpers';

const VMS = '/api/compute/v1/virtual-machines';
const GIB = 1024 ** 3;

interface Vm {
  id: string;
  name: string;
  moref: string;
  powerState: string;
  cpu: number;
  numCoresPerSocket: number;
  memory: number;
  operatingSystem: { name: string };
  datacenter: { id: string; name: string };
  hostCluster: { id: string; name: string };
  datastore: { id: string; name: string };
  tools: string;
  template: boolean;
  [extra: string]: unknown;
}
const VM_FIELDS = ['cpu', 'datacenter', 'datastore', 'hostCluster', 'id', 'memory', 'moref', 'name', 'numCoresPerSocket', 'operatingSystem', 'powerState', 'template', 'tools'];

describe('sandbox console: resources (contract profile)', () => {
  const sb = useSandbox({ vmCount: 25 });
  let token = '';
  beforeEach(async () => {
    sb().control.reset();
    token = await consoleToken(sb());
  });
  const get = (path: string): ReturnType<typeof consoleCall> => consoleCall(sb(), token, path);
  const send = (method: string, path: string, body?: unknown): ReturnType<typeof consoleCall> => consoleCall(sb(), token, path, body === undefined ? { method } : { method, body });
  const items = async (path: string): Promise<Vm[]> => ((await get(path)).json as { items: Vm[] }).items;

  describe('virtual machines (compute v1)', () => {
    it('lists the seeded VMs with the field-notes fields', async () => {
      const r = await get(VMS);
      assert.equal(r.status, 200);
      const body = r.json as { items: Vm[]; total: number };
      assert.equal(body.total, 25);
      assert.equal(body.items.length, 25);
      for (const vm of body.items) {
        assert.deepEqual(Object.keys(vm).sort(), VM_FIELDS);
        assert.match(vm.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        assert.ok(['running', 'stopped'].includes(vm.powerState));
        assert.ok(vm.memory >= GIB && vm.memory % GIB === 0, 'memory in bytes');
        assert.equal(typeof vm.operatingSystem.name, 'string');
        for (const ref of [vm.datacenter, vm.hostCluster, vm.datastore]) assert.deepEqual(Object.keys(ref).sort(), ['id', 'name']);
      }
      assert.equal(body.items[0]?.name, 'web-001');
    });

    it('reads one VM; unknown id: 404', async () => {
      const [first] = await items(VMS);
      const r = await get(`${VMS}/${first?.id ?? ''}`);
      assert.deepEqual(r.json, first);
      const missing = await get(`${VMS}/00000000-0000-4000-8000-000000000000`);
      assert.equal(missing.status, 404);
      assert.equal((missing.json as ConsoleErrorEnvelope).error.status, '404 Not Found');
    });

    it('create: 201 + activity; the VM exists once the activity completed, with the requested fields', async () => {
      const write = await send('POST', VMS, { name: 'new-vm', cpu: 4, numCoresPerSocket: 2, memory: 8 * GIB, operatingSystem: { name: 'Debian GNU/Linux 12 (64-bit)' }, powerOn: true });
      assert.equal(write.status, 201);
      assert.equal(write.text, '');
      assert.equal((await items(`${VMS}?name=new-vm`)).length, 0, 'not before completion');
      const activity = await settle(sb(), token, write);
      const id = String(activity.state.result);
      assert.deepEqual(activity.concernedItems, [{ type: 'virtual_machine', id }]);
      const vm = (await get(`${VMS}/${id}`)).json as Vm;
      assert.equal(vm.name, 'new-vm');
      assert.equal(vm.cpu, 4);
      assert.equal(vm.numCoresPerSocket, 2);
      assert.equal(vm.memory, 8 * GIB);
      assert.equal(vm.operatingSystem.name, 'Debian GNU/Linux 12 (64-bit)');
      assert.equal(vm.powerState, 'running');
      assert.equal(((await get(VMS)).json as { total: number }).total, 26);
    });

    it('create validation: 400 with the console error shape', async () => {
      for (const body of [{}, { name: '' }, { name: 'x'.repeat(81) }, { name: 'a', cpu: 0 }, { name: 'a', memory: 5 }, { name: 'a', powerOn: 'yes' }, { name: 'a', datacenterId: 'nope' }, { name: 'a', operatingSystem: 5 }]) {
        const r = await send('POST', VMS, body);
        assert.equal(r.status, 400, JSON.stringify(body));
        assert.equal((r.json as ConsoleErrorEnvelope).error.status, '400 Bad Request');
      }
      assert.equal((await send('POST', VMS, 'not json')).status, 400);
    });

    it('PATCH powerAction off/on changes powerState once the activity completed', async () => {
      const running = (await items(VMS)).find((vm) => vm.powerState === 'running');
      assert.ok(running);
      const off = await settle(sb(), token, await send('PATCH', `${VMS}/${running.id}`, { powerAction: 'off' }));
      assert.equal(off.state.result, running.id);
      assert.match(off.description, /^Power off virtual machine/);
      assert.equal(((await get(`${VMS}/${running.id}`)).json as Vm).powerState, 'stopped');
      await settle(sb(), token, await send('PATCH', `${VMS}/${running.id}`, { powerAction: 'on' }));
      assert.equal(((await get(`${VMS}/${running.id}`)).json as Vm).powerState, 'running');
    });

    it('PATCH other fields (rename, resize)', async () => {
      const [vm] = await items(VMS);
      await settle(sb(), token, await send('PATCH', `${VMS}/${vm?.id ?? ''}`, { name: 'renamed', cpu: 16, memory: 2 * GIB }));
      const after = (await get(`${VMS}/${vm?.id ?? ''}`)).json as Vm;
      assert.deepEqual([after.name, after.cpu, after.memory], ['renamed', 16, 2 * GIB]);
    });

    it('PATCH errors: unknown id 404, empty or invalid body 400, template power 400', async () => {
      const list = await items(VMS);
      const vm = list[1];
      const template = list.find((v) => v.template);
      assert.ok(vm && template);
      assert.equal((await send('PATCH', `${VMS}/00000000-0000-4000-8000-000000000000`, { powerAction: 'on' })).status, 404);
      assert.equal((await send('PATCH', `${VMS}/${vm.id}`, {})).status, 400);
      assert.equal((await send('PATCH', `${VMS}/${vm.id}`, { powerAction: 'reboot' })).status, 400);
      assert.equal((await send('PATCH', `${VMS}/${template.id}`, { powerAction: 'on' })).status, 400);
    });

    it('DELETE removes the VM once the activity completed; unknown id 404', async () => {
      const [vm] = await items(VMS);
      const write = await send('DELETE', `${VMS}/${vm?.id ?? ''}`);
      assert.equal(write.status, 201);
      assert.equal((await get(`${VMS}/${vm?.id ?? ''}`)).status, 200, 'still there while running');
      const activity = await settle(sb(), token, write);
      assert.equal(activity.state.result, vm?.id);
      assert.equal((await get(`${VMS}/${vm?.id ?? ''}`)).status, 404);
      assert.equal((await send('DELETE', `${VMS}/${vm?.id ?? ''}`)).status, 404);
    });

    it('production-style paths are served too (vcenters/virtual_machines, PATCH .../power)', async () => {
      const list = (await get('/api/compute/v1/vcenters/virtual_machines')).json as { items: Vm[] };
      const vm = list.items.find((v) => v.powerState === 'running');
      assert.ok(vm);
      assert.equal((await get(`/api/compute/v1/vcenters/virtual_machines/${vm.id}`)).status, 200);
      const write = await send('PATCH', '/api/compute/v1/vcenters/virtual_machines/power', { id: vm.id, datacenterId: vm.datacenter.id, powerAction: 'off' });
      await settle(sb(), token, write);
      assert.equal(((await get(`${VMS}/${vm.id}`)).json as Vm).powerState, 'stopped');
      assert.equal((await send('PATCH', '/api/compute/v1/vcenters/virtual_machines/power', { powerAction: 'off' })).status, 400);
      const created = await settle(sb(), token, await send('POST', '/api/compute/v1/vcenters/virtual_machines', { name: 'via-vcenter', cpu: 2, memory: 4 * GIB }));
      const id = String(created.state.result);
      assert.equal(((await get(`${VMS}/${id}`)).json as Vm).name, 'via-vcenter');
      await settle(sb(), token, await send('DELETE', `/api/compute/v1/vcenters/virtual_machines/${id}`));
      assert.equal((await get(`${VMS}/${id}`)).status, 404);
    });
  });

  describe('users (iam v1, v2), roles (iam v2), networks (network v1)', () => {
    it('lists and reads users with the field-notes fields', async () => {
      const body = (await get('/api/iam/v1/users')).json as { items: Array<Record<string, unknown>>; total: number };
      assert.equal(body.total, 12);
      for (const u of body.items) assert.deepEqual(Object.keys(u).sort(), ['email', 'emailVerified', 'id', 'internalId', 'name', 'source', 'sourceId', 'type']);
      const first = body.items[0];
      assert.equal(first?.name, 'Demo User');
      assert.deepEqual((await get(`/api/iam/v1/users/${String(first?.id)}`)).json, first);
      assert.equal((await get('/api/iam/v1/users/nope')).status, 404);
    });

    it('creates a user through an IAMActivity; validation 400', async () => {
      const activity = await settle(sb(), token, await send('POST', '/api/iam/v1/users', { name: 'Zoé Martin', email: 'zoe@sandbox.example' }));
      assert.equal(activity.type, 'IAMActivity');
      const created = (await get(`/api/iam/v1/users/${String(activity.state.result)}`)).json as Record<string, unknown>;
      assert.equal(created.email, 'zoe@sandbox.example');
      assert.equal(created.emailVerified, false);
      assert.equal((await send('POST', '/api/iam/v1/users', { name: 'x', email: 'not-an-email' })).status, 400);
      assert.equal((await send('POST', '/api/iam/v1/users', { email: 'a@b.c' })).status, 400);
    });

    it('GET /api/iam/v2/users?companyId= lists users for the JWT company; other company 403, none 400', async () => {
      const jwtClaims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { companyId: string };
      const ok = await get(`/api/iam/v2/users?companyId=${jwtClaims.companyId}`);
      assert.equal((ok.json as { total: number }).total, 12);
      assert.equal((await get('/api/iam/v2/users?companyId=00000000-0000-4000-8000-000000000000')).status, 403);
      assert.equal((await get('/api/iam/v2/users')).status, 400);
    });

    it('roles are listed under iam v2 only (v1: 404)', async () => {
      const body = (await get('/api/iam/v2/roles')).json as { items: Array<Record<string, unknown>>; total: number };
      assert.ok(body.total >= 10);
      for (const role of body.items) assert.deepEqual(Object.keys(role).sort(), ['id', 'name']);
      assert.equal((await get('/api/iam/v1/roles')).status, 404);
    });

    it('lists and creates virtual networks', async () => {
      const body = (await get('/api/network/v1/virtual-networks')).json as { items: Array<Record<string, unknown>>; total: number };
      assert.equal(body.total, 8);
      for (const n of body.items) assert.deepEqual(Object.keys(n).sort(), ['hostNumber', 'id', 'moref', 'name', 'virtualMachinesNumber']);
      const activity = await settle(sb(), token, await send('POST', '/api/network/v1/virtual-networks', { name: 'VLAN-900-lab' }));
      assert.equal(((await get('/api/network/v1/virtual-networks?name=lab')).json as { items: Array<{ id: string }> }).items[0]?.id, activity.state.result);
      assert.equal((await send('POST', '/api/network/v1/virtual-networks', {})).status, 400);
    });
  });

  it('unknown console routes: 404; wrong method: 405 with Allow', async () => {
    assert.equal((await get('/api/backup/v1/jobs')).status, 404);
    const r = await send('PUT', VMS, {});
    assert.equal(r.status, 405);
    assert.equal(r.headers.get('allow'), 'GET, POST');
    assert.equal((await send('DELETE', '/api/iam/v2/roles')).status, 405);
  });
});

describe('sandbox console: resources (production profile)', () => {
  const sb = useSandbox({ profile: 'production' });
  it('resources carry unknown extra fields', async () => {
    const token = await consoleToken(sb());
    const vms = (await consoleCall(sb(), token, VMS)).json as Vm[];
    assert.ok(Array.isArray(vms));
    assert.equal(vms[0]?.machineManagerType, 'vcenter');
    const users = (await consoleCall(sb(), token, '/api/iam/v1/users')).json as Array<Record<string, unknown>>;
    assert.ok('companyId' in (users[0] ?? {}));
  });
});
