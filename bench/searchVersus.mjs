// The search benchmark, this tree against an older commit, side by side in one run: how much a
// change to the index costs in speed and disk (issue 34's budgets: cold build <= 1.2x, warm query
// p95 <= 1.5x, index on disk <= 1.3x). `npm run bench:searchVersus` (or `node bench/searchVersus.mjs`).
//
// Method. The base commit is checked out with `git worktree add --detach` into a temp folder that
// shares this tree's node_modules (a symlink), and each side runs its own bench/search.mjs (so each
// bundles its own src/core/search) on the same generated, seeded workspace size. The runs alternate
// and the order flips each round (base, head, head, base, ...), so neither side always runs first
// or on a warmer page cache. Per side the median over rounds is taken; the ratios are head / base.
// Run it on an otherwise idle machine: a wall-time ratio measured under load says nothing.
//
// Lines: `ratio search<size>.head/base.coldIndex`, `.warmQueryP95`, `.indexOnDisk`, `.reload`,
// beside each side's `metric search<size>.<side>.coldIndexMs` and so on.
//
// Environment knobs (all optional):
//   BENCH_VERSUS_BASE=3bbef02    the base commit (default: main just before issue 34's first change)
//                                (issue 41's budget, "at today's speed", is against 0dbe7cf: main just before
//                                issue 41's first change)
//   BENCH_VERSUS_ROUNDS=2        rounds (each runs both sides once)
//   BENCH_SEARCH_SIZES=50000     the workspace size(s), passed to both sides
//   and every knob of bench/search.mjs, passed through as is.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { verdict } from './lib.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const env = process.env;
const BASE = env.BENCH_VERSUS_BASE || '3bbef02';
const ROUNDS = Math.max(1, Math.floor(Number(env.BENCH_VERSUS_ROUNDS || 2)));
const SIZES = env.BENCH_SEARCH_SIZES || '50000';
const BUDGETS = { coldIndex: 1.2, warmQueryP95: 1.5, indexOnDisk: 1.3 };

const log = (s = '') => process.stdout.write(`${s}\n`);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** One side's bench/search.mjs in its own process; its results as written to its test-results. */
/**
 * One run of a side's bench/search.mjs. It exits 1 when one of its own targets is missed (a loop
 * block over 50 ms, say) after writing its results: those still count here (the side's missed
 * targets are listed), so one miss never throws away the rounds already run. Any other failure
 * (no fresh results file) ends the comparison.
 */
function runSide(dir) {
  const out = join(dir, 'test-results', 'bench-search.json');
  rmSync(out, { force: true });
  const run = spawnSync(process.execPath, [join(dir, 'bench', 'search.mjs')], {
    cwd: dir,
    env: { ...env, BENCH_SEARCH_SIZES: SIZES },
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0 && !(run.status === 1 && existsSync(out))) throw new Error(`bench/search.mjs in ${dir} exited ${run.status}:\n${run.stdout}`);
  if (run.status === 1) for (const line of String(run.stdout).split('\n').filter((l) => /MISSED/.test(l))) log(`    its own target missed: ${line.trim()}`);
  return JSON.parse(readFileSync(out, 'utf8'));
}

function figures(result) {
  return {
    coldIndex: result.stratus.coldMs,
    warmQueryP95: result.stratus.warmQueryP95Ms,
    indexOnDisk: result.indexBytes,
    reload: result.stratus.reloadToFirstQueryMs,
  };
}

async function main() {
  const baseSha = execFileSync('git', ['rev-parse', '--short', `${BASE}^{commit}`], { cwd: root, encoding: 'utf8' }).trim();
  const headSha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'bench'], { cwd: root, encoding: 'utf8' }).trim() !== '';
  const tmp = mkdtempSync(join(tmpdir(), 'stratus-search-versus-'));
  const baseDir = join(tmp, 'base');
  execFileSync('git', ['worktree', 'add', '--detach', '-q', baseDir, baseSha], { cwd: root, stdio: 'ignore' });
  try {
    symlinkSync(join(root, 'node_modules'), join(baseDir, 'node_modules'), 'dir');
    log(`Search, head against base side by side: head ${headSha}${dirty ? ' (with uncommitted changes)' : ''}, base ${baseSha}; sizes ${SIZES}; ${ROUNDS} round(s)`);
    /** @type {Record<'base' | 'head', Array<{ results: Array<{ files: number, indexBytes: number, stratus: Record<string, number> }> }>>} */
    const sides = { base: [], head: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? ['base', 'head'] : ['head', 'base'];
      for (const side of order) {
        log(`  round ${round + 1}: ${side}`);
        sides[side].push(runSide(side === 'base' ? baseDir : root));
      }
    }
    const sizes = (sides.head[0]?.results ?? []).map((r) => r.files);
    for (const files of sizes) {
      const label = `search${files % 1000 === 0 ? `${files / 1000}k` : files}`;
      const per = (side) => sides[side].map((run) => figures(run.results.find((r) => r.files === files)));
      const base = per('base');
      const head = per('head');
      for (const key of Object.keys(base[0])) {
        const b = median(base.map((f) => f[key]));
        const h = median(head.map((f) => f[key]));
        const unit = key === 'indexOnDisk' ? 'Bytes' : 'Ms';
        log(`metric ${label}.base.${key}${unit} ${b.toFixed(unit === 'Ms' ? 2 : 0)} (runs: ${base.map((f) => f[key].toFixed(unit === 'Ms' ? 1 : 0)).join(', ')})`);
        log(`metric ${label}.head.${key}${unit} ${h.toFixed(unit === 'Ms' ? 2 : 0)} (runs: ${head.map((f) => f[key].toFixed(unit === 'Ms' ? 1 : 0)).join(', ')})`);
        const ratio = h / b;
        const budget = BUDGETS[key];
        log(`ratio ${label}.head/base.${key} ${ratio.toFixed(3)}${budget ? ` (budget <= ${budget}) ${verdict(ratio <= budget)}` : ''}`);
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    spawnSync('git', ['worktree', 'prune'], { cwd: root, stdio: 'ignore' });
  }
}

main().catch((error) => {
  log(`searchVersus: ${error?.stack ?? error}`);
  process.exitCode = 1;
});
