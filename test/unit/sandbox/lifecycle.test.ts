import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { createClock } from '@sinonjs/fake-timers';
import { startSandbox } from '../../sandbox/index';
import { bearer, call, eventually } from './helpers';

const ROOT = resolve(__dirname, '../../..');
// TypeScript run by Node itself with tsx's loader (no `tsx` CLI): the CLI is a second process that
// relays a signal to its child and force-kills it when it has not reported within ~30 ms, so on a
// loaded machine a clean SIGTERM exit came back as 143.
const TS = ['--require', 'tsx/cjs'];

describe('sandbox lifecycle', () => {
  it('exposes base URLs and obviously fake credentials', async () => {
    const sb = await startSandbox();
    try {
      assert.match(sb.inferenceUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      assert.equal(sb.consoleUrl, sb.inferenceUrl.replace(/\/v1$/, ''));
      assert.equal(sb.controlUrl, `${sb.consoleUrl}/__sandbox`);
      assert.equal(sb.profile, 'contract');
      assert.equal(sb.credentials.apiKey, 'sk-sandbox-demo-not-a-real-key');
      assert.match(sb.credentials.patSecret, /not-real/);
    } finally {
      await sb.close();
    }
  });

  it('close() destroys open sockets (a stalled stream, a delayed request) without waiting for them', async () => {
    // On a fake clock that never moves: the delayed request can only end because close() ended it.
    const timers = createClock(Date.now());
    const sb = await startSandbox({ timers });
    sb.control.injectStreamFault({ kind: 'stall', afterChunks: 1 });
    const stalled = await fetch(`${sb.inferenceUrl}/chat/completions`, {
      method: 'POST',
      headers: { ...bearer(sb.credentials.apiKey), 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'x' }], stream: true }),
    });
    const reading = stalled.text().then(
      () => 'ended',
      () => 'failed',
    );
    sb.control.setLatency({ ms: 60_000, pathPrefix: '/v1/models' });
    const delayed = call(`${sb.inferenceUrl}/models`, { headers: bearer(sb.credentials.apiKey) }).then(
      () => 'answered',
      () => 'failed',
    );
    await eventually(() => timers.countTimers() === 1);
    await sb.close();
    assert.equal(timers.countTimers(), 0, 'the latency wait was cancelled, not waited for');
    assert.equal(await reading, 'failed');
    assert.equal(await delayed, 'failed');
    assert.equal(sb.control.requests({ pathPrefix: '/v1/chat' })[0]?.clientClosedEarly, false, 'closing is not a client abort');
    await sb.close(); // idempotent
  });

  describe('in a child process', () => {
    let child: ChildProcess | undefined;
    afterEach(() => {
      // Only reached with a live child when the test failed (mocha's timeout): do not leak it.
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      child = undefined;
    });

    it('after close() nothing keeps the process alive (no timer, no socket), and it exits on its own', async () => {
      const proc = spawn(process.execPath, [...TS, 'test/unit/sandbox/fixtures/closeThenExit.ts'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      child = proc;
      let out = '';
      let err = '';
      proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
      proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const [code] = (await once(proc, 'exit')) as [number | null];
      assert.equal(code, 0, err);
      const [closed, resources] = out.split('\n');
      assert.equal(closed, 'closed');
      const active = JSON.parse(resources ?? '') as string[];
      assert.deepEqual(active.filter((r) => /Timeout|Immediate|TCP|Pipe(Server)?Wrap/.test(r) && r !== 'PipeWrap'), [], `left active after close(): ${active.join(', ')}`);
    });
  });

  it('honours port and host options, and several sandboxes run side by side', async () => {
    const a = await startSandbox({ host: '127.0.0.1', port: 0 });
    const probe = await startSandbox();
    const port = Number(new URL(probe.consoleUrl).port);
    await probe.close();
    const b = await startSandbox({ port, profile: 'production' });
    try {
      assert.equal(new URL(b.consoleUrl).port, String(port));
      assert.notEqual(a.consoleUrl, b.consoleUrl);
      assert.equal((await call(`${a.inferenceUrl}/models`, { headers: bearer(a.credentials.apiKey) })).status, 200);
      assert.equal((await call(`${b.inferenceUrl}/models`, { headers: bearer(b.credentials.apiKey) })).status, 200);
      await assert.rejects(startSandbox({ port }), /EADDRINUSE/);
    } finally {
      await a.close();
      await b.close();
    }
  });

  describe('cli', () => {
    it('prints one JSON line first, then help; serves; exits 0 on SIGTERM', async () => {
      const child = spawn(process.execPath, [...TS, 'test/sandbox/cli.ts', '--port', '0', '--profile', 'production', '--vms', '3'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      try {
        const lines = createInterface({ input: child.stdout });
        const iterator = lines[Symbol.asyncIterator]();
        const first = await iterator.next();
        const info = JSON.parse(String(first.value)) as Record<string, string>;
        assert.deepEqual(Object.keys(info), ['inference', 'console', 'apiKey', 'patId', 'patSecret']);
        assert.match(info.inference ?? '', /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
        const second = await iterator.next();
        assert.match(String(second.value), /Stratus sandbox server \(profile: production\)/);
        const token = await call(`${info.console ?? ''}/api/iam/v2/auth/personal_access_token`, { body: { id: info.patId, secret: info.patSecret } });
        assert.equal(token.status, 200);
        const vms = await call(`${info.console ?? ''}/api/compute/v1/virtual-machines`, { headers: bearer(token.text) });
        assert.equal((vms.json as unknown[]).length, 3);
        child.kill('SIGTERM');
        const [code] = (await once(child, 'exit')) as [number | null];
        assert.equal(code, 0);
        lines.close();
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    });

    it('rejects unknown arguments with exit code 2', async () => {
      const child = spawn(process.execPath, [...TS, 'test/sandbox/cli.ts', '--profile', 'staging'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const [code] = (await once(child, 'exit')) as [number | null];
      assert.equal(code, 2);
      assert.match(stderr, /--profile must be contract or production/);
    });
  });
});
