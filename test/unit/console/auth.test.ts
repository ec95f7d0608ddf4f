import assert from 'node:assert/strict';
import { AuthError, ForbiddenError } from '../../../src/core/errors';
import { createConsoleClient, type SessionEvent } from '../../../src/core/console/index';
import { SANDBOX_EXPIRED_PAT, SANDBOX_READ_ONLY_PAT } from '../../sandbox/index';
import { AUTH_PATH, PROFILES, captureLogger, fakeJwt, Fixtures, json, jwtClaims, manualClock } from './helpers';

describe('console/auth against the sandbox', () => {
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  for (const profile of PROFILES) {
    describe(`${profile} profile (${profile === 'production' ? 'raw-text' : 'JSON'} token body)`, () => {
      it('exchanges the PAT once, reads the claims and reuses the token', async () => {
        const sb = await fx.sandbox({ profile });
        const client = fx.client(sb);
        const events: SessionEvent[] = [];
        client.auth.onDidChangeSession((e) => events.push(e));
        await client.list('virtualMachines', { limit: 5 });
        await client.list('users', { limit: 5 });
        await client.list('roles', { limit: 5 });
        const exchanges = sb.control.requests({ pathPrefix: AUTH_PATH });
        assert.equal(exchanges.length, 1);
        assert.deepEqual((exchanges[0]?.body?.json as { id?: string }).id, sb.credentials.patId);
        const session = client.auth.session;
        assert.ok(session?.tenantId && session.userId && session.companyId);
        assert.ok(session.expiresAt.getTime() > Date.now() + 200_000, 'lifetime read from exp (300 s)');
        assert.deepEqual(events.map((e) => e.type), ['signedIn']);
      });

      it('shares one exchange between many concurrent callers', async () => {
        const sb = await fx.sandbox({ profile, consoleRateLimits: false });
        const client = fx.client(sb, { rateLimits: { perModule: 100_000 } });
        const pages = await Promise.all(Array.from({ length: 60 }, (_, i) => client.list(i % 2 ? 'users' : 'virtualMachines', { limit: 1 })));
        assert.equal(pages.length, 60);
        assert.equal(sb.control.requests({ pathPrefix: AUTH_PATH }).length, 1);
      });

      it('refreshes from exp before expiry, as a refresh (not a new sign-in), with no 401 (injected clock)', async () => {
        // The sandbox issues the token at a whole second that stands still, and the client's clock
        // starts there: the token's lifetime as the client sees it is exactly its 2 s (on the wall
        // clock, `exp` in whole seconds made it anything from 1 to 2 s, sometimes just under 1).
        const start = Math.ceil(Date.now() / 1000) * 1000;
        const timers = { Date: { now: () => start }, setTimeout: (f: () => void, ms: number) => setTimeout(f, ms), clearTimeout: (h: unknown) => clearTimeout(h as NodeJS.Timeout) };
        const sb = await fx.sandbox({ profile, jwtLifetimeSeconds: 2, timers });
        const clock = manualClock(start);
        const client = fx.client(sb, { now: clock.now });
        const events: SessionEvent[] = [];
        client.auth.onDidChangeSession((e) => events.push(e));
        await client.list('roles', { limit: 1 });
        const expiresAt = client.auth.session?.expiresAt.getTime() ?? 0;
        const lifetime = expiresAt - clock.now();
        assert.equal(lifetime, 2_000, 'a 2 s token is read from exp, not assumed to live 5 minutes');
        clock.advance(lifetime / 4); // before the refresh point (half the lifetime of so short a token): the same token
        await client.list('roles', { limit: 1 });
        assert.equal(sb.control.requests({ pathPrefix: AUTH_PATH }).length, 1);
        clock.advance(expiresAt - clock.now() - 100); // inside the margin, still valid
        await client.list('roles', { limit: 1 });
        assert.equal(sb.control.requests({ pathPrefix: AUTH_PATH }).length, 2);
        assert.equal(sb.control.requests({ pathPrefix: '/api/' }).filter((r) => r.status === 401).length, 0);
        assert.deepEqual(events.map((e) => e.type), ['signedIn', 'refreshed']);
      });

      it('after a 401, drops the token and retries the request once with a fresh one', async () => {
        const sb = await fx.sandbox({ profile });
        const client = fx.client(sb);
        const events: SessionEvent[] = [];
        client.auth.onDidChangeSession((e) => events.push(e));
        await client.list('roles', { limit: 1 });
        sb.control.expireTokens();
        sb.control.clearRequests();
        const page = await client.list('roles', { limit: 1 });
        assert.equal(page.items.length, 1);
        const seen = sb.control.requests().map((r) => `${r.method} ${r.path} ${String(r.status).replace(/^2\d\d$/, '2xx')}`);
        assert.deepEqual(seen, [`GET /api/iam/v2/roles 401`, `POST ${AUTH_PATH} 2xx`, `GET /api/iam/v2/roles 2xx`]);
        assert.deepEqual(events.map((e) => e.type), ['signedIn', 'refreshed']);
      });

      it('after 401s on many concurrent requests, still exchanges only once', async () => {
        const sb = await fx.sandbox({ profile, consoleRateLimits: false });
        const client = fx.client(sb, { rateLimits: { perModule: 100_000 } });
        await client.list('roles', { limit: 1 });
        sb.control.expireTokens();
        sb.control.clearRequests();
        await Promise.all(Array.from({ length: 20 }, () => client.list('virtualMachines', { limit: 1 })));
        assert.equal(sb.control.requests({ pathPrefix: AUTH_PATH }).length, 1);
      });

      it('a rejected PAT is a typed AuthError, not retried until the PAT changes', async () => {
        const sb = await fx.sandbox({ profile });
        let pat = { ...SANDBOX_EXPIRED_PAT };
        const client = fx.client(sb, { pat: { id: async () => pat.id, secret: async () => pat.secret } });
        const err = await client.list('roles').then(
          () => assert.fail('expected a rejection'),
          (e: unknown) => e,
        );
        assert.ok(err instanceof AuthError);
        assert.equal(err.kind, 'auth');
        assert.equal(err.reason, 'rejected');
        assert.equal(err.status, 401);
        assert.match(err.message, /personal access token/);
        assert.ok(!err.message.includes(pat.secret));
        await assert.rejects(client.list('users'), AuthError);
        assert.equal(sb.control.requests({ pathPrefix: AUTH_PATH }).length, 1, 'the same PAT is not sent again');
        await assert.rejects(client.auth.signIn(), AuthError); // an explicit sign-in does try again
        assert.equal(sb.control.requests({ pathPrefix: AUTH_PATH }).length, 2);
        pat = { id: sb.credentials.patId, secret: sb.credentials.patSecret };
        assert.equal((await client.list('roles', { limit: 2 })).items.length, 2);
      });

      it('a read-only PAT reads but its writes are ForbiddenError (403), not retried', async () => {
        const sb = await fx.sandbox({ profile });
        const ro = SANDBOX_READ_ONLY_PAT;
        const client = fx.client(sb, { pat: { id: async () => ro.id, secret: async () => ro.secret } });
        await client.list('virtualMachines', { limit: 1 });
        const err = await client.perform('virtualNetworks', 'create', { input: { name: 'x' } }).catch((e: unknown) => e);
        assert.ok(err instanceof ForbiddenError);
        assert.equal(err.kind, 'forbidden');
        assert.equal(sb.control.requests({ pathPrefix: '/api/network' }).length, 1);
      });

      it('signs out: memory only, a signedOut event, and the next call signs in again', async () => {
        const sb = await fx.sandbox({ profile });
        const client = fx.client(sb);
        const events: SessionEvent[] = [];
        client.auth.onDidChangeSession((e) => events.push(e));
        const session = await client.auth.signIn();
        assert.ok(session.tenantId);
        client.auth.signOut();
        assert.equal(client.auth.session, undefined);
        await client.list('roles', { limit: 1 });
        assert.deepEqual(events.map((e) => e.type), ['signedIn', 'signedOut', 'signedIn']);
        assert.equal(sb.control.requests({ pathPrefix: AUTH_PATH }).length, 2);
      });
    });
  }

  it('a missing PAT is AuthError(missing) and sends nothing', async () => {
    const sb = await fx.sandbox({});
    const client = fx.client(sb, { pat: { id: async () => undefined, secret: async () => 'x' } });
    const err = await client.list('roles').catch((e: unknown) => e);
    assert.ok(err instanceof AuthError);
    assert.equal(err.reason, 'missing');
    assert.equal(sb.control.requests().length, 0);
  });
});

