// The load benchmark (issue 22): 50 concurrent chat streams through one inference client (as the
// extension shares one) with a few faults injected, then 1,000 Cloud-tree requests (console list
// calls over four kinds in three modules) through one console client against the sandbox with the
// contract's per-IP rate limits switched on. Counted: errors beyond the injected ones, 429s the
// client caused (rate limits respected when 0), and the heap before the load and after it (both
// after a full collection, the clients closed): back to baseline when they match. Runs alone
// (`npm run bench:load`) or at the end of `npm run bench` (bench/run.mjs imports runLoadBench()).
// It reports; it is not a test: it exits non-zero only when something could not be measured.
//
// Environment knobs (all optional):
//   BENCH_LOAD_STREAMS=50     concurrent chat streams
//   BENCH_LOAD_TREE=1000      tree (list) requests
//   BENCH_LOAD_CHUNK_MS=2     sandbox delay between streamed events (keeps the streams overlapping)
//   BENCH_LOAD_EXTRA_ROUNDS=0 more rounds, the heap printed after each (a leak grows, a one-time cost does not)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { bundleForNode, f1, log, table } from './lib.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const root = resolve(benchDir, '..');
const env = process.env;
const int = (v, d, min = 1) => (v !== undefined && v !== '' ? Math.max(min, Math.floor(Number(v))) : d);

const STREAMS = int(env.BENCH_LOAD_STREAMS, 50);
const TREE = int(env.BENCH_LOAD_TREE, 1000);
const CHUNK_MS = int(env.BENCH_LOAD_CHUNK_MS, 2, 0);
const EXTRA_ROUNDS = int(env.BENCH_LOAD_EXTRA_ROUNDS, 0, 0);
/** Injected into the chat streams: connections cut mid-answer (each one error, expected) and a 503 burst (retried: no error). */
const INJECTED_DROPS = 2;
const INJECTED_503 = 3;
const TREE_KINDS = ['virtualMachines', 'users', 'roles', 'virtualNetworks'];
const LIMITS = { perModule: 25, auth: 5 };

setFlagsFromString('--expose-gc');
const gc = /** @type {() => void} */ (runInNewContext('gc'));

