import assert from 'node:assert/strict';
import { ValidationError } from '../../../src/core/errors';
import { DEFAULT_CATALOG, ResourceCatalog, resolveCatalog, RESOURCE_PATHS_SETTING, type ResourceItem } from '../../../src/core/console/index';
import { endpointsInUse } from '../../../src/core/console/catalog/routes';
import { buildBody } from '../../../src/core/console/catalog/actionInputs';

const GIB = 1024 ** 3;

function vm(raw: Record<string, unknown>): ResourceItem {
  return { id: String(raw.id ?? 'vm-1'), name: String(raw.name ?? 'vm'), raw: { id: 'vm-1', ...raw } };
}

describe('console/catalog', () => {
  const catalog = new ResourceCatalog(resolveCatalog());

  it('has the contract defaults: module, version, path, icon, read-only roles', () => {
    const rows = catalog.kinds.map((k) => [k.id, k.module, k.version, k.collection, k.icon, k.readOnly]);
    assert.deepEqual(rows, [
      ['virtualMachines', 'compute', 1, '/api/compute/v1/virtual-machines', 'vm', false],
      ['users', 'iam', 1, '/api/iam/v1/users', 'person', false],
      ['roles', 'iam', 2, '/api/iam/v2/roles', 'shield', true],
      ['virtualNetworks', 'network', 1, '/api/network/v1/virtual-networks', 'type-hierarchy', false],
    ]);
  });

  it('presents a VM: name, "2 vCPU · 4 GiB · OS", power state as icon, tooltip lines', () => {
    const item = vm({
      name: 'web-01',
      cpu: 2,
      memory: 4 * GIB,
      operatingSystem: { name: 'Ubuntu 24.04' },
      powerState: 'running',
      datacenter: { id: 'dc', name: 'DC-PAR7-A' },
      unknownField: { deep: [1, 2] },
    });
    const view = catalog.present('virtualMachines', item);
    assert.equal(view.label, 'web-01');
    assert.equal(view.description, '2 vCPU · 4 GiB · Ubuntu 24.04');
    assert.equal(view.icon, 'vm-running');
    assert.match(view.tooltip, /^web-01\nID: vm-1\nPower state: running\n/);
    assert.ok(view.details.some((d) => d.label === 'Datacenter' && d.value === 'DC-PAR7-A'));
    assert.equal(catalog.present('virtualMachines', vm({ powerState: 'stopped' })).icon, 'vm-outline');
    assert.equal(catalog.present('virtualMachines', vm({ powerState: 'weird' })).icon, 'vm');
    assert.equal(catalog.present('virtualMachines', vm({ memory: 512 * 1024 ** 2 })).description, '512 MiB');
    assert.equal(catalog.present('virtualMachines', vm({})).description, '');
  });

  it('presents networks with counted units, users by name or email', () => {
    const net = { id: 'n', name: 'VLAN-101', raw: { id: 'n', virtualMachinesNumber: 1, hostNumber: 3 } };
    assert.equal(catalog.present('virtualNetworks', net).description, '1 VM · 3 hosts');
    const user = { id: 'u', name: 'a@b.c', raw: { id: 'u', email: 'a@b.c', emailVerified: false } };
    const view = catalog.present('users', user);
    assert.equal(view.description, 'a@b.c');
    assert.match(view.tooltip, /Email verified: no/);
  });

  it('offers the actions that apply to a resource', () => {
    const ids = (item?: ResourceItem, kind = 'virtualMachines'): string[] => catalog.actionsFor(kind, item).map((a) => a.id);
    assert.deepEqual(ids(), ['create']);
    assert.deepEqual(ids(vm({ powerState: 'running' })), ['modify', 'powerOff', 'delete']);
    assert.deepEqual(ids(vm({ powerState: 'stopped' })), ['modify', 'powerOn', 'delete']);
    assert.deepEqual(ids(vm({ powerState: 'stopped', template: true })), ['modify', 'delete']);
    assert.deepEqual(ids(undefined, 'roles'), []);
    assert.equal(catalog.confirmation('virtualMachines', 'delete', vm({ name: 'db-7' })), "Delete virtual machine 'db-7'? This cannot be undone.");
    assert.equal(catalog.confirmation('virtualMachines', 'create'), undefined);
    assert.deepEqual(catalog.initialInput('virtualMachines', 'create'), { cpu: 2, memoryGiB: 4, powerOn: false });
    assert.deepEqual(catalog.initialInput('virtualMachines', 'modify', vm({ name: 'a', cpu: 8, memory: 16 * GIB })), { name: 'a', cpu: 8, memoryGiB: 16 });
  });

  describe('request bodies from inputs', () => {
    const create = catalog.action('virtualMachines', 'create');
    const modify = catalog.action('virtualMachines', 'modify');
    const powerOn = catalog.action('virtualMachines', 'powerOn');

    it('fills defaults, scales units and nests dotted wire paths', () => {
      assert.deepEqual(buildBody(create, { name: ' web ', memoryGiB: '8', operatingSystem: 'Debian' }, undefined, false), {
        name: 'web',
        cpu: 2,
        memory: 8 * GIB,
        operatingSystem: { name: 'Debian' },
        powerOn: false,
      });
    });

    it('refuses missing, malformed, out-of-range and unknown inputs with the field as param', () => {
      assert.throws(() => buildBody(create, {}, undefined, false), { kind: 'validation', param: 'name' });
      assert.throws(() => buildBody(create, { name: 'x', cpu: 1.5 }, undefined, false), { param: 'cpu' });
      assert.throws(() => buildBody(create, { name: 'x', cpu: 500 }, undefined, false), { param: 'cpu' });
      assert.throws(() => buildBody(create, { name: 'x', colour: 'red' }, undefined, false), { param: 'colour' });
      const user = catalog.action('users', 'create');
      assert.throws(() => buildBody(user, { name: 'x', email: 'not-an-email' }, undefined, false), { param: 'email' });
      assert.throws(() => buildBody(modify, {}, vm({}), true), /Nothing to change/);
    });

    it('a modify sends only what changed', () => {
      assert.deepEqual(buildBody(modify, { cpu: 4, name: '' }, vm({}), true), { cpu: 4 });
    });

    it('power actions send the id in the body only when the path has none', () => {
      const item = vm({ datacenter: { id: 'dc-1' } });
      assert.deepEqual(buildBody(powerOn, undefined, item, true), { powerAction: 'on' });
      assert.deepEqual(buildBody(powerOn, undefined, item, false), { powerAction: 'on', id: 'vm-1', datacenterId: 'dc-1' });
    });
  });

  describe(`overrides (${RESOURCE_PATHS_SETTING})`, () => {
    it('changes paths, and the module and version follow the path', () => {
      const kinds = resolveCatalog({
        virtualMachines: '/api/compute/v1/vcenters/virtual_machines',
        'virtualMachines.power': '{collection}/power',
        users: '/api/iam/v2/users?companyId={companyId}',
      });
      const vms = kinds.find((k) => k.id === 'virtualMachines');
      assert.equal(vms?.collection, '/api/compute/v1/vcenters/virtual_machines');
      assert.deepEqual(vms?.actions.filter((a) => a.pathKey === 'power').map((a) => a.path), ['{collection}/power', '{collection}/power']);
      const users = kinds.find((k) => k.id === 'users');
      assert.deepEqual([users?.module, users?.version], ['iam', 2]);
      assert.deepEqual(resolveCatalog({}).map((k) => k.collection), DEFAULT_CATALOG.map((k) => k.collection));
      assert.equal(resolveCatalog(undefined).length, 4);
    });

    const bad: Array<[string, unknown, RegExp]> = [
      ['not an object', '/api/x/v1/y', /must be an object/],
      ['an array', ['x'], /must be an object/],
      ['an unknown kind', { vms: '/api/compute/v1/x' }, /"vms" unknown resource kind \(known: virtualMachines, users, roles, virtualNetworks\)/],
      ['a non-string', { users: 42 }, /"users" must be a non-empty string/],
      ['a path outside /api', { users: '/iam/v1/users' }, /must look like \/api\/\{module\}\/v\{version\}/],
      ['a missing version', { users: '/api/iam/users' }, /must look like/],
      ['a relative path', { users: 'api/iam/v1/users' }, /must look like/],
      ['dot segments', { users: '/api/iam/v1/../v2/users' }, /"\." or "\.\." segments/],
      ['an unknown placeholder', { users: '/api/iam/v1/users?x={secret}' }, /may not use \{secret\}/],
      ['{id} in a collection', { users: '/api/iam/v1/{id}' }, /may not use \{id\}/],
      ['an item template without {id}', { 'users.item': '/api/iam/v1/users/me' }, /must contain \{id\}/],
      ['an item path on a kind without one', { 'roles.item': '/api/iam/v2/roles/{id}' }, /no read-one endpoint/],
      ['an unknown action', { 'virtualMachines.reboot': '/api/compute/v1/x/{id}' }, /unknown action \(known: create, modify, power, delete, item\)/],
      ['a delete without {id}', { 'virtualMachines.delete': '/api/compute/v1/vms' }, /must contain \{id\}/],
    ];
    for (const [what, value, message] of bad) {
      it(`rejects ${what} with a clear ValidationError`, () => {
        assert.throws(() => resolveCatalog(value), (e: unknown) => {
          assert.ok(e instanceof ValidationError);
          assert.match(e.message, message);
          assert.ok(e.param.startsWith(RESOURCE_PATHS_SETTING));
          return true;
        });
      });
    }

    it('reports every problem at once', () => {
      assert.throws(() => resolveCatalog({ a: 'x', users: 1 }), (e: unknown) => {
        assert.ok(e instanceof ValidationError);
        assert.match(e.message, /"a" unknown.*; "users" must be/);
        assert.equal(e.param, RESOURCE_PATHS_SETTING);
        return true;
      });
    });
  });

  describe('endpoints in use', () => {
    it('lists auth, activity and every catalog route with module and version', () => {
      const list = endpointsInUse(resolveCatalog());
      const rows = list.map((e) => `${e.module} v${e.version} ${e.method} ${e.path}`);
      assert.deepEqual(rows, [
        'activity v1 GET /api/activity/v1/activities',
        'activity v1 GET /api/activity/v1/activities/{id}',
        'compute v1 GET /api/compute/v1/virtual-machines',
        'compute v1 POST /api/compute/v1/virtual-machines',
        'compute v1 DELETE /api/compute/v1/virtual-machines/{id}',
        'compute v1 GET /api/compute/v1/virtual-machines/{id}',
        'compute v1 PATCH /api/compute/v1/virtual-machines/{id}',
        'iam v1 GET /api/iam/v1/users',
        'iam v1 POST /api/iam/v1/users',
        'iam v1 GET /api/iam/v1/users/{id}',
        'iam v2 POST /api/iam/v2/auth/personal_access_token',
        'iam v2 GET /api/iam/v2/roles',
        'network v1 GET /api/network/v1/virtual-networks',
        'network v1 POST /api/network/v1/virtual-networks',
      ]);
      const patch = list.find((e) => e.method === 'PATCH');
      assert.match(patch?.purpose ?? '', /Modify.*Power On.*Power Off/);
      assert.ok(list.every((e) => e.purpose.length > 0));
    });

    it('follows overrides', () => {
      const list = endpointsInUse(
        resolveCatalog({ virtualMachines: '/api/compute/v1/vcenters/virtual_machines', 'virtualMachines.power': '{collection}/power' }),
      );
      const compute = list.filter((e) => e.module === 'compute').map((e) => `${e.method} ${e.path}`);
      assert.ok(compute.includes('PATCH /api/compute/v1/vcenters/virtual_machines/power'));
      assert.ok(compute.includes('GET /api/compute/v1/vcenters/virtual_machines/{id}'));
      assert.ok(!compute.some((p) => p.includes('virtual-machines')));
    });
  });
});
