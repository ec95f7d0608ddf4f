import assert from 'node:assert/strict';
import { createClock } from '@sinonjs/fake-timers';
import { runProcessGroup, type ProcessEnd, type Timers } from '../../../src/core/agent/processGroup';
import { isRunning } from '../../shared/processes';


async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setImmediate(r));
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
}

/** Runs `script` with sh; resolves the pid it prints first (a background child's `$!`). */
function start(script: string, options: { signal?: AbortSignal; timeoutMs?: number; timers?: Timers } = {}): { end: Promise<ProcessEnd>; pid: Promise<number>; output: () => string } {
  let output = '';
  let gotPid: (pid: number) => void = () => undefined;
  const pid = new Promise<number>((resolve) => (gotPid = resolve));
  const end = runProcessGroup({ command: 'sh', args: ['-c', script] }, {
    ...options,
    onOutput: (text) => {
      output += text;
      const match = /^(\d+)\n/.exec(output);
      if (match) gotPid(Number(match[1]));
    },
  });
  return { end, pid, output: () => output };
}

const posix = process.platform !== 'win32';

(posix ? describe : describe.skip)('agent: process group runner (run-task tool)', () => {
  it('returns the exit code and the output', async () => {
    const run = start('echo one; echo two >&2; exit 3');
    assert.deepEqual(await run.end, { reason: 'exited', exitCode: 3 });
    assert.match(run.output(), /one\n/);
    assert.match(run.output(), /two\n/);
  });

  it('cancelling kills the grandchildren too, not only the shell', async () => {
    const abort = new AbortController();
    const run = start('sleep 1000 & echo $!; wait', { signal: abort.signal });
    const grandchild = await run.pid;
    assert.ok(isRunning(grandchild));
    abort.abort();
    assert.deepEqual(await run.end, { reason: 'cancelled', exitCode: undefined });
    await until(() => !isRunning(grandchild));
    assert.equal(isRunning(grandchild), false, `grandchild ${grandchild} still runs`);
  });

  it('does not hang on, or leave behind, a background child that outlives the shell', async () => {
    const run = start('sleep 1000 & echo $!');
    const grandchild = await run.pid;
    assert.deepEqual(await run.end, { reason: 'exited', exitCode: 0 });
    await until(() => !isRunning(grandchild));
    assert.equal(isRunning(grandchild), false);
  });

  it('ends the whole group at the timeout (fake timers)', async () => {
    const clock = createClock();
    const timers: Timers = { setTimeout: (cb, ms) => clock.setTimeout(cb, ms), clearTimeout: (h) => clock.clearTimeout(h as number) };
    const run = start('sleep 1000 & echo $!; wait', { timeoutMs: 60_000, timers });
    const grandchild = await run.pid;
    clock.tick(59_999);
    assert.ok(isRunning(grandchild), 'not before the timeout');
    clock.tick(1);
    assert.deepEqual(await run.end, { reason: 'timeout', exitCode: undefined });
    await until(() => !isRunning(grandchild));
    assert.equal(isRunning(grandchild), false);
  });

  it('says when the program cannot start, and does not start when already cancelled', async () => {
    const missing = await runProcessGroup({ command: 'stratus-no-such-program', args: [] });
    assert.equal(missing.reason, 'failedToStart');
    assert.match(missing.error ?? '', /ENOENT/);
    const abort = new AbortController();
    abort.abort();
    assert.deepEqual(await runProcessGroup({ command: 'sh', args: ['-c', 'exit 0'] }, { signal: abort.signal }), { reason: 'cancelled', exitCode: undefined });
  });
});
