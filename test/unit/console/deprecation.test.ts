import assert from 'node:assert/strict';
import type { DeprecationNotice } from '../../../src/core/console/index';
import { linkTarget } from '../../../src/core/console/consoleHttp';
import { captureLogger, Fixtures, PROFILES } from './helpers';

describe('console/deprecation', () => {
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  for (const profile of PROFILES) {
    it(`warns once per endpoint per client (${profile})`, async () => {
      const sb = await fx.sandbox({ profile });
      sb.control.deprecate({
        pathPrefix: '/api/compute/v1/virtual-machines',
        sunset: '2027-03-01T00:00:00Z',
        link: 'https://docs.example.eu/api/compute/v2/virtual-machines',
      });
      const notices: DeprecationNotice[] = [];
      const logger = captureLogger();
      const client = fx.client(sb, { onDeprecation: (n) => notices.push(n), logger });
      for (let i = 0; i < 3; i++) await client.list('virtualMachines', { limit: 2 });
      const [a, b] = (await client.list('virtualMachines', { limit: 2 })).items;
      await client.get('virtualMachines', a?.id ?? '');
      await client.get('virtualMachines', b?.id ?? '');
      await client.list('roles');
      assert.deepEqual(notices.map((n) => `${n.method} ${n.path}`), [
        'GET /api/compute/v1/virtual-machines',
        'GET /api/compute/v1/virtual-machines/{id}',
      ]);
      assert.match(notices[0]?.deprecation ?? '', /^@\d+$/);
      assert.equal(notices[0]?.sunset, 'Mon, 01 Mar 2027 00:00:00 GMT');
      assert.equal(notices[0]?.link, 'https://docs.example.eu/api/compute/v2/virtual-machines');
      assert.equal(logger.lines.filter((l) => l.level === 'warn' && /deprecated/.test(l.message)).length, 2);

      const other: DeprecationNotice[] = [];
      const second = fx.client(sb, { onDeprecation: (n) => other.push(n) });
      await second.list('virtualMachines', { limit: 1 });
      assert.equal(other.length, 1, 'a new client instance warns again');
    });
  }

  it('covers the auth and activity routes, and survives a throwing listener', async () => {
    const sb = await fx.sandbox({});
    sb.control.deprecate({ pathPrefix: '/api/iam/v2/auth' });
    sb.control.deprecate({ pathPrefix: '/api/activity' });
    const notices: string[] = [];
    const client = fx.client(sb, {
      onDeprecation: (n) => {
        notices.push(`${n.method} ${n.path}`);
        throw new Error('listener bug');
      },
    });
    const { activityId } = await client.perform('virtualNetworks', 'create', { input: { name: 'n' } });
    await client.activities.follow(activityId);
    await client.activities.list();
    assert.deepEqual(notices, [
      'POST /api/iam/v2/auth/personal_access_token',
      'GET /api/activity/v1/activities/{id}',
      'GET /api/activity/v1/activities',
    ]);
  });

  it('reads the successor from a Link header', () => {
    assert.equal(linkTarget('<https://a/old>; rel="deprecation", <https://a/new>; rel="successor-version"'), 'https://a/new');
    assert.equal(linkTarget('<https://a/doc>; rel="deprecation"; type="text/html"'), 'https://a/doc');
    assert.equal(linkTarget('<https://a/x>'), 'https://a/x');
    assert.equal(linkTarget('not a link'), 'not a link');
    assert.equal(linkTarget(undefined), undefined);
  });
});
