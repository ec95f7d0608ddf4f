import assert from 'node:assert/strict';
import { SANDBOX_EXPIRED_PAT, SANDBOX_READ_ONLY_PAT } from '../../sandbox/index';
import { call, consoleCall, consoleToken, useSandbox, type ConsoleErrorEnvelope } from './helpers';

const AUTH = '/api/iam/v2/auth/personal_access_token';

function claims(jwt: string): Record<string, unknown> {
  const [header, payload, signature] = jwt.split('.');
  assert.ok(header && payload && signature);
  assert.deepEqual(JSON.parse(Buffer.from(header, 'base64url').toString('utf8')), { alg: 'HS256', typ: 'JWT' });
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

function consoleError(r: { status: number; json: unknown }, status: number): string {
  assert.equal(r.status, status);
  const err = (r.json as ConsoleErrorEnvelope).error;
  assert.match(err.status, new RegExp(`^${status} `));
  return err.message;
}

describe('sandbox console: PAT exchange and JWT (contract profile)', () => {
  const sb = useSandbox({ jwtLifetimeSeconds: 300 });

  it('POST {id, secret} answers JSON {"token": <JWT>} with iat, exp (5 min), scope.id, userId, companyId', async () => {
    const r = await call(`${sb().consoleUrl}${AUTH}`, { body: { id: sb().credentials.patId, secret: sb().credentials.patSecret } });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
    const token = (r.json as { token: string }).token;
    const c = claims(token);
    assert.equal(typeof c.iat, 'number');
    assert.equal(c.exp, Number(c.iat) + 300);
    assert.match(String((c.scope as { id: unknown }).id), /^[0-9a-f-]{36}$/);
    assert.match(String(c.userId), /^[0-9a-f-]{36}$/);
    assert.match(String(c.companyId), /^[0-9a-f-]{36}$/);
    const vms = await consoleCall(sb(), token, '/api/compute/v1/virtual-machines');
    assert.equal(vms.status, 200);
  });

  it('a wrong secret, an unknown id or the expired PAT: 401; a malformed body: 400', async () => {
    consoleError(await call(`${sb().consoleUrl}${AUTH}`, { body: { id: sb().credentials.patId, secret: 'wrong' } }), 401);
    consoleError(await call(`${sb().consoleUrl}${AUTH}`, { body: { id: 'nobody', secret: sb().credentials.patSecret } }), 401);
    assert.match(consoleError(await call(`${sb().consoleUrl}${AUTH}`, { body: SANDBOX_EXPIRED_PAT }), 401), /expired/);
    consoleError(await call(`${sb().consoleUrl}${AUTH}`, { body: { id: sb().credentials.patId } }), 400);
    consoleError(await call(`${sb().consoleUrl}${AUTH}`, { body: 'not json' }), 400);
    const get = await call(`${sb().consoleUrl}${AUTH}`);
    assert.equal(get.status, 405);
  });

  it('missing, malformed, forged or wrongly-signed tokens: 401', async () => {
    const token = await consoleToken(sb());
    const [h, p] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims(token), exp: 9_999_999_999 })).toString('base64url')}.${token.split('.')[2]}`;
    for (const authorization of [undefined, 'Bearer', 'Bearer not-a-jwt', `Bearer ${h}.${p}.AAAA`, `Bearer ${forged}`, `Basic ${token}`, `Bearer ${sb().credentials.apiKey}`]) {
      const r = await call(`${sb().consoleUrl}/api/iam/v2/roles`, { headers: authorization === undefined ? {} : { authorization } });
      consoleError(r, 401);
    }
  });

  it('a JWT past its exp answers 401 "expired"; a new exchange works', async () => {
    const token = await consoleToken(sb());
    sb().control.advanceTime(301_000);
    assert.match(consoleError(await consoleCall(sb(), token, '/api/iam/v2/roles'), 401), /expired/);
    const fresh = await consoleToken(sb());
    assert.equal((await consoleCall(sb(), fresh, '/api/iam/v2/roles')).status, 200);
  });

  it('expireTokens() invalidates every issued JWT at once', async () => {
    const a = await consoleToken(sb());
    const b = await consoleToken(sb());
    sb().control.expireTokens();
    consoleError(await consoleCall(sb(), a, '/api/iam/v2/roles'), 401);
    consoleError(await consoleCall(sb(), b, '/api/iam/v2/roles'), 401);
    assert.equal((await consoleCall(sb(), await consoleToken(sb()), '/api/iam/v2/roles')).status, 200);
  });

  it('the read-only PAT reads but every write is 403', async () => {
    const token = await consoleToken(sb(), SANDBOX_READ_ONLY_PAT);
    assert.equal((await consoleCall(sb(), token, '/api/compute/v1/virtual-machines')).status, 200);
    const list = (await consoleCall(sb(), token, '/api/compute/v1/virtual-machines')).json as { items: Array<{ id: string }> };
    const id = list.items[0]?.id ?? '';
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/api/compute/v1/virtual-machines', { name: 'x' }],
      ['PATCH', `/api/compute/v1/virtual-machines/${id}`, { powerAction: 'off' }],
      ['DELETE', `/api/compute/v1/virtual-machines/${id}`, undefined],
      ['POST', '/api/iam/v1/users', { name: 'x', email: 'x@y.z' }],
      ['POST', '/api/network/v1/virtual-networks', { name: 'x' }],
    ];
    for (const [method, path, body] of writes) {
      const r = await consoleCall(sb(), token, path, body === undefined ? { method } : { method, body });
      assert.match(consoleError(r, 403), /read-only/, `${method} ${path}`);
    }
    assert.equal(sb().control.snapshot().counts.activities, 0);
  });
});

describe('sandbox console: PAT exchange (production profile)', () => {
  const sb = useSandbox({ profile: 'production', jwtLifetimeSeconds: 60 });
  it('answers the raw JWT as text/plain', async () => {
    const r = await call(`${sb().consoleUrl}${AUTH}`, { body: { id: sb().credentials.patId, secret: sb().credentials.patSecret } });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^text\/plain/);
    assert.match(r.text, /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
    const c = claims(r.text);
    assert.equal(Number(c.exp) - Number(c.iat), 60);
    assert.equal((await consoleCall(sb(), r.text, '/api/iam/v2/roles')).status, 200);
  });
});
