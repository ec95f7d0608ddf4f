// `npm test`: the tiers in order, each in its own process, then one summary line
// `N passed, N failed` summed over them. Any failure (or a tier that crashes) exits non-zero.
// The host suite runs twice: `host` on the newest bundled VS Code (code-server 4.139.1 in
// test/compat/vscode-1.139) and `host-1.104` on the oldest that engines.vscode claims (code-server
// 4.104.0 in test/compat/vscode-1.104); scripts/setup.sh installs both.
// `node scripts/test-all.mjs host-1.104` runs only the named tiers.
import { spawn } from 'node:child_process';

const tiers = [
  { name: 'check', command: 'npm', args: ['run', '--silent', 'check'], counts: false },
  { name: 'unit', command: 'npm', args: ['run', '--silent', 'test:unit'], counts: true },
  { name: 'host', command: 'npm', args: ['run', '--silent', 'test:host'], counts: true },
  { name: 'host-1.104', command: 'npm', args: ['run', '--silent', 'test:host:1.104'], counts: true },
  { name: 'host-fr', command: 'npm', args: ['run', '--silent', 'test:host:fr'], counts: true },
  { name: 'ui', command: 'npm', args: ['run', '--silent', 'test:ui'], counts: true },
];
const only = process.argv.slice(2);

/**
 * @param {{ command: string, args: string[] }} tier
 * @returns {Promise<{ code: number, output: string }>}
 */
function run({ command, args }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      output += chunk.toString();
    });
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
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
const lines = [];
for (const tier of tiers.filter((t) => only.length === 0 || only.includes(t.name))) {
  const started = Date.now();
  process.stdout.write(`\n=== ${tier.name} ===\n`);
  const { code, output } = await run(tier);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (!tier.counts) {
    if (code !== 0) failed += 1;
    lines.push(`${tier.name}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${seconds} s`);
    continue;
  }
  const c = counts(output);
  // A tier that exits non-zero without reporting a failure (a crash, a hung workbench) still fails.
  const tierFailed = c.failed > 0 ? c.failed : code !== 0 || c.passed === undefined ? 1 : 0;
  passed += c.passed ?? 0;
  failed += tierFailed;
  lines.push(`${tier.name}: ${c.passed ?? 0} passed, ${tierFailed} failed in ${seconds} s`);
  if (tierFailed > 0) lines.push(...failureReport(output));
}
console.log(`\n=== summary ===\n${lines.join('\n')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
