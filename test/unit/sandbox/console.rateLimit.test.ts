import assert from 'node:assert/strict';
import { request } from 'node:http';
import { createClock } from '@sinonjs/fake-timers';
import { call, consoleCall, consoleToken, useSandbox, type Reply } from './helpers';

const TOO_MANY = { error: { status: '429 Too Many Requests', message: 'Too Many Requests' } };

function fromAddress(url: string, localAddress: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { localAddress, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('sandbox console: per-IP rate limits', () => {
  // The sandbox's clock stands still (fake timers, never ticked): "per second" windows then hold
  // however slowly a loaded machine sends the requests; only advanceTime() slides them.
  const timers = createClock(Date.now());
  const sb = useSandbox({ consoleRateLimits: { perModule: 25, auth: 5 }, timers });
  let token = '';
  beforeEach(async () => {
    sb().control.setConsoleRateLimits(false);
    token = await consoleToken(sb());
    sb().control.setConsoleRateLimits({ perModule: 25, auth: 5 });
  });
  const burst = async (n: number, path: string): Promise<Reply[]> => {
    const out: Reply[] = [];
    for (let i = 0; i < n; i++) out.push(await consoleCall(sb(), token, path));
    return out;
  };

  it('counts concurrent requests as they arrive: of 300 at once, exactly 25 succeed', async () => {
    // Responses finish after many others have arrived: counting at the end would let more in.
    const replies = await Promise.all(Array.from({ length: 300 }, () => consoleCall(sb(), token, '/api/compute/v1/virtual-machines')));
    assert.equal(replies.filter((r) => r.status === 200).length, 25);
    assert.equal(replies.filter((r) => r.status === 429).length, 275);
  });

  it('25 successful requests per second per module, then 429 with the contract body; other modules unaffected', async () => {
    const replies = await burst(26, '/api/compute/v1/virtual-machines');
    assert.deepEqual(
      replies.slice(0, 25).map((r) => r.status),
      new Array<number>(25).fill(200),
    );
    assert.equal(replies[25]?.status, 429);
    assert.deepEqual(replies[25]?.json, TOO_MANY);
    assert.equal((await consoleCall(sb(), token, '/api/iam/v2/roles')).status, 200, 'iam has its own budget');
    assert.equal((await consoleCall(sb(), token, '/api/compute/v1/vcenters/virtual_machines')).status, 429, 'same module');
    sb().control.advanceTime(1000);
    assert.equal((await consoleCall(sb(), token, '/api/compute/v1/virtual-machines')).status, 200, 'the window slid');
  });

  it('the PAT exchange route allows 5 per second', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await call(`${sb().consoleUrl}/api/iam/v2/auth/personal_access_token`, { body: { id: sb().credentials.patId, secret: sb().credentials.patSecret } })).status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
  });

  it('failed requests (non-2xx) do not count', async () => {
    for (let i = 0; i < 10; i++) assert.equal((await call(`${sb().consoleUrl}/api/iam/v2/auth/personal_access_token`, { body: { id: 'x', secret: 'y' } })).status, 401);
    for (let i = 0; i < 5; i++) assert.equal((await call(`${sb().consoleUrl}/api/iam/v2/auth/personal_access_token`, { body: { id: sb().credentials.patId, secret: sb().credentials.patSecret } })).status, 200);
    const misses = await burst(30, '/api/compute/v1/virtual-machines/00000000-0000-4000-8000-000000000000');
    assert.ok(misses.every((r) => r.status === 404));
    const hits = await burst(25, '/api/compute/v1/virtual-machines');
    assert.ok(hits.every((r) => r.status === 200));
  });

  it('limits are per source IP', async () => {
    await burst(25, '/api/network/v1/virtual-networks');
    const url = `${sb().consoleUrl}/api/network/v1/virtual-networks`;
    assert.equal(await fromAddress(url, '127.0.0.1', token), 429);
    assert.equal(await fromAddress(url, '127.0.0.2', token), 200);
  });

  it('setConsoleRateLimits(false) disables them', async () => {
    sb().control.setConsoleRateLimits(false);
    const replies = await burst(40, '/api/iam/v1/users');
    assert.ok(replies.every((r) => r.status === 200));
  });
});
