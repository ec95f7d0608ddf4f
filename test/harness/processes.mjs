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
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Spawns `command` in its own process group and collects its output.
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions} [options]
 */
export function spawnGroup(command, args, options = {}) {
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  /** @type {string[]} */
  const output = [];
  /** @param {Buffer} chunk */
  const keep = (chunk) => {
    output.push(chunk.toString());
    if (output.length > 400) output.splice(0, output.length - 400);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = once(child, 'exit').then(([code, signal]) => ({ code: /** @type {number | null} */ (code), signal: /** @type {NodeJS.Signals | null} */ (signal) }));
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

/**
 * @param {number | undefined} pid
 * @param {NodeJS.Signals} signal
 */
function killGroup(pid, signal) {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Polls `probe` until it returns a truthy value or the deadline passes; `gaveUp` (e.g. "the
 * process exited") ends the wait at once with its reason.
 * @template T
 * @param {() => Promise<T>} probe
 * @param {{ timeoutMs: number, intervalMs?: number, what: string, gaveUp?: () => string | undefined }} options
 * @returns {Promise<T>}
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

/**
 * Resolves with the first line a process prints on stdout (bounded).
 * @param {ReturnType<typeof spawnGroup>} proc
 * @param {number} timeoutMs
 * @param {string} what
 * @returns {Promise<string>}
 */
export async function firstLine(proc, timeoutMs, what) {
  let buffer = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}\n${proc.output()}`)), timeoutMs);
    /** @param {Buffer} chunk */
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
    void proc.exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`${what}: process exited with ${code} before printing\n${proc.output()}`));
    });
  });
}
