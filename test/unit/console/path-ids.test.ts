import assert from 'node:assert/strict';
import { DEFAULT_CATALOG } from '../../../src/core/console/catalog/builtInKinds';
import { createConsoleClient, type ConsoleClient } from '../../../src/core/console/index';
import { checkPathId, pathIdProblem, ACTIVITY_PATH, expand } from '../../../src/core/console/catalog/routes';
import { activityIdFromLocation } from '../../../src/core/console/activities/writes';
import { MalformedResponseError, UnsafePathIdError } from '../../../src/core/errors';
import { AUTH_PATH, Fixtures, fakeJwt, json, jwtClaims } from './helpers';

// Issue 24, item 3: an id of `.` or `..` (or one that decodes to a separator) left its collection.
const UNSAFE = ['.', '..', '%2e%2e', '%2E.', '.%2e', 'a/b', 'a%2Fb', 'a%2fb', 'a\\b', 'a%5Cb', '%252e%252e', '%252F', '', ' ', '\t', ' id', 'id ', '\n', 'a\u0000b', 'a%00b', '\u007f', '\uff0e\uff0e', 'a\uff0fb', '\ud800'];
const SAFE = ['3f6c1f7e-2b1a-4c1e-9d6a-0d4b7f2e9a10', 'vm-123', 'a.b', '...', 'b c', 'a?b', 'a#b', 'café', '%', '%zz'];

describe('console path ids: the one check of an id placed in a URL path', () => {
  for (const id of UNSAFE) {
    it(`refuses ${JSON.stringify(id)}`, () => {
      assert.notEqual(pathIdProblem(id), undefined);
      assert.throws(() => checkPathId(id), (e: unknown) => e instanceof UnsafePathIdError && e.kind === 'validation' && e.param === 'id');
    });
  }
  for (const id of SAFE) {
    it(`accepts ${JSON.stringify(id)}`, () => assert.equal(checkPathId(id), id));
  }

  it('refuses an unsafe id in every route template that takes one, before a path is built', () => {
    const templates = [ACTIVITY_PATH];
    for (const kind of DEFAULT_CATALOG) {
      if (kind.item) templates.push(kind.item.replace('{collection}', kind.collection));
      for (const action of kind.actions) templates.push(action.path.replace('{collection}', kind.collection));
    }
    const withId = templates.filter((t) => t.includes('{id}'));
    assert.ok(withId.length >= 6, 'the item read, the item actions and the activity read');
    for (const template of withId) {
      for (const id of UNSAFE) {
        assert.throws(() => expand(template, { id }), UnsafePathIdError, `${template} with ${JSON.stringify(id)}`);
      }
      assert.match(expand(template, { id: 'vm-1' }), /\/vm-1$/);
    }
  });

  it('refuses an unsafe session claim placed in a template', () => {
    assert.throws(() => expand('/api/iam/v2/users?companyId={companyId}', { companyId: '..' }), UnsafePathIdError);
  });
});

describe('console path ids: the Location header of a write', () => {
  const locations = [...UNSAFE.filter((id) => id !== 'a/b' && (!/^\s|\s$/.test(id) || id.trim() === '')), '/api/activity/v1/activities/..', '/api/activity/v1/activities/%2e%2e', 'https://console.example.invalid/api/activity/v1/activities/%2E.', 'https://console.example.invalid/api/activity/v1/activities/a%2Fb', 'https://console.example.invalid', '/api/activity/v1/activities/.?x=1'];
  for (const location of locations) {
    it(`gives no activity id for ${JSON.stringify(location)}`, () => assert.equal(activityIdFromLocation(location), undefined));
  }
  it('reads `a/b` as a relative URL (its last segment), never as an id with a separator', () => {
    assert.equal(activityIdFromLocation('a/b'), 'b');
  });
  it('still reads a bare id, a relative and an absolute URL', () => {
    assert.equal(activityIdFromLocation('act-1'), 'act-1');
    assert.equal(activityIdFromLocation('/api/activity/v1/activities/act-1/'), 'act-1');
    assert.equal(activityIdFromLocation('https://console.example.invalid/api/activity/v1/activities/act-1?x=1'), 'act-1');
  });
});

describe('console path ids: nothing is sent for an unsafe id', () => {
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  async function setup(location = 'act-1'): Promise<{ client: ConsoleClient; requests: () => string[] }> {
    const stub = await fx.stub((req, res) => {
      if (req.path === AUTH_PATH) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(fakeJwt(jwtClaims()));
      } else if (req.method === 'GET') json(res, 200, { id: 'x', state: { waiting: {} } });
      else json(res, 201, {}, { location });
    });
    const client = fx.track(
      createConsoleClient({ baseUrl: stub.url, pat: { id: async () => 'pat-id-fixture', secret: async () => 'pat-secret-fixture' }, follow: { initialDelayMs: 1, maxDelayMs: 2 } }),
    );
    return { client, requests: () => stub.requests.filter((r) => r.path !== AUTH_PATH).map((r) => `${r.method} ${r.path}`) };
  }

  for (const id of ['.', '..', '%2e%2e', 'a/b', '']) {
    it(`refuses ${JSON.stringify(id)} for every item route and the activity reads`, async () => {
      const { client, requests } = await setup();
      const target = { id, name: 'victim', raw: { id, name: 'victim', powerState: 'stopped' } };
      await assert.rejects(client.get('virtualMachines', id), UnsafePathIdError);
      for (const kind of client.catalog.kinds) {
        for (const action of kind.actions.filter((a) => a.target === 'item' && a.path.includes('{id}'))) {
          await assert.rejects(client.perform(kind.id, action.id, { target }), UnsafePathIdError, `${kind.id}.${action.id}`);
        }
      }
      await assert.rejects(client.activities.get(id), UnsafePathIdError);
      await assert.rejects(client.activities.follow(id), UnsafePathIdError);
      assert.deepEqual(requests(), []);
    });
  }

  it('does not follow a Location of %2e%2e (which would read the activity collection)', async () => {
    const { client, requests } = await setup('/api/activity/v1/activities/%2e%2e');
    // Networks have one path only: the write is the first request (no read to prove a path).
    await assert.rejects(client.perform('virtualNetworks', 'create', { input: { name: 'n' } }), MalformedResponseError);
    assert.deepEqual(requests(), ['POST /api/network/v1/virtual-networks']);
  });
});