function heapMB() {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

function bundle(tmp) {
  return bundleForNode(join(tmp, 'stratus-load.cjs'), {
    contents: [
      "export { createInferenceClient } from './src/core/inference';",
      "export { createConsoleClient } from './src/core/console/index';",
      "export { startSandbox } from './test/sandbox/index';",
    ].join('\n'),
  });
}

/** A fetch that counts the statuses it saw (429s are what the client caused). */
function countingFetch() {
  const statuses = new Map();
  /** @type {(url: string, init: RequestInit) => Promise<Response>} */
  const fetch = async (url, init) => {
    const res = await globalThis.fetch(url, init);
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    return res;
  };
  return { fetch, statuses };
}

async function chatLoad(m, sandbox) {
  const counted = countingFetch();
  const client = m.createInferenceClient({ baseUrl: sandbox.inferenceUrl, apiKey: () => Promise.resolve(sandbox.credentials.apiKey), fetch: counted.fetch, retry: { baseDelayMs: 50, maxDelayMs: 200 } });
  sandbox.control.setLatency({ ms: 0, chunkDelayMs: CHUNK_MS, pathPrefix: '/v1/chat/completions' });
  sandbox.control.injectStreamFault({ kind: 'drop', afterChunks: 5, count: INJECTED_DROPS, pathPrefix: '/v1/chat/completions' });
  sandbox.control.burst({ status: 503, count: INJECTED_503, pathPrefix: '/v1/chat/completions' });
  const started = performance.now();
  try {
    const results = await Promise.all(Array.from({ length: STREAMS }, (_, i) => {
      let chars = 0;
      return client
        .chatStream({ model: 'gpt-oss:120b', messages: [{ role: 'user', content: `long ${40 + (i % 20)}` }] })
        .consume((e) => {
          if (e.type === 'text') chars += e.text.length;
        })
        .then(() => ({ ok: true, chars, kind: '' }), (error) => ({ ok: false, chars, kind: String(error?.kind ?? error) }));
    }));
    const seconds = (performance.now() - started) / 1000;
    const failed = results.filter((r) => !r.ok);
    // A dropped connection after text is an interrupted answer: those are the injected errors.
    const injected = Math.min(INJECTED_DROPS, failed.filter((r) => r.kind === 'interrupted' || r.kind === 'network').length);
    return { streams: STREAMS, failed: failed.length, unexpected: failed.length - injected, kinds: failed.map((r) => r.kind), seconds, statuses: Object.fromEntries(counted.statuses) };
  } finally {
    await client.close();
    sandbox.control.setLatency(null);
  }
}

async function treeLoad(m, sandbox) {
  const counted = countingFetch();
  sandbox.control.setConsoleRateLimits(LIMITS);
  const client = m.createConsoleClient({
    baseUrl: sandbox.consoleUrl,
    pat: { id: async () => sandbox.credentials.patId, secret: async () => sandbox.credentials.patSecret },
    rateLimits: LIMITS,
    fetch: counted.fetch,
  });
  const started = performance.now();
  try {
    const results = await Promise.all(Array.from({ length: TREE }, (_, i) =>
      client.list(TREE_KINDS[i % TREE_KINDS.length], { limit: 50, offset: (i % 5) * 10 }).then(() => ({ ok: true, kind: '' }), (error) => ({ ok: false, kind: String(error?.kind ?? error) }))));
    const seconds = (performance.now() - started) / 1000;
    const failed = results.filter((r) => !r.ok);
    return { requests: TREE, failed: failed.length, kinds: failed.map((r) => r.kind), seconds, statuses: Object.fromEntries(counted.statuses) };
  } finally {
    await client.close();
    sandbox.control.setConsoleRateLimits(false);
  }
}

export async function runLoadBench() {
  const tmp = mkdtempSync(join(tmpdir(), 'stratus-bench-load-'));
  try {
    log(`Load benchmark: ${STREAMS} concurrent chat streams (${INJECTED_DROPS} connections cut, a ${INJECTED_503}-response 503 burst), then ${TREE} tree requests under the contract's rate limits`);
    const m = await import(pathToFileURL(await bundle(tmp)).href).then((x) => x.default ?? x);
    const sandbox = await m.startSandbox({ port: 0 });
    try {
      // Warm-up: modules, connection pools and lazy caches belong to the baseline, not to the load.
      await chatLoadWarmUp(m, sandbox);
      sandbox.control.clearRequests();
      const heapBefore = heapMB();
      const chat = await chatLoad(m, sandbox);
      const tree = await treeLoad(m, sandbox);
      // The sandbox shares the process: its bounded request log is its state, not the clients'.
      sandbox.control.clearRequests();
      const heapAfter = heapMB();
      const heapRounds = [];
      for (let k = 0; k < EXTRA_ROUNDS; k++) {
        {
          await chatLoad(m, sandbox);
          await treeLoad(m, sandbox);
          sandbox.control.clearRequests();
          heapRounds.push(heapMB());
        }
      }
      log('');
      log(table(
        ['phase', 'requests', 'failed', 'beyond injected', 'HTTP 429 seen', 'seconds'],
        [
          ['chat streams', chat.streams, chat.failed, chat.unexpected, chat.statuses[429] ?? 0, f1(chat.seconds)],
          ['tree requests', tree.requests, tree.failed, tree.failed, tree.statuses[429] ?? 0, f1(tree.seconds)],
        ],
      ));
      if (chat.kinds.length) log(`chat failures: ${chat.kinds.join(', ')}`);
      if (tree.kinds.length) log(`tree failures: ${tree.kinds.join(', ')}`);
      log(`heap after a full collection: ${f1(heapBefore)} MB before the load, ${f1(heapAfter)} MB after it (clients closed)`);
      if (heapRounds.length) log(`heap after each extra round: ${heapRounds.map(f1).join(', ')} MB`);
      log('');
      log(`metric load.chatStreamsErrors ${chat.unexpected}`);
      log(`metric load.treeRequestsErrors ${tree.failed}`);
      log(`metric load.treeRequests429 ${tree.statuses[429] ?? 0}`);
      log(`metric load.heapBeforeMB ${f1(heapBefore)}`);
      log(`metric load.heapAfterMB ${f1(heapAfter)}`);
      mkdirSync(join(root, 'test-results'), { recursive: true });
      writeFileSync(join(root, 'test-results', 'bench-load.json'), `${JSON.stringify({ date: new Date().toISOString(), node: process.version, chat, tree, heapBeforeMB: heapBefore, heapAfterMB: heapAfter }, null, 2)}\n`);
    } finally {
      await sandbox.close();
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** One smaller round of the same shape: first-time code paths and pool sizes are the baseline. */
async function chatLoadWarmUp(m, sandbox) {
  await chatLoad(m, sandbox);
  const counted = countingFetch();
  sandbox.control.setConsoleRateLimits(LIMITS);
  const consoleClient = m.createConsoleClient({ baseUrl: sandbox.consoleUrl, pat: { id: async () => sandbox.credentials.patId, secret: async () => sandbox.credentials.patSecret }, rateLimits: LIMITS, fetch: counted.fetch });
  try {
    await Promise.all(Array.from({ length: 40 }, (_, i) => consoleClient.list(TREE_KINDS[i % TREE_KINDS.length], { limit: 50, offset: (i % 5) * 10 })));
  } finally {
    await consoleClient.close();
    sandbox.control.setConsoleRateLimits(false);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runLoadBench().catch((error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exitCode = 1;
  });
}
