// Shared by the benchmark runners: child processes with deadlines (killed on exit), and the
// number formatting of the reports.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Children still running; killed by killAll() (call it on exit). */
export const live = new Set();

export function killTree(child, signal = 'SIGKILL') {
  try {
    if (child.detachedGroup) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    // already gone
  }
}

export function killAll() {
  for (const child of live) killTree(child);
  live.clear();
}

/**
 * Runs a command with a deadline; resolves with { code, signal, stdout, stderr, timedOut }.
 * @param {string} command
 * @param {string[]} args
 * @param {{ timeoutMs?: number, env?: Record<string, string | undefined>, group?: boolean, echo?: boolean }} [options]
 */
export function run(command, args, { timeoutMs, env: extraEnv = {}, group = false, echo = false } = {}) {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH}`, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: group,
    });
    Object.assign(child, { detachedGroup: group });
    live.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      if (echo) process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      stderr += d;
      if (echo) process.stderr.write(d);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killTree(child, 'SIGTERM');
      setTimeout(() => killTree(child, 'SIGKILL'), 5_000).unref();
    }, timeoutMs);
    child.on('error', (error) => {
      stderr += String(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      live.delete(child);
      resolvePromise({ code, signal, stdout, stderr, timedOut });
    });
  });
}

/** CPU time (user + system) process `pid` has used so far, in ms (USER_HZ 100: 10 ms ticks); NaN where /proc is not there. */
export function processCpuMs(pid) {
  try {
    const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

export const median = (xs) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
export const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
export const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
export const fx = (x) => (Number.isFinite(x) ? `${x.toFixed(2)}x` : 'n/a');
export const pad = (s, n) => String(s).padEnd(n);
export const lpad = (s, n) => String(s).padStart(n);
export function table(headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? pad(c, widths[i]) : lpad(c, widths[i]))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
export const log = (s = '') => process.stdout.write(`${s}\n`);

/**
 * A target's verdict, the one place that decides the exit code: `npm run bench` exits non-zero when
 * a target is missed (or a measurement crashed), never merely because it ran. Returns 'met' or
 * 'MISSED' for the report line.
 */
export function verdict(ok) {
  if (ok === false) process.exitCode = 1;
  return ok ? 'met' : 'MISSED';
}

/** The same for a list of `{status}` targets (PASS / FAIL / NOT MEASURED). */
export function failOnTargets(targets) {
  if (targets.some((t) => t.status === 'FAIL')) process.exitCode = 1;
}

/** A child's entry: exit 0 when `main` resolves, print the stack and exit 1 when it throws. */
export function runMain(main) {
  main().then(
    () => process.exit(0),
    (error) => {
      process.stderr.write(`${error?.stack ?? error}\n`);
      process.exit(1);
    },
  );
}

/**
 * Bundles Stratus' TypeScript for Node (CJS, as in dist/) with esbuild, so no loader runs in the
 * timed process: `source` is an entry file, or module text resolved from the repository root.
 * @param {string} outfile
 * @param {{ entry: string } | { contents: string }} source
 * @param {import('esbuild').Plugin[]} [plugins] those the shipped bundle is built with (dist/mcp.js: the MCP SDK's validator)
 * @returns {Promise<string>} outfile
 */
export async function bundleForNode(outfile, source, plugins = []) {
  const esbuild = await import('esbuild');
  await esbuild.build({
    ...('entry' in source ? { entryPoints: [source.entry] } : { stdin: { contents: source.contents, resolveDir: root, loader: 'ts' } }),
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
    plugins,
  });
  return outfile;
}

/**
 * Runs a benchmark section after the `ahead` sections scheduled before it in the same process
 * (each runs on its own `beforeExit`): `start` loads and runs it; a failure sets the exit code.
 * @param {number} ahead
 * @param {() => Promise<unknown>} start
 */
export function runAfter(ahead, start) {
  const next = () => {
    if (ahead-- > 0) {
      process.once('beforeExit', next);
      return;
    }
    process.stdout.write('\n');
    start().catch((error) => {
      process.stderr.write(`${error?.stack ?? error}\n`);
      process.exitCode = 1;
    });
  };
  next();
}

/**
 * Mulberry32: a small seeded PRNG, so every run replays the same corpus and typing.
 * @param {number} seed
 * @returns {() => number} numbers in [0, 1)
 */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
