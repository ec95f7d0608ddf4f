// The console benchmark: Stratus' console client against a tenant of 10,000 VMs in the sandbox,
// side by side with a raw built-in-fetch baseline and a naive concurrent client. See
// bench/README.md ("Console benchmark"). Runs alone (`node bench/console.mjs`) or at the end of
// `npm run bench` (bench/run.mjs imports runConsoleBench()).
//
// Environment knobs (all optional):
//   BENCH_CONSOLE_ROUNDS=7         first-page rounds (one Stratus and one raw child each, order alternates)
//   BENCH_CONSOLE_LOADALL_RUNS=3   how many of the Stratus first-page children then load every page
//   BENCH_CONSOLE_VMS=10000        VMs in the sandbox tenant
//   BENCH_CONSOLE_CONCURRENT=0     skip the concurrent-expansions phase (default: run it)
//   BENCH_CONSOLE_EXPANSIONS=1000  concurrent expansions in that phase
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { busiestWindow } from './console/stats.mjs';
import { f1, f2, fx, killAll, killTree, live, log, median, pad, run, table, failOnTargets } from './lib.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const consoleDir = join(benchDir, 'console');
const root = resolve(benchDir, '..');
const env = process.env;
const int = (v, d, min = 1) => (v !== undefined && v !== '' ? Math.max(min, Math.floor(Number(v))) : d);

const ROUNDS = int(env.BENCH_CONSOLE_ROUNDS, 7);
const LOADALL_RUNS = Math.min(ROUNDS, int(env.BENCH_CONSOLE_LOADALL_RUNS, 3, 0));
const VMS = int(env.BENCH_CONSOLE_VMS, 10_000, 100);
const CONCURRENT = env.BENCH_CONSOLE_CONCURRENT !== '0';
const EXPANSIONS = int(env.BENCH_CONSOLE_EXPANSIONS, 1000);
const LIMITS = { perModule: 25, auth: 5 }; // the contract's, set explicitly on the sandbox
const FIRST_PAGE_TARGET = 1.5;

const SANDBOX_START_MS = 60_000;
const FIRST_PAGE_CHILD_MS = 60_000;
const CONCURRENT_CHILD_MS = 150_000;
const DEADLINE_MS = 300_000; // no new child starts after this; what was measured is still reported
const MIN_CHILD_GAP_MS = 250; // at most 4 PAT exchanges per second (the sandbox allows 5)
const POLL_MS = 1000; // request-log polls during the Stratus concurrent run (the log keeps 500)

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let tmp;

function cleanup() {
  killAll();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  tmp = undefined;
}

/** Starts the sandbox (tsx, its own process group); resolves with its first stdout line and a stop(). */
function startSandbox() {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(join(root, 'node_modules', '.bin', 'tsx'), ['test/sandbox/cli.ts', '--port', '0', '--vms', String(VMS)], {
      cwd: root,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    Object.assign(child, { detachedGroup: true });
    live.add(child);
    let buffered = '';
    let stderr = '';
    let done = false;
    const stop = () =>
      new Promise((/** @type {(value?: void) => void} */ r) => {
        if (child.exitCode !== null || child.signalCode !== null) return r();
        const hard = setTimeout(() => killTree(child, 'SIGKILL'), 3_000);
        child.once('close', () => {
          clearTimeout(hard);
          live.delete(child);
          r();
        });
        killTree(child, 'SIGTERM');
      });
    const finish = (error, value) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (error) {
        killTree(child);
        reject(error);
      } else resolvePromise({ ...value, stop });
    };
    const timer = setTimeout(() => finish(new Error(`the sandbox did not start within ${SANDBOX_START_MS / 1000} s\n${stderr.slice(-1000)}`)), SANDBOX_START_MS);
    child.stdout.on('data', (d) => {
      if (done) return; // the help text that follows is drained and dropped
      buffered += d;
      const nl = buffered.indexOf('\n');
      if (nl < 0) return;
      try {
        finish(undefined, { info: JSON.parse(buffered.slice(0, nl)) });
      } catch (error) {
        finish(new Error(`unexpected first line from the sandbox: ${buffered.slice(0, 200)} (${error instanceof Error ? error.message : String(error)})`));
      }
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code, signal) => {
      live.delete(child);
      finish(new Error(`the sandbox exited (${code ?? signal}) before it was ready\n${stderr.slice(-1000)}`));
    });
  });
}

