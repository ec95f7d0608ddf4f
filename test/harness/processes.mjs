// Child processes for test harnesses: spawned detached so the whole group can be killed,
// with bounded waits and no fixed sleeps.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** A free loopback TCP port. */
export async function freePort() {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Spawns `command` in its own process group and collects its output. */
export function spawnGroup(command, args, options = {}) {
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  const keep = (chunk) => {
    output.push(chunk.toString());
    if (output.length > 400) output.splice(0, output.length - 400);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = once(child, 'exit').then(([code, signal]) => ({ code, signal }));
  return {
    child,
    exited,
    output: () => output.join(''),
    /** SIGTERM the group, then SIGKILL if it has not exited within `graceMs`. */
    async stop(graceMs = 5000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      killGroup(child.pid, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
      // Helpers started by the child (code-server forks several) share its group.
      killGroup(child.pid, 'SIGKILL');
    },
  };
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Polls `probe` until it returns a truthy value or the deadline passes; `gaveUp` (e.g. "the
 * process exited") ends the wait at once with its reason.
 */
export async function waitFor(probe, { timeoutMs, intervalMs = 100, what, gaveUp }) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value) return value;
    const reason = gaveUp?.();
    if (reason) throw new Error(`Stopped waiting for ${what}: ${reason}`);
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Resolves with the first line a process prints on stdout (bounded). */
export async function firstLine(proc, timeoutMs, what) {
  let buffer = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}\n${proc.output()}`)), timeoutMs);
    const onData = (chunk) => {
      buffer += chunk.toString();
      const end = buffer.indexOf('\n');
      if (end >= 0) {
        clearTimeout(timer);
        proc.child.stdout.off('data', onData);
        resolve(buffer.slice(0, end));
      }
    };
    proc.child.stdout.on('data', onData);
    proc.exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`${what}: process exited with ${code} before printing\n${proc.output()}`));
    });
  });
}
