// One console client in one process. Invoked by bench/console.mjs as
//   node --expose-gc bench/console/child.mjs '<json task>'
// and prints one JSON line (prefixed `RESULT `) on stdout. A wrong count or an error exits non-zero.
//
// task: { client, adapter (absolute path of a module exporting setup(target)), target, mode, ... }
//   mode "firstPage": cold client -> sign-in -> first page of 100 listed (and, for Stratus, presented);
//                     with `loadAll`, then every further page ("Load more") until the last.
//   mode "concurrent": sign in, then `n` expansions at once (varied offsets and name filters).
//
// Every HTTP request is observed on the wire through undici's diagnostics channels (the bundled
// undici of Stratus and the one inside Node's fetch publish on the same channels), so requests a
// client retries by itself (a 429 retried after Retry-After) are counted too.
import { subscribe } from 'node:diagnostics_channel';
import { pathToFileURL } from 'node:url';
import { busiestWindow } from './stats.mjs';
import { runMain } from '../lib.mjs';

const task = JSON.parse(process.argv[2] ?? '');
const VM_PREFIXES = ['web', 'db', 'app', 'cache', 'batch', 'vpn', 'k8s-node', 'ci-runner'];

// ---- wire observer ----
const wire = []; // { t, method, path, status }
const byRequest = new WeakMap();
/** @typedef {{ request: { method: string, path: string }, response: { statusCode: number }, error?: { code?: string, name?: string } }} UndiciMessage undici's diagnostics-channel messages (the fields read here) */
/** @param {(message: UndiciMessage) => void} listener */
const onUndici = (listener) => (/** @type {unknown} */ message) => listener(/** @type {UndiciMessage} */ (message));
subscribe('undici:client:sendHeaders', onUndici(({ request }) => {
  const rec = { t: performance.now(), method: request.method, path: String(request.path).split('?')[0], status: undefined };
  byRequest.set(request, rec);
  wire.push(rec);
}));
let firstConnectAt; // when the client first opened a socket: its HTTP stack was loaded by then
subscribe('undici:client:beforeConnect', () => {
  firstConnectAt ??= performance.now();
});
subscribe('undici:request:headers', onUndici(({ request, response }) => {
  const rec = byRequest.get(request);
  if (rec) rec.status = response.statusCode;
}));
subscribe('undici:request:error', onUndici(({ request, error }) => {
  const rec = byRequest.get(request);
  if (rec && rec.status === undefined) rec.status = `error ${error?.code ?? error?.name ?? 'unknown'}`;
}));

function wireSummary(records) {
  const statuses = {};
  for (const r of records) statuses[r.status ?? 'none'] = (statuses[r.status ?? 'none'] ?? 0) + 1;
  return { requests: records.length, statuses, http429: statuses[429] ?? 0 };
}
const isModule = (r) => r.path.startsWith('/api/compute/');
const isExchange = (r) => r.path.startsWith('/api/iam/v2/auth/');

const MB = 1024 * 1024;
function memory() {
  globalThis.gc?.();
  globalThis.gc?.();
  const m = process.memoryUsage();
  return { rssMb: m.rss / MB, heapMb: m.heapUsed / MB, externalMb: (m.external + m.arrayBuffers) / MB };
}
const growth = (after, before) => ({
  rssMb: after.rssMb - before.rssMb,
  heapMb: after.heapMb - before.heapMb,
  externalMb: after.externalMb - before.externalMb,
});

function fail(message) {
  throw new Error(`${task.client} ${task.mode}: ${message}`);
}

