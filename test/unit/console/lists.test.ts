import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { MalformedResponseError, ValidationError } from '../../../src/core/errors';
import { createConsoleClient, type ConsoleClient, type ResourceItem } from '../../../src/core/console/index';
import { AUTH_PATH, PROFILES, captureLogger, fakeJwt, Fixtures, json, jwtClaims, type StubRequest } from './helpers';

async function collectAll(client: ConsoleClient, kind: string, limit: number, name?: string): Promise<{ items: ResourceItem[]; pages: number }> {
  const items: ResourceItem[] = [];
  let offset: number | undefined = 0;
  let pages = 0;
  while (offset !== undefined) {
    const page = await client.list(kind, { limit, offset, name });
    items.push(...page.items);
    offset = page.nextOffset;
    pages++;
    assert.ok(pages < 50, 'paging terminates');
  }
  return { items, pages };
}

describe('console/lists against the sandbox', () => {
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  for (const profile of PROFILES) {
    describe(`${profile} profile`, () => {
      it(`pages through a collection (${profile === 'contract' ? 'envelope with total' : 'bare array, 206 + Content-Range'})`, async () => {
        const sb = await fx.sandbox({ profile, vmCount: 25 });
        const client = fx.client(sb);
        const first = await client.list('virtualMachines', { limit: 10 });
        assert.equal(first.items.length, 10);
        assert.equal(first.total, 25);
        assert.equal(first.nextOffset, 10);
        assert.equal(first.partial, profile === 'production');
        const last = await client.list('virtualMachines', { limit: 10, offset: 20 });
        assert.equal(last.items.length, 5);
        assert.equal(last.nextOffset, undefined);
        const all = await collectAll(client, 'virtualMachines', 10);
        assert.equal(all.pages, 3);
        assert.equal(new Set(all.items.map((i) => i.id)).size, 25);
        const query = sb.control.requests({ pathPrefix: '/api/compute' })[0]?.query ?? '';
        assert.match(query, /limit=10/);
        assert.match(query, /offset=0/);
      });

      it('returns everything in one page when it fits', async () => {
        const sb = await fx.sandbox({ profile });
        const client = fx.client(sb);
        const roles = await client.list('roles');
        assert.equal(roles.items.length, 16);
        assert.equal(roles.total, 16);
        assert.equal(roles.partial, false);
        assert.equal(roles.nextOffset, undefined);
        assert.ok(roles.items.every((r) => typeof r.id === 'string' && r.name.length > 0));
      });

      it('filters by name (server-side `name` parameter)', async () => {
        const sb = await fx.sandbox({ profile, vmCount: 40 });
        const client = fx.client(sb);
        const all = await collectAll(client, 'virtualMachines', 3, 'WEB');
        assert.ok(all.items.length >= 2);
        assert.ok(all.items.every((i) => i.name.toLowerCase().includes('web')));
        assert.match(sb.control.requests({ pathPrefix: '/api/compute' })[0]?.query ?? '', /name=WEB/);
      });

      it('normalises items to {id, name, raw}, keeping unknown fields', async () => {
        const sb = await fx.sandbox({ profile });
        const client = fx.client(sb);
        const [vm] = (await client.list('virtualMachines', { limit: 1 })).items;
        assert.ok(vm);
        assert.equal(vm.name, vm.raw.name);
        if (profile === 'production') assert.equal(vm.raw.machineManagerType, 'vcenter');
        const users = await client.list('users', { limit: 3 });
        assert.ok(users.items.every((u) => u.id && u.name));
      });

      it('follows overridden production paths, with {companyId} from the token', async () => {
        const sb = await fx.sandbox({ profile });
        const client = fx.client(sb, {
          resourcePaths: {
            virtualMachines: '/api/compute/v1/vcenters/virtual_machines',
            users: '/api/iam/v2/users?companyId={companyId}',
          },
        });
        const vms = await client.list('virtualMachines', { limit: 5 });
        assert.equal(vms.items.length, 5);
        const users = await client.list('users', { limit: 100 });
        assert.ok(users.items.length > 0);
        const usersRequest = sb.control.requests({ pathPrefix: '/api/iam/v2/users' })[0];
        assert.match(usersRequest?.query ?? '', new RegExp(`companyId=${client.auth.session?.companyId ?? 'missing'}`));
        assert.ok(sb.control.requests({ pathPrefix: '/api/compute/v1/vcenters/virtual_machines' }).length === 1);
      });

      it('reads one resource by id', async () => {
        const sb = await fx.sandbox({ profile });
        const client = fx.client(sb);
        const [vm] = (await client.list('virtualMachines', { limit: 1 })).items;
        const one = await client.get('virtualMachines', vm?.id ?? '');
        assert.equal(one.id, vm?.id);
        assert.equal(one.name, vm?.name);
        await assert.rejects(client.get('virtualMachines', 'no-such-vm'), { kind: 'not_found' });
        await assert.rejects(client.get('roles', 'x'), ValidationError);
      });
    });
  }

  it('rejects a bad page size before sending', async () => {
    const sb = await fx.sandbox({});
    const client = fx.client(sb);
    await assert.rejects(client.list('roles', { limit: 0 }), { kind: 'validation', param: 'limit' });
    await assert.rejects(client.list('roles', { limit: 1001 }), ValidationError);
    await assert.rejects(client.list('roles', { offset: -1 }), { param: 'offset' });
    await assert.rejects(client.list('nope'), { param: 'kind' });
    assert.equal(sb.control.requests().length, 0);
  });
});

