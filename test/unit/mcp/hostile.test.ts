import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { AUTH_PATH, fakeJwt, Fixtures, json, jwtClaims } from '../console/helpers';
import { buildServer, removeBuiltServer, startSession, text, type Session } from './helpers';

/*
 * A hostile reviewer's rows: what a model, a host or a console can send that the happy paths do
 * not (secrets held as values in a record, oversized arguments, garbage elicitation answers), and
 * the process itself (its shutdown).
 */

describe('mcp server: hostile input and answers', function () {
  this.timeout(60_000);
  const fx = new Fixtures();
  const sessions: Session[] = [];
  const open = async (...args: Parameters<typeof startSession>): Promise<Session> => {
    const s = await startSession(...args);
    sessions.push(s);
    return s;
  };
  afterEach(async () => {
    for (const s of sessions.splice(0)) await s.close();
    await fx.closeAll();
  });
  after(() => removeBuiltServer());

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