async function firstPage(setup) {
  const base = memory();
  const t0 = performance.now();
  const adapter = setup(task.target); // a cold client: created inside the timed span
  await adapter.signIn();
  const first = await adapter.page(0);
  const firstPageMs = performance.now() - t0;
  if (first.rows.length !== 100 || first.ids.length !== 100) fail(`first page has ${first.rows.length} rows, expected 100`);
  if (first.total !== task.vms) fail(`total ${first.total}, expected ${task.vms}`);
  const firstWire = wireSummary(wire);
  const afterFirst = memory();
  const out = {
    firstPageMs,
    // From t0 to the first socket: loading the HTTP stack (Stratus: undici, required on the first
    // request; raw: the lazy init of Node's fetch) and everything before the first request.
    toFirstConnectMs: firstConnectAt !== undefined ? firstConnectAt - t0 : undefined,
    firstPage: { ...firstWire, exchanges: wire.filter(isExchange).length, lists: wire.filter(isModule).length },
    memFirstPage: growth(afterFirst, base),
    base,
  };

  if (task.loadAll) {
    // "Load more" until the last page, keeping every rendered row (the tree holds them all).
    const rows = [...first.rows];
    const ids = new Set(first.ids);
    let pages = 1;
    let next = first.nextOffset;
    const wireBefore = wire.length;
    const t1 = performance.now();
    while (next !== undefined) {
      const page = await adapter.page(next);
      for (const r of page.rows) rows.push(r);
      for (const id of page.ids) ids.add(id);
      pages++;
      next = page.nextOffset;
      if (pages > task.vms / 100 + 5) fail(`still paging after ${pages} pages`);
    }
    const loadMoreMs = performance.now() - t1;
    if (rows.length !== task.vms || ids.size !== task.vms) fail(`loaded ${rows.length} rows (${ids.size} distinct ids), expected ${task.vms}`);
    const after = memory(); // `rows` is read below, so it is still held here
    out.loadAll = {
      pages,
      rows: rows.length,
      // first page (cold, sign-in included) + every "Load more"
      totalMs: firstPageMs + loadMoreMs,
      loadMoreMs,
      requests: wire.length,
      loadMoreWire: wireSummary(wire.slice(wireBefore)),
      allWire: wireSummary(wire),
      mem: growth(after, base),
    };
  }
  await adapter.close();
  return out;
}

/** Expansion i: mostly plain pages at varied offsets, every 5th under a name filter. */
function expansion(i) {
  if (i % 5 === 0) return { offset: (i % 3) * 100, name: VM_PREFIXES[(i / 5) % VM_PREFIXES.length] };
  return { offset: ((i * 37) % 100) * 100, name: undefined };
}

async function concurrent(setup) {
  const adapter = setup(task.target);
  await adapter.signIn();
  const before = wire.length;
  const base = memory();
  const t0 = performance.now();
  const settled = await Promise.allSettled(Array.from({ length: task.n }, (_, i) => {
    const { offset, name } = expansion(i);
    return adapter.expand(offset, name);
  }));
  const totalMs = performance.now() - t0;
  const peak = process.memoryUsage().rss / MB;
  const records = wire.slice(before).filter(isModule);
  const times = records.map((r) => r.t - t0);
  const window = busiestWindow(times, 1000);
  const errors = {};
  let ok = 0;
  let refused = 0;
  for (const s of settled) {
    if (s.status === 'fulfilled') {
      if (s.value >= 0) ok++;
      else refused++;
    } else {
      const key = s.reason?.kind ?? s.reason?.name ?? 'error';
      errors[key] = (errors[key] ?? 0) + 1;
    }
  }
  await adapter.close();
  const summary = wireSummary(records);
  return {
    n: task.n,
    totalMs,
    expansionsOk: ok,
    expansionsRefused: refused,
    expansionsFailed: settled.length - ok - refused,
    errors,
    ...summary,
    maxPerSecond: window.count,
    maxWindowStartMs: window.startMs,
    // Overall rate, first to last send.
    meanPerSecond: times.length > 1 ? ((times.length - 1) * 1000) / (Math.max(...times) - Math.min(...times)) : NaN,
    rssAfterMb: peak,
    rssBaseMb: base.rssMb,
    sendTimesMs: times.map((t) => Number(t.toFixed(1))),
  };
}

async function main() {
  const { setup } = await import(pathToFileURL(task.adapter).href);
  const out = { client: task.client, mode: task.mode };
  if (task.mode === 'firstPage') Object.assign(out, await firstPage(setup));
  else if (task.mode === 'concurrent') Object.assign(out, await concurrent(setup));
  else fail(`unknown mode ${task.mode}`);
  process.stdout.write(`RESULT ${JSON.stringify(out)}\n`);
}

runMain(main);