describe('console/lists against a stub server (shapes the sandbox does not send)', () => {
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  const vms = Array.from({ length: 30 }, (_, i) => ({ id: `vm-${i}`, name: i % 3 === 0 ? `web-${i}` : `db-${i}`, extra: { nested: true } }));

  async function clientFor(handler: (req: StubRequest, res: ServerResponse) => void) {
    const stub = await fx.stub((req, res) => (req.path === AUTH_PATH ? res.end(fakeJwt(jwtClaims())) : handler(req, res)));
    const logger = captureLogger();
    const client = fx.track(createConsoleClient({ baseUrl: stub.url, pat: { id: async () => 'i', secret: async () => 's' }, logger }));
    return { client, stub, logger };
  }

  it('a bare array that ignores limit/offset/name is paged and filtered here', async () => {
    const { client, stub } = await clientFor((_req, res) => json(res, 200, vms));
    const first = await client.list('virtualMachines', { limit: 10 });
    assert.deepEqual(first.items.map((i) => i.id), vms.slice(0, 10).map((v) => v.id));
    assert.equal(first.total, 30);
    assert.equal(first.nextOffset, 10);
    const last = await client.list('virtualMachines', { limit: 10, offset: 20 });
    assert.equal(last.items[0]?.id, 'vm-20');
    assert.equal(last.nextOffset, undefined);
    const webs = await client.list('virtualMachines', { limit: 100, name: 'Web' });
    assert.equal(webs.items.length, 10);
    assert.ok(webs.items.every((i) => i.name.startsWith('web-')));
    assert.equal(webs.total, 10);
    assert.equal(stub.requests.at(-1)?.query.get('name'), 'Web');
  });

  it('a bare 200 array shorter than the page is complete: no next page', async () => {
    const { client } = await clientFor((_req, res) => json(res, 200, vms.slice(0, 10)));
    const page = await client.list('virtualMachines', { limit: 20 });
    assert.equal(page.items.length, 10);
    assert.equal(page.total, 10);
    assert.equal(page.nextOffset, undefined);
  });

  it('a bare 200 array as long as the page asked for (no total) may have more: next page offered', async () => {
    const { client } = await clientFor((req, res) => {
      const offset = Number(req.query.get('offset'));
      json(res, 200, vms.slice(offset, offset + Number(req.query.get('limit'))));
    });
    const page = await client.list('virtualMachines', { limit: 10 });
    assert.equal(page.items.length, 10);
    assert.equal(page.total, undefined);
    assert.equal(page.nextOffset, 10);
    const end = await client.list('virtualMachines', { limit: 10, offset: 30 });
    assert.equal(end.items.length, 0);
    assert.equal(end.nextOffset, undefined, 'an empty page ends the list');
  });

  for (const key of ['items', 'vms', 'data', 'results']) {
    it(`an envelope {${key}: [...]} without a total pages while pages are full`, async () => {
      const { client } = await clientFor((req, res) => {
        const offset = Number(req.query.get('offset'));
        const limit = Number(req.query.get('limit'));
        json(res, 200, { [key]: vms.slice(offset, offset + limit) });
      });
      const first = await client.list('virtualMachines', { limit: 20 });
      assert.equal(first.items.length, 20);
      assert.equal(first.total, undefined);
      assert.equal(first.nextOffset, 20);
      const second = await client.list('virtualMachines', { limit: 20, offset: 20 });
      assert.equal(second.items.length, 10);
      assert.equal(second.nextOffset, undefined);
    });
  }

  it('206 with an envelope is partial and offers the next page', async () => {
    const { client } = await clientFor((_req, res) => json(res, 206, { items: vms.slice(0, 5), total: 30 }));
    const page = await client.list('virtualMachines', { limit: 5 });
    assert.equal(page.partial, true);
    assert.equal(page.total, 30);
    assert.equal(page.nextOffset, 5);
  });

  it('206 with a bare array and no Content-Range still offers more', async () => {
    const { client } = await clientFor((_req, res) => json(res, 206, vms.slice(0, 5)));
    const page = await client.list('virtualMachines', { limit: 5 });
    assert.equal(page.partial, true);
    assert.equal(page.total, undefined);
    assert.equal(page.nextOffset, 5);
  });

  it('skips unusable items with one warning, never crashes', async () => {
    const body = [null, 'text', 42, { name: 'no id' }, { id: 7, name: 'numeric id' }, { uuid: 'u-1' }, { id: 'ok', name: '' }];
    const { client, logger } = await clientFor((_req, res) => json(res, 200, body));
    const page = await client.list('virtualMachines');
    assert.deepEqual(page.items.map((i) => [i.id, i.name]), [['7', 'numeric id'], ['u-1', 'u-1'], ['ok', 'ok']]);
    const warnings = logger.lines.filter((l) => l.level === 'warn');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]?.message ?? '', /skipped 4 item/);
  });

  it('a body that is not a list is a MalformedResponseError', async () => {
    const { client } = await clientFor((_req, res) => json(res, 200, { vm: 'one' }));
    await assert.rejects(client.list('virtualMachines'), MalformedResponseError);
    const { client: c2 } = await clientFor((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{not json');
    });
    await assert.rejects(c2.list('virtualMachines'), MalformedResponseError);
  });
});