/** Bundles the TypeScript adapter (and the console core) to CJS, as in dist/: its engine is the runtime's fetch. */
async function bundleStratus() {
  const esbuild = await import('esbuild');
  await esbuild.build({
    bundle: true, platform: 'node', format: 'cjs', target: 'node20', minify: true, logLevel: 'warning', legalComments: 'none',
    entryPoints: [join(consoleDir, 'stratus.ts')],
    outfile: join(tmp, 'console-stratus.cjs'),
  });
  return join(tmp, 'console-stratus.cjs');
}

function errorTail(res, limit) {
  const why = res.timedOut ? `timed out after ${limit / 1000} s` : `exit ${res.code ?? res.signal}`;
  const lines = res.stderr.trim().split('\n');
  return `${why}\n${[...lines.slice(0, 4), ...(lines.length > 4 ? ['...'] : [])].join('\n')}`;
}

/**
 * Runs the console benchmark and prints its section. Returns { failures, results }; never calls
 * process.exit. Sets process.exitCode = 1 when a measurement could not be made.
 */
export async function runConsoleBench() {
  const began = performance.now();
  const failures = [];
  const deadline = began + DEADLINE_MS;
  const adapters = {};
  let sandbox;
  let lastChildStart = 0;

  /**
   * @param {string} method
   * @param {string} path
   * @param {unknown} [body]
   * @returns {Promise<any>} the sandbox control surface's JSON
   */
  const control = async (method, path, body) => {
    const res = await fetch(new URL(path, sandbox.info.console), {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(10_000),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${JSON.stringify(json)}`);
    return json;
  };

  async function child(task, timeoutMs) {
    const label = `${task.client} ${task.mode}`;
    if (performance.now() > deadline) {
      failures.push(`${label}: not run, the console bench passed its ${DEADLINE_MS / 1000} s deadline`);
      return undefined;
    }
    const wait = lastChildStart + MIN_CHILD_GAP_MS - performance.now();
    if (wait > 0) await sleep(wait);
    lastChildStart = performance.now();
    const full = {
      ...task,
      adapter: adapters[task.client],
      target: { baseUrl: sandbox.info.console, patId: sandbox.info.patId, patSecret: sandbox.info.patSecret },
      vms: VMS,
    };
    const res = await run(process.execPath, ['--expose-gc', join(consoleDir, 'child.mjs'), JSON.stringify(full)], { timeoutMs });
    const line = res.stdout.split('\n').find((l) => l.startsWith('RESULT '));
    if (res.code !== 0 || !line) {
      const message = `${label}: ${errorTail(res, timeoutMs)}`;
      failures.push(message);
      log(`  FAILED ${message}`);
      return undefined;
    }
    return JSON.parse(line.slice(7));
  }

  /** What the sandbox logged since the last clear (only used where fewer than 500 requests arrive). */
  const serverRequests = async (pathPrefix = '/api/') => (await control('GET', `/__sandbox/requests?pathPrefix=${encodeURIComponent(pathPrefix)}`)).requests;

  /** @type {{ first: any[], concurrent: Record<string, any>, server: Record<string, unknown> }} */
  const results = { first: [], concurrent: {}, server: {} };
  try {
    tmp = mkdtempSync(join(tmpdir(), 'stratus-console-bench-'));
    log(`Stratus console benchmark: node ${process.version}, a tenant of ${VMS} VMs, ${ROUNDS} first-page rounds ` +
      `(${LOADALL_RUNS} of them then load every page), ${CONCURRENT ? `${EXPANSIONS} concurrent expansions` : 'concurrent phase skipped'}`);
    adapters.stratus = await bundleStratus();
    adapters.raw = join(consoleDir, 'raw.mjs');
    adapters.naive = adapters.raw;
    sandbox = await startSandbox();
    await control('POST', '/__sandbox/console-rate-limits', LIMITS);
    const state = await control('GET', '/__sandbox/state');
    results.server = { profile: state.profile ?? state.state?.profile, limits: LIMITS };
    log(`sandbox ${sandbox.info.console} (limits ${LIMITS.perModule} r/s per module, ${LIMITS.auth} r/s PAT exchange); each client in its own process\n`);

    // ---- phase 1: cold first page (+ load all) ----
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now();
      const order = round % 2 ? ['raw', 'stratus'] : ['stratus', 'raw'];
      for (const client of order) {
        await control('DELETE', '/__sandbox/requests');
        const loadAll = client === 'stratus' && round < LOADALL_RUNS;
        const r = await child({ client, mode: 'firstPage', loadAll }, FIRST_PAGE_CHILD_MS);
        if (!r) continue;
        const seen = await serverRequests();
        r.server = { requests: seen.length, http429: seen.filter((q) => q.status === 429).length };
        results.first.push({ ...r, round });
      }
      log(`round ${round + 1}/${ROUNDS} (${order.join(', ')}${round < LOADALL_RUNS ? '; stratus loads all' : ''}) ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }

    // ---- phase 2: concurrent expansions under the per-module limit ----
    if (CONCURRENT) {
      await sleep(1_200); // the sandbox's sliding one-second windows are empty again
      await control('DELETE', '/__sandbox/requests');
      const seen = new Map();
      let gap = false;
      let lastSeq = 0;
      const poll = async () => {
        const list = await serverRequests('/api/compute/');
        for (const q of list) {
          if (!seen.has(q.seq)) seen.set(q.seq, q);
        }
        const seqs = list.map((q) => q.seq);
        // The log holds the last 500: if its oldest entry is newer than what we saw last, some were lost.
        if (seqs.length && lastSeq && Math.min(...seqs) > lastSeq + 1) gap = true;
        if (seqs.length) lastSeq = Math.max(lastSeq, ...seqs);
      };
      let polling = true;
      const poller = (async () => {
        while (polling) {
          await sleep(POLL_MS);
          await poll().catch(() => undefined);
        }
      })();
      const started = performance.now();
      const s = await child({ client: 'stratus', mode: 'concurrent', n: EXPANSIONS }, CONCURRENT_CHILD_MS);
      polling = false;
      await poller;
      await poll().catch((error) => failures.push(`reading the sandbox request log: ${error.message}`));
      if (s) {
        const reqs = [...seen.values()].filter((q) => q.status !== null);
        const arrivals = reqs.map((q) => Date.parse(q.time));
        const finishes2xx = reqs.filter((q) => q.status >= 200 && q.status < 300).map((q) => Date.parse(q.time) + (q.durationMs ?? 0));
        s.server = {
          complete: !gap,
          requests: reqs.length,
          http429: reqs.filter((q) => q.status === 429).length,
          maxArrivalsPerSecond: busiestWindow(arrivals).count,
          // What the sandbox's limiter counts: 2xx responses, at the time they finished.
          max2xxPerSecond: busiestWindow(finishes2xx).count,
        };
        results.concurrent.stratus = s;
      }
      log(`stratus: ${EXPANSIONS} concurrent expansions ${((performance.now() - started) / 1000).toFixed(1)} s`);

      await sleep(1_500);
      const startedNaive = performance.now();
      const n = await child({ client: 'naive', mode: 'concurrent', n: EXPANSIONS }, CONCURRENT_CHILD_MS);
      if (n) results.concurrent.naive = n;
      log(`naive: ${EXPANSIONS} concurrent GETs ${((performance.now() - startedNaive) / 1000).toFixed(1)} s`);
    }
  } catch (error) {
    failures.push(`console bench: ${error instanceof Error ? error.stack : String(error)}`);
  } finally {
    if (sandbox) await sandbox.stop();
    cleanup();
  }

  report(results, failures, began);
  if (failures.length) process.exitCode = 1;
  return { failures, results };
}

function report(results, failures, began) {
  const first = results.first;
  const of = (client) => first.filter((r) => r.client === client);
  const stratus = of('stratus');
  const raw = of('raw');
  const loads = stratus.filter((r) => r.loadAll).map((r) => r.loadAll);
  // Ratio: the median over rounds of stratus/raw within a round (the two ran a second apart).
  const rounds = [...new Set(first.map((r) => r.round))];
  const ratioFirst = median(rounds.map((round) => {
    const a = first.find((r) => r.round === round && r.client === 'stratus');
    const b = first.find((r) => r.round === round && r.client === 'raw');
    return a && b ? a.firstPageMs / b.firstPageMs : NaN;
  }));
  const med = (rs, pick) => median(rs.map(pick));
  const maxOf = (rs, pick) => (rs.length ? Math.max(...rs.map(pick)) : NaN);
  const minOf = (rs, pick) => (rs.length ? Math.min(...rs.map(pick)) : NaN);
  const firstRow = (client, rs) => [
    client,
    f1(med(rs, (r) => r.firstPageMs)),
    `${f1(minOf(rs, (r) => r.firstPageMs))}-${f1(maxOf(rs, (r) => r.firstPageMs))}`,
    f1(med(rs, (r) => r.toFirstConnectMs)),
    f1(med(rs, (r) => r.firstPageMs - r.toFirstConnectMs)),
    rs.length ? `${minOf(rs, (r) => r.firstPage.requests)}${maxOf(rs, (r) => r.firstPage.requests) !== minOf(rs, (r) => r.firstPage.requests) ? `-${maxOf(rs, (r) => r.firstPage.requests)}` : ''}` : 'n/a',
    // children that loaded every page afterwards are left out: the log covers the whole child
    rs.some((r) => !r.loadAll) ? maxOf(rs.filter((r) => !r.loadAll), (r) => r.server?.requests ?? NaN) : 'n/a',
    rs.length ? maxOf(rs, (r) => r.firstPage.http429 + (r.server?.http429 ?? 0)) : 'n/a',
    f1(med(rs, (r) => r.memFirstPage.rssMb)),
    f1(med(rs, (r) => r.memFirstPage.heapMb)),
    rs.length,
  ];

  log(`\nTenant of ${VMS} VMs, first page: cold process -> sign-in (PAT -> JWT) -> 100 VMs listed (Stratus: and presented); medians of ${ROUNDS} rounds`);
  log(table(['client', 'first page ms', 'range ms', 'to 1st connect ms', 'after ms', 'requests', 'server saw', '429s', 'RSS growth MB', 'heap growth MB', 'runs'], [
    firstRow('stratus', stratus),
    firstRow('raw', raw),
  ]));
  log('("to 1st connect": loading the HTTP stack, fetch\'s lazy init for both; "after": sign-in, list, parse, present.)');

  if (LOADALL_RUNS > 0) {
    log(`\nLoad all ${VMS} VMs page by page (Stratus, "Load more" until the last page, every row kept); medians of ${loads.length} runs`);
    log(table(['item', 'value'], [
      ['pages', loads.length ? med(loads, (l) => l.pages) : 'n/a'],
      ['requests (exchange + lists)', loads.length ? maxOf(loads, (l) => l.requests) : 'n/a'],
      ['HTTP 429 seen', loads.length ? maxOf(loads, (l) => l.allWire.http429) : 'n/a'],
      ['total ms (cold first page + every Load more)', f1(med(loads, (l) => l.totalMs))],
      ['  Load more ms per page', f1(med(loads, (l) => l.loadMoreMs / Math.max(1, l.pages - 1)))],
      ['RSS growth MB (from before the client existed)', f1(med(loads, (l) => l.mem.rssMb))],
      ['heap growth MB', f1(med(loads, (l) => l.mem.heapMb))],
      ['heap per VM kept (bytes)', loads.length ? Math.round((med(loads, (l) => l.mem.heapMb) * 1024 * 1024) / VMS) : 'n/a'],
    ]));
    log(`(Stratus' own limiter spaces compute requests at ${(LIMITS.perModule * 0.9).toFixed(1)} r/s, so ${VMS / 100} pages take at least ${((VMS / 100 - 1) / (LIMITS.perModule * 0.9)).toFixed(1)} s.)`);
  }

  const c = results.concurrent;
  if (CONCURRENT) {
    log(`\n${EXPANSIONS} concurrent node expansions (pages of 100, every 5th filtered by name) against the sandbox's ${LIMITS.perModule} r/s per-module limit`);
    const row = (name, r) => r ? [
      name,
      r.requests,
      r.statuses?.[200] ?? 0,
      r.http429,
      r.expansionsOk,
      r.expansionsFailed + r.expansionsRefused,
      r.maxPerSecond,
      r.server ? `${r.server.max2xxPerSecond}${r.server.complete ? '' : '*'}` : '-',
      f1(r.meanPerSecond),
      f1(r.totalMs / 1000),
      f1(r.rssAfterMb - r.rssBaseMb),
    ] : [name, 'not measured', '', '', '', '', '', '', '', '', ''];
    log(table(['client', 'requests', '200', '429', 'expansions ok', 'failed', 'busiest 1 s (sent)', 'busiest 1 s (server 2xx)', 'mean r/s', 'total s', 'RSS growth MB'], [
      row('stratus', c.stratus),
      row('naive', c.naive),
    ]));
    if (c.stratus?.server && !c.stratus.server.complete) log('* the sandbox request log overflowed between polls; server-side figures are partial');
    if (c.naive && Object.keys(c.naive.errors).length) log(`naive failures: ${JSON.stringify(c.naive.errors)}`);
    if (c.stratus && Object.keys(c.stratus.errors).length) log(`stratus failures: ${JSON.stringify(c.stratus.errors)}`);
  }

  if (failures.length) {
    log('\nProblems:');
    for (const f of failures) log(`  - ${f.replace(/\n/g, '\n    ')}`);
  }

  // ---- machine-readable lines ----
  const ratios = [];
  if (Number.isFinite(ratioFirst)) ratios.push(['stratus/raw.firstPage', ratioFirst]);
  const metrics = []; // [name, value, integer?]
  const metric = (name, v, integer = false) => {
    if (Number.isFinite(v)) metrics.push([name, v, integer]);
  };
  metric('console.first_page.stratus_ms', med(stratus, (r) => r.firstPageMs));
  metric('console.first_page.raw_ms', med(raw, (r) => r.firstPageMs));
  metric('console.first_page.stratus_to_connect_ms', med(stratus, (r) => r.toFirstConnectMs));
  metric('console.first_page.raw_to_connect_ms', med(raw, (r) => r.toFirstConnectMs));
  metric('console.requests_first_page', maxOf(stratus, (r) => r.firstPage.requests), true);
  metric('console.rss_first_page_mb', med(stratus, (r) => r.memFirstPage.rssMb));
  metric('console.rss_first_page.raw_mb', med(raw, (r) => r.memFirstPage.rssMb));
  metric('console.rss_10k_mb', med(loads, (l) => l.mem.rssMb));
  metric('console.heap_10k_mb', med(loads, (l) => l.mem.heapMb));
  metric('console.load_all_10k_ms', med(loads, (l) => l.totalMs));
  metric('console.requests_10k', maxOf(loads, (l) => l.requests), true);
  if (c.stratus) {
    metric('console.max_requests_per_second', c.stratus.maxPerSecond, true);
    metric('console.http_429', c.stratus.http429, true);
    metric('console.concurrent_total_s', c.stratus.totalMs / 1000);
    metric('console.concurrent_requests', c.stratus.requests, true);
    if (c.stratus.server) {
      metric('console.server_max_2xx_per_second', c.stratus.server.max2xxPerSecond, true);
      metric('console.server_http_429', c.stratus.server.http429, true);
    }
  }
  if (c.naive) {
    metric('console.naive_http_429', c.naive.http429, true);
    metric('console.naive_http_200', c.naive.statuses?.[200] ?? 0, true);
    metric('console.naive_max_requests_per_second', c.naive.maxPerSecond, true);
  }
  log('');
  for (const [name, v] of ratios) log(`ratio ${name} ${v.toFixed(2)}`);
  for (const [name, v, integer] of metrics) log(`metric ${name} ${integer ? v : f2(v)}`);

  // ---- targets ----
  const targets = [];
  const target = (name, ok, detail) => targets.push({ name, status: ok === undefined ? 'NOT MEASURED' : ok ? 'PASS' : 'FAIL', detail });
  target(`first page within ${FIRST_PAGE_TARGET}x of raw`, Number.isFinite(ratioFirst) ? ratioFirst <= FIRST_PAGE_TARGET : undefined,
    `${fx(ratioFirst)} (stratus ${f1(med(stratus, (r) => r.firstPageMs))} ms, raw ${f1(med(raw, (r) => r.firstPageMs))} ms)`);
  const reqs = stratus.map((r) => r.firstPage.requests);
  target('first page in exactly 2 requests (exchange + list)', reqs.length ? reqs.every((n) => n === 2) : undefined,
    reqs.length ? `${[...new Set(reqs)].join(', ')} request(s)` : 'not measured');
  if (CONCURRENT) {
    const s = c.stratus;
    const all = s ? s.expansionsOk === s.n : undefined;
    target(`${EXPANSIONS} expansions: 0 HTTP 429`, s ? s.http429 === 0 && (s.server?.http429 ?? 0) === 0 : undefined,
      s ? `${s.http429} on the wire, ${s.server?.http429 ?? '?'} in the sandbox log; naive client: ${c.naive ? c.naive.http429 : 'n/a'}` : 'not measured');
    target(`${EXPANSIONS} expansions: busiest 1 s <= ${LIMITS.perModule} requests`, s ? s.maxPerSecond <= LIMITS.perModule : undefined,
      s ? `${s.maxPerSecond} sent, ${s.server?.max2xxPerSecond ?? '?'} 2xx counted by the sandbox; ${f1(s.totalMs / 1000)} s in all; naive: ${c.naive ? c.naive.maxPerSecond : 'n/a'} sent` : 'not measured');
    target(`${EXPANSIONS} expansions all answered`, all, s ? `${s.expansionsOk}/${s.n}` : 'not measured');
  } else {
    target(`${EXPANSIONS} expansions`, undefined, 'skipped (BENCH_CONSOLE_CONCURRENT=0)');
  }
  const rss10k = med(loads, (l) => l.mem.rssMb);
  target(`RSS for ${VMS} VMs reported`, LOADALL_RUNS > 0 ? Number.isFinite(rss10k) : undefined, `${f1(rss10k)} MB`);
  log('\ntargets:');
  for (const t of targets) log(`  ${pad(t.status, 12)} ${t.name}: ${t.detail}`);
  failOnTargets(targets);

  const seconds = (performance.now() - began) / 1000;
  mkdirSync(join(root, 'test-results'), { recursive: true });
  writeFileSync(join(root, 'test-results', 'bench-console.json'), `${JSON.stringify({
    date: new Date().toISOString(),
    node: process.version,
    config: { rounds: ROUNDS, loadAllRuns: LOADALL_RUNS, vms: VMS, concurrent: CONCURRENT, expansions: EXPANSIONS, limits: LIMITS, server: results.server },
    ratios: Object.fromEntries(ratios.map(([n, v]) => [n, Number(v.toFixed(4))])),
    metrics: Object.fromEntries(metrics.map(([n, v]) => [n, v])),
    targets, failures,
    runs: { firstPage: results.first, concurrent: results.concurrent },
    seconds,
  }, null, 2)}\n`);
  log(`\nfull results: test-results/bench-console.json (${seconds.toFixed(0)} s)`);
  if (failures.length) log(`${failures.length} console measurement(s) could not be made; exit 1`);
}

process.on('exit', cleanup);

const invokedDirectly = (() => {
  try {
    return process.argv[1] !== undefined && pathToFileURL(realpathSync(process.argv[1])).href === import.meta.url;
  } catch {
    return false;
  }
})();
if (invokedDirectly) {
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.on(sig, () => {
      cleanup();
      process.exit(130);
    });
  }
  runConsoleBench().catch((error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exitCode = 1;
  });
}
