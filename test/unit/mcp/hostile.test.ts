import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { AUTH_PATH, fakeJwt, json, jwtClaims } from '../console/helpers';
import { SecretSet } from '../faults/secrets';
import { buildServer, text, useSessions } from './helpers';

/*
 * A hostile reviewer's rows: what a model, a host or a console can send that the happy paths do
 * not (secrets held as values in a record, oversized arguments, garbage elicitation answers), and
 * the process itself (its shutdown).
 */

describe('mcp server: hostile input and answers', function () {
  this.timeout(60_000);
  const { fx, open } = useSessions();

  const env = (url: string): Record<string, string> => ({ STRATUS_CONSOLE_BASE_URL: url, STRATUS_PAT_ID: 'pat-id-hostile', STRATUS_PAT_SECRET: 'pat-secret-hostile-not-real' });
  const vm = { id: 'vm-1', name: 'box', powerState: 'running' };
  const consoleStub = (record: Record<string, unknown> = vm) =>
    fx.stub((req, res) => {
      if (req.path === AUTH_PATH) res.end(fakeJwt(jwtClaims()));
      else if (req.method !== 'GET') {
        res.writeHead(202, { location: '/api/activity/v1/activities/act-1' });
        res.end();
      } else json(res, 200, req.path.endsWith('/vm-1') ? record : { items: [record], total: 1 });
    });

  it('a record whose innocently named fields hold secrets as values: PEM keys, K=V strings, JWTs, URL credentials, presigned signatures are redacted', async () => {
    const secrets = new SecretSet();
    const pem = 'MIIEpAIBAAKCAQEA0pemBodyNotARealKey0123456789abcdefghij';
    const jwtSig = 'jwtSignatureNotReal0123456789abcdef';
    const jwt = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJib2IifQ.${jwtSig}`;
    const values = { pem, env: 'envPasswordNotReal-42', url: 'urlPasswordNotReal-7', amz: 'amzSignatureNotReal0123', amzCred: 'AKIAEXAMPLENOTREAL', sas: 'sasSignatureNotReal0123', conn: 'connPasswordNotReal-9', quoted: 'quoted secret not real' };
    for (const [name, value] of Object.entries(values)) secrets.add(name, value);
    secrets.add('jwt', jwt);
    secrets.add('jwt signature', jwtSig);
    const record = {
      ...vm,
      description: `boot key:\n-----BEGIN OPENSSH PRIVATE KEY-----\n${pem}\n-----END OPENSSH PRIVATE KEY-----\nend`,
      bootNotes: `-----BEGIN RSA PRIVATE KEY-----\n${pem}`, // cut: no END line
      environment: [`DB_PASSWORD=${values.env}`, 'LOG_LEVEL=debug', `API_TOKEN="${values.quoted}"`],
      callback: `https://bob:${values.url}@hooks.example/x`,
      lastSession: jwt,
      download: `https://bucket.s3.example/o?X-Amz-Credential=${values.amzCred}&X-Amz-Signature=${values.amz}&x=1`,
      share: `https://acct.blob.example/c?sv=2020-01-01&sig=${values.sas}`,
      odbc: `Server=db;User Id=app;Password=${values.conn};`,
    };
    const stub = await consoleStub(record);
    const s = await open({ env: env(stub.url) });
    const full = await s.call('get_resource', { kind: 'virtualMachines', id: 'vm-1', full: true });
    const body = text(full);
    assert.equal(full.isError, undefined, body);
    assert.deepEqual(secrets.find(s.printed()), [], body);
    // What is no secret stays readable.
    assert.match(body, /LOG_LEVEL=debug/);
    assert.match(body, /"DB_PASSWORD=\[REDACTED\]"/);
    assert.match(body, /boot key:\\n\[REDACTED\]\\nend/);
    assert.match(body, /hooks\.example\/x/);
    assert.match(body, /x=1/);
  });

  it('an input of oversized unknown names is refused in one short line, nothing sent', async () => {
    const stub = await consoleStub();
    const s = await open({ env: env(stub.url), args: ['--allow-writes'] });
    const many = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`field${i}`, 1]));
    for (const input of [{ ['k'.repeat(50_000)]: 1 }, many]) {
      const refused = await s.call('create_resource', { kind: 'virtualMachines', input });
      assert.equal(refused.isError, true);
      assert.ok(text(refused).length <= 1_000, `${text(refused).length} characters`);
    }
    assert.deepEqual(stub.requests.filter((r) => r.method !== 'GET' && r.path !== AUTH_PATH), []);
  });

  it('an elicitation answered with garbage is no confirmation: refused without a retry hint, nothing sent', async () => {
    const garbage = [{ action: 'accept', content: { confirm: 'yes' } }, { action: 'maybe' }, { action: 'accept', content: { confirm: 1 } }];
    for (const answer of garbage) {
      const stub = await consoleStub();
      const s = await open({ env: env(stub.url), args: ['--allow-writes'], elicit: () => answer as never });
      const refused = await s.call('delete_resource', { kind: 'virtualMachines', id: 'vm-1' });
      assert.equal(refused.isError, true);
      assert.match(text(refused), /confirmation .*not understood.*nothing was done/i, `${JSON.stringify(answer)}: ${text(refused)}`);
      assert.doesNotMatch(text(refused), /retry/i);
      assert.equal(stub.requests.filter((r) => r.method === 'DELETE').length, 0);
    }
  });

  it('ends cleanly when the host closes stdin: exit code 0, nothing on stderr but its own lines', async () => {
    const file = await buildServer();
    const child = spawn(process.execPath, [file], { env: { PATH: process.env.PATH ?? '' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`);
    while (!stdout.includes('"id":1')) await new Promise((r) => setTimeout(r, 10));
    child.stdin.end();
    assert.equal(await exited, 0, stderr);
    for (const line of stderr.split('\n').filter(Boolean)) assert.match(line, /^stratus-mcp: /, stderr);
    for (const line of stdout.split('\n').filter(Boolean)) assert.equal((JSON.parse(line) as { jsonrpc: string }).jsonrpc, '2.0');
  });
});
