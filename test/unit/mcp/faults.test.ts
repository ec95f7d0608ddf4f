import assert from 'node:assert/strict';
import { SANDBOX_EXPIRED_PAT } from '../../sandbox/index';
import { AUTH_PATH, fakeJwt, Fixtures, json, jwtClaims, PROFILES } from '../console/helpers';
import { SecretSet } from '../faults/secrets';
import { data, removeBuiltServer, sandboxEnv, startSession, text, type Session } from './helpers';

interface Listed { items: Array<{ id: string; name: string; state?: string }> }

function oneLine(result: { isError?: boolean }, body: string): void {
  assert.equal(result.isError, true, body);
  assert.doesNotMatch(body, /\n/, 'one line');
  assert.doesNotMatch(body, /\bat \S+:\d+/, 'no stack trace');
}

describe('mcp server: the console fault rows and the secrets sweep over stdio', function () {
  this.timeout(60_000);
  const fx = new Fixtures();
  const sessions: Session[] = [];
  const secrets = new SecretSet();
  const open = async (...args: Parameters<typeof startSession>): Promise<Session> => {
    const s = await startSession(...args);
    sessions.push(s);
    return s;
  };
  afterEach(async () => {
    for (const s of sessions.splice(0)) {
      await s.close();
      // The sweep: everything the server printed (protocol messages and stderr) holds no secret in any encoding.
      assert.deepEqual(secrets.find(s.printed()), [], 'a secret in what the server printed');
    }
    await fx.closeAll();
  });
  after(() => removeBuiltServer());

  for (const profile of PROFILES) {
    describe(`${profile} profile`, () => {
      const sandbox = async () => {
        const sb = await fx.sandbox({ profile });
        secrets.add('PAT secret', sb.credentials.patSecret);
        secrets.add('expired PAT secret', SANDBOX_EXPIRED_PAT.secret);
        return sb;
      };

      it('429 with Retry-After longer than the transport waits: a tool error with the wait', async () => {
        const sb = await sandbox();
        const s = await open({ env: sandboxEnv(sb) });
        data(await s.call('list_resources', { kind: 'virtualMachines', limit: 1 }));
        sb.control.burst({ status: 429, count: 10, retryAfterSeconds: 90, pathPrefix: '/api/compute' });
        const limited = await s.call('list_resources', { kind: 'virtualMachines', limit: 1 });
        oneLine(limited, text(limited));
        assert.match(text(limited), /rate limit was reached \(429\)\. Wait (89|90) s, then retry\./);
      });

      it('401 after the token expired: signs in again once and answers; an expired PAT is a sign-in error with what to do', async () => {
        const sb = await sandbox();
        const s = await open({ env: sandboxEnv(sb) });
        data(await s.call('list_resources', { kind: 'users', limit: 1 }));
        sb.control.expireTokens();
        data(await s.call('list_resources', { kind: 'users', limit: 1 }));
        assert.equal(sb.control.requests({ pathPrefix: AUTH_PATH }).length, 2);
        const expired = await open({ env: sandboxEnv(sb, SANDBOX_EXPIRED_PAT) });
        const refused = await expired.call('list_resources', { kind: 'users' });
        oneLine(refused, text(refused));
        assert.match(text(refused), /rejected the personal access token \(401\).*Create a new PAT/);
      });

      it('500 answer to a write: a tool error, the write sent once', async () => {
        const sb = await sandbox();
        const s = await open({ env: sandboxEnv(sb), args: ['--allow-writes'] });
        data(await s.call('list_resources', { kind: 'virtualMachines', limit: 1 }));
        sb.control.clearRequests();
        sb.control.burst({ status: 500, count: 1, pathPrefix: '/api/compute' });
        const failed = await s.call('create_resource', { kind: 'virtualMachines', input: { name: 'once' } });
        oneLine(failed, text(failed));
        assert.equal(sb.control.requests({ pathPrefix: '/api/compute' }).filter((r) => r.method === 'POST').length, 1);
      });

      it('connection reset after the write took effect: outcome unknown, never sent again; the server goes on', async () => {
        const sb = await sandbox();
        const s = await open({ env: sandboxEnv(sb), args: ['--allow-writes'] });
        data(await s.call('list_resources', { kind: 'virtualMachines', limit: 1 }));
        sb.control.clearRequests();
        sb.control.resetAfterApply({ method: 'POST', pathPrefix: '/api/compute', count: 1 });
        const unknown = await s.call('create_resource', { kind: 'virtualMachines', input: { name: 'maybe' }, wait: true });
        oneLine(unknown, text(unknown));
        assert.match(text(unknown), /unknown whether the change was made\. It was NOT sent again\. Call list_activities/);
        assert.equal(sb.control.requests({ pathPrefix: '/api/compute' }).filter((r) => r.method === 'POST').length, 1);
        // It did reach the console: the activity is there, and the server answers the next call.
        const activities = data<{ items: Array<{ description: string }> }>(await s.call('list_activities', { limit: 10 }));
        assert.equal(activities.items.filter((a) => a.description.includes('maybe')).length, 1);
      });

      it('a stalled or reset read: a one-line tool error, and the next call is answered', async () => {
        const sb = await sandbox();
        // The timeout is the server's for EVERY request (first byte, and silence within a body), the
        // healthy ones before and after the fault too: at 0.3 s a loaded machine (load ~12 on 2 CPUs,
        // this process serving the sandbox and the server's process both waiting for a CPU) let a
        // healthy listing miss it, and "the next call is answered" failed. The stall lasts until the
        // client leaves, so a longer timeout changes only how long the stalled call waits.
        const s = await open({ env: sandboxEnv(sb), args: ['--timeout-seconds', '2'] });
        data(await s.call('list_resources', { kind: 'virtualMachines', limit: 1 }));
        for (const kind of ['stall', 'drop'] as const) {
          sb.control.injectBodyFault({ kind, count: 10, pathPrefix: '/api/compute' });
          const failed = await s.call('list_resources', { kind: 'virtualMachines', limit: 2 });
          oneLine(failed, text(failed));
          assert.match(text(failed), /Listing virtual machines failed: /);
          sb.control.reset();
          assert.equal(data<Listed>(await s.call('list_resources', { kind: 'virtualMachines', limit: 2 })).items.length, 2);
        }
      });
    });
  }

  it('a kind the tenant does not have: a tool error that says so', async () => {
    const stub = await fx.stub((req, res) => {
      if (req.path === AUTH_PATH) res.end(fakeJwt(jwtClaims()));
      else json(res, 404, { error: { status: '404 Not Found', message: 'No such module' } });
    });
    const s = await open({ env: { STRATUS_CONSOLE_BASE_URL: stub.url, STRATUS_PAT_ID: 'id', STRATUS_PAT_SECRET: 'stub-secret-not-real' } });
    const missing = await s.call('list_resources', { kind: 'virtualNetworks' });
    oneLine(missing, text(missing));
    assert.match(text(missing), /no virtual networks for this tenant \(404 on its collection\).*list_resource_kinds/);
  });

  it('plain http to a remote host is refused before anything is sent, unless --allow-plain-http', async () => {
    const s = await open({ env: { STRATUS_CONSOLE_BASE_URL: 'http://console.example.invalid', STRATUS_PAT_ID: 'pat-id-plain', STRATUS_PAT_SECRET: 'pat-secret-plain-http-not-real' } });
    secrets.add('plain PAT secret', 'pat-secret-plain-http-not-real');
    const refused = await s.call('list_resources', { kind: 'virtualMachines' });
    oneLine(refused, text(refused));
    assert.match(text(refused), /Refused: STRATUS_CONSOLE_BASE_URL is plain http to console\.example\.invalid.*--allow-plain-http/);
    assert.match(s.stderr(), /plain http/);
    const missing = await open({ env: {} });
    assert.match(text(await missing.call('list_resource_kinds')), /STRATUS_CONSOLE_BASE_URL is not set/);
  });

  it('redacts resource records by key and by value, gateway secret headers included', async () => {
    const sb = await fx.sandbox({ profile: 'contract' });
    const gatewaySecret = 'gw-secret-header-value-not-real-123';
    secrets.add('PAT secret', sb.credentials.patSecret);
    secrets.add('gateway secret', gatewaySecret);
    const stub = await fx.stub((req, res) => {
      if (req.path === AUTH_PATH) {
        res.end(`${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 300, scope: { id: 't' } })).toString('base64url')}.c2ln`);
        return;
      }
      const vm = {
        id: 'vm-1',
        name: 'leaky',
        powerState: 'running',
        adminPassword: 'hunter2-is-not-a-password',
        env: [{ name: 'DB_PASSWORD', value: 'pairs-hide-this-one' }],
        notes: `copied ${sb.credentials.patSecret} and ${gatewaySecret} here`,
      };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(req.path.endsWith('/vm-1') ? vm : { items: [vm], total: 1 }));
    });
    const s = await open({ env: { STRATUS_CONSOLE_BASE_URL: stub.url, STRATUS_PAT_ID: 'id', STRATUS_PAT_SECRET: sb.credentials.patSecret, STRATUS_CONSOLE_SECRET_HEADERS: JSON.stringify({ 'X-Gateway-Key': gatewaySecret }) } });
    const full = await s.call('get_resource', { kind: 'virtualMachines', id: 'vm-1', full: true });
    const body = text(full);
    assert.equal(full.isError, undefined, body);
    assert.doesNotMatch(body, /hunter2|pairs-hide-this-one/);
    assert.match(body, /"adminPassword":"\[REDACTED\]"/);
    assert.match(body, /copied \[REDACTED\] and \[REDACTED\] here/);
    assert.equal(stub.requests.find((r) => r.path !== AUTH_PATH)?.headers['x-gateway-key'], gatewaySecret);
  });
});
