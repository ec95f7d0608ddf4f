// `npm test`: the tiers, each in its own process, then one summary line `N passed, N failed`
// summed over them. Any failure (or a tier that crashes) exits non-zero.
// The host suite runs twice: `host` on the newest bundled VS Code (code-server 4.139.1 in
// test/compat/vscode-1.139) and `host-1.104` on the oldest that engines.vscode claims (code-server
// 4.104.0 in test/compat/vscode-1.104); scripts/setup.sh installs both.
// `node scripts/test-all.mjs host-1.104` runs only the named tiers.
//
// Time (a 2-CPU machine): `check` (tsc, eslint, dependency-cruiser: one CPU) runs beside `unit`
// (mocha: one CPU); unit's output streams, check's is printed whole when both are done. The
// development bundle the host tiers load is built once for all of them (the single-tier npm
// scripts still build on their own); `ui` then packages the production .vsix, which rewrites dist/,
// so it comes last.
import { spawn } from 'node:child_process';

const build = { command: 'node', args: ['scripts/build.mjs'] };
const tiers = [
  { name: 'check', command: 'npm', args: ['run', '--silent', 'check'], counts: false, beside: 'unit' },
  { name: 'unit', command: 'npm', args: ['run', '--silent', 'test:unit'], counts: true },
  { name: 'host', command: 'node', args: ['test/harness/run-host.mjs'], counts: true, needs: build },
  { name: 'host-1.104', command: 'node', args: ['test/harness/run-host.mjs', '--code-server', 'test/compat/vscode-1.104'], counts: true, needs: build },
  { name: 'host-fr', command: 'node', args: ['test/harness/run-host.mjs', '--locale', 'fr'], counts: true, needs: build },
  { name: 'ui', command: 'npm', args: ['run', '--silent', 'test:ui'], counts: true },
];
const only = process.argv.slice(2);
const chosen = tiers.filter((t) => only.length === 0 || only.includes(t.name));

/**
 * Runs a command; its stdout is echoed as it comes unless `buffered` (then the caller prints it).
 * @param {{ command: string, args: string[] }} step
 * @param {{ buffered?: boolean }} [options]
 * @returns {Promise<{ code: number, output: string, seconds: string }>}
 */
function run({ command, args }, { buffered = false } = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', buffered ? 'pipe' : 'inherit'] });
    let output = '';
    child.stdout?.on('data', (chunk) => {
      if (!buffered) process.stdout.write(chunk);
      output += chunk.toString();
    });
    // A buffered tier's stderr (tsc and eslint report there) is kept with its stdout, in order.
    child.stderr?.on('data', (chunk) => {
      output += chunk.toString();
    });
    child.on('error', (error) => {
      output += `${error.message}\n`;
    });
    child.on('close', (code) => resolve({ code: code ?? 1, output, seconds: ((Date.now() - started) / 1000).toFixed(1) }));
  });
}

/**
 * Mocha's spec reporter ends with "N passing" and, when any failed, "N failing".
 * @param {string} output
 */
function counts(output) {
  const passing = [...output.matchAll(/^\s*(\d+) passing/gm)].map((m) => Number(m[1]));
  const failing = [...output.matchAll(/^\s*(\d+) failing/gm)].map((m) => Number(m[1]));
  return { passed: passing.at(-1), failed: failing.at(-1) ?? 0 };
}

/**
 * The failure report mocha prints after "N failing" (titles and first lines of each error), so the
 * summary at the very end still says WHICH test failed when a log is only read from its tail.
 * @param {string} output
 */
function failureReport(output) {
  const start = output.search(/^\s*\d+ failing/m);
  if (start < 0) return [];
  return output
    .slice(start)
    .split('\n')
    .filter((line) => line.trim() !== '' && !/^\s+at /.test(line))
    .slice(0, 40)
    .map((line) => `  ${line}`);
}

let passed = 0;
let failed = 0;
/** @type {string[]} */
const lines = [];
/** @type {Map<string, Promise<{ code: number, output: string, seconds: string }>>} */
const running = new Map();
/** @type {Map<object, { code: number, output: string }>} */
const prepared = new Map();

/**
 * @param {typeof tiers[number]} tier
 * @param {{ code: number, output: string, seconds: string }} result
 */
function record(tier, { code, output, seconds }) {
  if (!tier.counts) {
    if (code !== 0) failed += 1;
    lines.push(`${tier.name}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${seconds} s`);
    return;
  }
  const c = counts(output);
  // A tier that exits non-zero without reporting a failure (a crash, a hung workbench) still fails.
  const tierFailed = c.failed > 0 ? c.failed : code !== 0 || c.passed === undefined ? 1 : 0;
  passed += c.passed ?? 0;
  failed += tierFailed;
  lines.push(`${tier.name}: ${c.passed ?? 0} passed, ${tierFailed} failed in ${seconds} s`);
  if (tierFailed > 0) lines.push(...failureReport(output));
}

for (const tier of chosen) {
  if (running.has(tier.name)) continue;
  // A tier that runs beside the next chosen one starts first, buffered; the other streams.
  const partner = tier.beside ? chosen.find((t) => t.name === tier.beside) : undefined;
  if (partner) {
    process.stdout.write(`\n=== ${tier.name} (beside ${partner.name}, printed after it) ===\n`);
    running.set(tier.name, run(tier, { buffered: true }));
    continue;
  }
  if (tier.needs) {
    let setUp = prepared.get(tier.needs);
    if (!setUp) {
      process.stdout.write(`\n=== ${[tier.needs.command, ...tier.needs.args].join(' ')} (once for the host tiers) ===\n`);
      setUp = await run(tier.needs);
      prepared.set(tier.needs, setUp);
    }
    if (setUp.code !== 0) {
      record(tier, { code: setUp.code, output: '', seconds: '0.0' });
      continue;
    }
  }
  process.stdout.write(`\n=== ${tier.name} ===\n`);
  const result = await run(tier);
  // The tiers that ran beside this one: their output now, whole, then both summary lines in order.
  for (const other of chosen.filter((t) => t.beside === tier.name && running.has(t.name))) {
    const besideResult = await /** @type {Promise<{ code: number, output: string, seconds: string }>} */ (running.get(other.name));
    process.stdout.write(`\n=== ${other.name} (ran beside ${tier.name}) ===\n${besideResult.output}`);
    record(other, besideResult);
  }
  record(tier, result);
}
console.log(`\n=== summary ===\n${lines.join('\n')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
