import assert from 'node:assert/strict';
import { consoleCall, consoleToken, useSandbox } from './helpers';

const VMS = '/api/compute/v1/virtual-machines';

interface Named {
  id: string;
  name: string;
}

describe('sandbox console: lists (contract profile: envelope, limit/offset/name)', () => {
  const sb = useSandbox({ vmCount: 3000 });
  let token = '';
  before(async () => {
    token = await consoleToken(sb());
  });
  const page = async (query: string): Promise<{ status: number; items: Named[]; total: number }> => {
    const r = await consoleCall(sb(), token, `${VMS}${query}`);
    const body = r.json as { items: Named[]; total: number };
    return { status: r.status, items: body.items, total: body.total };
  };

  it('a large tenant: total counts everything, the default page is 100', async () => {
    const first = await page('');
    assert.equal(first.status, 200);
    assert.equal(first.total, 3000);
    assert.equal(first.items.length, 100);
  });

  it('limit and offset page through the collection without overlap', async () => {
    const a = await page('?limit=1000&offset=0');
    const b = await page('?limit=1000&offset=1000');
    const c = await page('?limit=1000&offset=2000');
    const d = await page('?limit=1000&offset=3000');
    assert.deepEqual([a.items.length, b.items.length, c.items.length, d.items.length], [1000, 1000, 1000, 0]);
    const ids = new Set([...a.items, ...b.items, ...c.items].map((x) => x.id));
    assert.equal(ids.size, 3000);
    assert.equal(b.items[0]?.name, 'web-1001');
  });

  it('name filters by case-insensitive "contains"; total is the filtered count', async () => {
    const r = await page('?name=DB-00&limit=5');
    assert.deepEqual(
      r.items.map((x) => x.name),
      ['db-002'],
    );
    assert.equal(r.total, 1);
    const many = await page('?name=cache');
    assert.equal(many.total, 375);
    assert.ok(many.items.every((x) => x.name.includes('cache')));
  });

  it('invalid limit or offset: 400', async () => {
    for (const q of ['?limit=0', '?limit=1001', '?limit=abc', '?limit=1.5', '?offset=-1', '?offset=x']) {
      assert.equal((await consoleCall(sb(), token, `${VMS}${q}`)).status, 400, q);
    }
  });

  it('every list uses the same envelope (users, roles, networks, activities)', async () => {
    for (const path of ['/api/iam/v1/users', '/api/iam/v2/roles', '/api/network/v1/virtual-networks', '/api/activity/v1/activities']) {
      const body = (await consoleCall(sb(), token, `${path}?limit=2`)).json as { items: unknown[]; total: number };
      assert.ok(Array.isArray(body.items), path);
      assert.equal(typeof body.total, 'number');
    }
  });

  it('seed() resizes the tenant', async () => {
    sb().control.seed({ vms: 7, users: 40, networks: 0 });
    assert.equal((await page('')).total, 7);
    assert.equal(((await consoleCall(sb(), token, '/api/iam/v1/users')).json as { total: number }).total, 40);
    assert.equal(((await consoleCall(sb(), token, '/api/network/v1/virtual-networks')).json as { total: number }).total, 0);
  });
});

describe('sandbox console: lists (production profile: bare arrays, 206 when partial)', () => {
  const sb = useSandbox({ profile: 'production', vmCount: 2500 });
  let token = '';
  before(async () => {
    token = await consoleToken(sb());
  });

  it('more than 1000 items: the first 1000 as a bare array with 206 and Content-Range', async () => {
    const r = await consoleCall(sb(), token, VMS);
    assert.equal(r.status, 206);
    assert.ok(Array.isArray(r.json));
    assert.equal((r.json as Named[]).length, 1000);
    assert.equal(r.headers.get('content-range'), 'items 0-999/2500');
  });

  it('a complete list is a 200 bare array; limit/offset are honoured (206 when still partial)', async () => {
    const roles = await consoleCall(sb(), token, '/api/iam/v2/roles');
    assert.equal(roles.status, 200);
    assert.ok(Array.isArray(roles.json));
    const last = await consoleCall(sb(), token, `${VMS}?offset=2000`);
    assert.equal(last.status, 206);
    assert.equal((last.json as Named[]).length, 500);
    const filtered = await consoleCall(sb(), token, `${VMS}?name=web-0`);
    assert.equal(filtered.status, 200);
    assert.ok((filtered.json as Named[]).every((x) => x.name.startsWith('web-0')));
    const beyond = await consoleCall(sb(), token, `${VMS}?offset=5000`);
    assert.equal(beyond.status, 206);
    assert.equal(beyond.headers.get('content-range'), 'items */2500');
  });

  it('the activity list is a bare array', async () => {
    const r = await consoleCall(sb(), token, '/api/activity/v1/activities');
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, []);
  });
});