describe('console/auth against a stub server', () => {
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  const bodies: Array<[string, (jwt: string) => string]> = [
    ['raw text with a newline', (jwt) => `${jwt}\n`],
    ['{"token"}', (jwt) => JSON.stringify({ token: jwt })],
    ['{"accessToken"}', (jwt) => JSON.stringify({ accessToken: jwt })],
    ['{"access_token"}', (jwt) => JSON.stringify({ access_token: jwt })],
    ['{"jwt"}', (jwt) => JSON.stringify({ jwt })],
    ['a JSON string', (jwt) => JSON.stringify(jwt)],
  ];
  for (const [name, encode] of bodies) {
    it(`accepts the token as ${name}`, async () => {
      const jwt = fakeJwt(jwtClaims());
      const stub = await fx.stub((req, res) => {
        if (req.path === AUTH_PATH) {
          res.writeHead(200, { 'content-type': name.startsWith('raw') ? 'text/plain' : 'application/json' });
          res.end(encode(jwt));
        } else json(res, 200, []);
      });
      const client = fx.track(
        createConsoleClient({
          baseUrl: stub.url,
          pat: { id: async () => 'id', secret: async () => 'secret' },
        }),
      );
      await client.list('roles');
      assert.equal(stub.requests[1]?.headers.authorization, `Bearer ${jwt}`);
      assert.deepEqual(JSON.parse(stub.requests[0]?.body ?? ''), { id: 'id', secret: 'secret' });
      assert.equal(client.auth.session?.tenantId, 'tenant-1');
      assert.equal(client.auth.session?.companyId, 'company-1');
      assert.equal(client.auth.session?.userId, 'user-1');
    });
  }

  async function stubClient(handler: Parameters<Fixtures['stub']>[0], now?: () => number) {
    const stub = await fx.stub(handler);
    const logger = captureLogger();
    const client = fx.track(
      createConsoleClient({ baseUrl: stub.url, pat: { id: async () => 'id', secret: async () => 's3cr3t-value' }, logger, ...(now ? { now } : {}) }),
    );
    return { stub, client, logger };
  }

  it('a 403 on the exchange is a rejected PAT', async () => {
    const { client, stub } = await stubClient((_req, res) => json(res, 403, { error: { status: '403 Forbidden', message: 'no' } }));
    const err = await client.auth.signIn().catch((e: unknown) => e);
    assert.ok(err instanceof AuthError);
    assert.equal(err.reason, 'rejected');
    assert.equal(err.status, 403);
    assert.equal(stub.requests.length, 1);
  });

  it('a 401 that persists after the refresh fails after exactly one retry', async () => {
    const { client, stub } = await stubClient((req, res) => {
      if (req.path === AUTH_PATH) res.end(fakeJwt(jwtClaims()));
      else json(res, 401, { error: { status: '401 Unauthorized', message: 'nope' } });
    });
    const err = await client.list('roles').catch((e: unknown) => e);
    assert.ok(err instanceof AuthError);
    assert.deepEqual(
      stub.requests.map((r) => `${r.method} ${r.path}`),
      [`POST ${AUTH_PATH}`, 'GET /api/iam/v2/roles', `POST ${AUTH_PATH}`, 'GET /api/iam/v2/roles'],
    );
  });

  it('a body without a token is a MalformedResponseError', async () => {
    const { client } = await stubClient((_req, res) => json(res, 200, { hello: 'world' }));
    await assert.rejects(client.auth.signIn(), { kind: 'malformed_response' });
  });

  // Pacing of the exchanges (5 r/s) is tested on a fake clock in rate-limit.test.ts.

  it('keeps using a still-valid token when a refresh fails transiently (injected clock)', async () => {
    let exchanges = 0;
    const clock = manualClock();
    const { client, logger } = await stubClient((req, res) => {
      if (req.path !== AUTH_PATH) return json(res, 200, []);
      exchanges++;
      if (exchanges === 1) res.end(fakeJwt(jwtClaims(2)));
      else json(res, 400, { error: { message: 'temporarily broken' } });
    }, clock.now);
    await client.list('roles');
    clock.advance((client.auth.session?.expiresAt.getTime() ?? 0) - clock.now() - 300);
    await client.list('roles');
    assert.equal(exchanges, 2);
    assert.ok(logger.lines.some((l) => l.level === 'warn' && /using the current one/.test(l.message)));
  });

  it('never logs the PAT secret or the token', async () => {
    const jwt = fakeJwt(jwtClaims());
    const { client, logger } = await stubClient((req, res) => (req.path === AUTH_PATH ? res.end(jwt) : json(res, 200, [])));
    await client.list('roles');
    const all = logger.lines.map((l) => l.message).join('\n');
    assert.ok(!all.includes('s3cr3t-value'));
    assert.ok(!all.includes(jwt));
  });
});
