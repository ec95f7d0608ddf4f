// The process that plays the extension host in the search benchmark (bench/search.mjs starts it
// with --expose-gc): it talks to the index worker (src/core/search/worker/indexWorker.ts, bundled) through
// the client the extension uses (IndexClient), and measures what the host pays: its JS heap (the
// worker's heap is its own), the longest block of its event loop (perf_hooks.monitorEventLoopDelay
// over the whole run: build, reload, queries, incremental updates) and the process's RSS (which
// includes the worker: it is the process that holds the index).
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? NaN : s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const p95 = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)];
};
const gc = /** @type {() => void} */ (globalThis.gc ?? (() => undefined));
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const peakRss = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN) * 1024;

/**
 * @param {{ bundle: string, indexWorker: string, buildWorker?: string, dir: string, storage: string, questions: string[],
 *   repeats: number, editFiles: number, coldRuns?: number, sandbox?: { inference: string, apiKey: string } }} task
 */
export async function playHost(task) {
  const core = createRequire(import.meta.url)(task.bundle);
  const settings = { ...core.DEFAULT_SEARCH_SETTINGS, excludeGlobs: [] };
  const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
  const client = task.sandbox ? core.createInferenceClient({ baseUrl: task.sandbox.inference, apiKey: () => Promise.resolve(task.sandbox?.apiKey) }) : undefined;
  const make = (storage = task.storage) =>
    new core.IndexClient({
      makeWorker: () => new Worker(task.indexWorker),
      init: { root: task.dir, storageDir: storage, ...(task.buildWorker ? { buildWorkerScript: task.buildWorker } : {}) },
      fs: new core.NodeFileSystem(task.dir),
      settings: () => settings,
      logger: silent,
      ...(client ? { inference: () => core.searchInference(() => client) } : {}),
    });
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const blocks = {};
  /** The longest block of the host's loop during one phase (the histogram is reset per phase). */
  const phase = async (name, work) => {
    loop.reset();
    const out = await work();
    blocks[name] = loop.max / 1e6;
    return out;
  };
  // The host's HTTP stack is loaded before any search, as in the extension (activation lists the
  // models): its one-time load (Node's fetch compiling undici, ~50 ms) is not the index's cost.
  if (client) await client.models.list().catch(() => undefined);
  loop.enable();
  // The noise floor: the longest block of this loop while it does nothing (a loaded machine's scheduler).
  await phase('idle', () => new Promise((resolve) => setTimeout(resolve, 1000)));
  // The cold build's time is the median of `coldRuns` builds (ripgrep's is a median too): the
  // extra ones come first, each a new client (a new index worker, its code cold) over storage of
  // its own, dropped after. Their event-loop blocks count like the others'.
  const coldRunsMs = [];
  await phase('extraBuilds', async () => {
    for (let i = 1; i < (task.coldRuns ?? 1); i++) {
      const storage = `${task.storage}-cold${i}`;
      const s = performance.now();
      const extra = make(storage);
      await extra.open();
      coldRunsMs.push(performance.now() - s);
      await extra.close();
      rmSync(storage, { recursive: true, force: true });
    }
  });
  const heap0 = heap();
  let heapPeak = 0;
  const sampler = setInterval(() => {
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed - heap0);
  }, 25);

  // Cold build; the first query is asked at the first progress report: results stream while indexing.
  let t = performance.now();
  const engine = make();
  /** @type {Promise<{ ms: number, atMs: number, hits: number, done: number, total: number }> | undefined} */
  let firstPartial;
  const stats = await phase('build', () =>
    engine.open({
      onProgress: (p) => {
        if (firstPartial || p.done === 0) return;
        const asked = performance.now();
        firstPartial = engine.query(task.questions[0], 10).then((hits) => ({ ms: performance.now() - asked, atMs: asked - t, hits: hits.length, done: p.done, total: p.total }));
      },
    }),
  );
  coldRunsMs.push(performance.now() - t);
  const coldMs = median(coldRunsMs);
  await engine.persisted();
  const persistedMs = performance.now() - t;
  const partial = await firstPartial;
  const rssAfterBuild = process.memoryUsage().rss;

  // Warm queries: one untimed, then `repeats` timed per question (round trip through the worker).
  const samples = [];
  const perQuestion = [];
  await phase('query', async () => {
    for (const q of task.questions) {
      await engine.query(q, 50);
      const mine = [];
      for (let r = 0; r < task.repeats; r++) {
        const s = performance.now();
        const hits = await engine.query(q, 50);
        mine.push(performance.now() - s);
        if (hits.length === 0) throw new Error(`no lexical hit for "${q}"`);
      }
      samples.push(...mine);
      perQuestion.push(median(mine));
    }
  });
  // Reranked searches: the candidates from the worker, the rerank request from the host (as in the extension).
  const reranked = [];
  let rerankedAll = true;
  await phase('rerank', async () => {
    if (!client) return;
    for (const q of task.questions) {
      await engine.search(q);
      const s = performance.now();
      const result = await engine.search(q);
      reranked.push(performance.now() - s);
      rerankedAll &&= result.reranked;
    }
  });

  // One edited file: searchable once the debounced update ran (flush stands for the debounce's end).
  const edited = join(task.dir, 'src', 'edited', 'quillfeatherEdit.ts');
  mkdirSync(join(task.dir, 'src', 'edited'), { recursive: true });
  writeFileSync(edited, 'export function quillfeatherZanzibar() {\n  return 1;\n}\n', { flag: 'w' });
  const editMs = await phase('edit', async () => {
    const s = performance.now();
    engine.notifyChanged('src/edited/quillfeatherEdit.ts');
    await engine.flush();
    const hits = await engine.query('quillfeather zanzibar', 5);
    if (hits[0]?.path !== 'src/edited/quillfeatherEdit.ts') throw new Error('the edited file was not found');
    return performance.now() - s;
  });

  // A branch switch: `editFiles` files change on disk at once, reported one event each.
  const files = engine.stats.files;
  const touched = listFiles(task.dir).slice(0, task.editFiles);
  for (const path of touched) appendFileSync(join(task.dir, path), '\n// branchswitchmarker\n');
  const branchMs = await phase('branch', async () => {
    const s = performance.now();
    for (const path of touched) engine.notifyChanged(path);
    await engine.flush();
    return performance.now() - s;
  });
  const branchHits = (await engine.query('branchswitchmarker', 10_000)).length;
  await engine.close();
  clearInterval(sampler);
  const heapAfter = heap() - heap0;

  // Restart: a new client (a new window) loads from disk and answers its first query (asked at
  // once: answered from the stored index, before the check of every file's size and time ends).
  t = performance.now();
  const again = make();
  const { reload, firstQueryMs, reconciledMs } = await phase('reload', async () => {
    const opening = again.open();
    const hits = await again.query(task.questions[0], 10);
    const first = performance.now() - t;
    if (hits.length === 0) throw new Error('no hit after the reload');
    const r = await opening;
    return { reload: r, firstQueryMs: first, reconciledMs: performance.now() - t };
  });
  await again.close();
  await client?.close();
  loop.disable();
  return {
    coldMs, coldRunsMs, persistedMs, files: stats.files, chunks: stats.chunks, partial,
    lexicalMs: perQuestion, querySamplesMs: samples, warmQueryP95Ms: p95(samples), rerankedMs: reranked, rerankedAll,
    editMs, branchMs, branchFiles: touched.length, branchHits, filesAfterBranch: engine.stats.files, filesBefore: files,
    reloadToFirstQueryMs: firstQueryMs, reloadReconciledMs: reconciledMs, reloadSource: reload.source, reloadIndexed: reload.indexed,
    blocks, maxLoopBlockMs: Math.max(...Object.entries(blocks).filter(([k]) => k !== 'idle').map(([, v]) => v)),
    heap: { peakGrowth: heapPeak, afterGrowth: heapAfter },
    rss: { afterBuild: rssAfterBuild, peak: peakRss() },
  };
}

/**
 * A restarted window in a process of its own (after playHost wrote the index): a new client loads
 * the stored index and answers a query. What the process then holds (the host and the worker
 * with the loaded index, no build ever ran in it): its peak RSS, its RSS once opened, and its RSS
 * before the index client started (Node and the bundle: the part that is not the index).
 * @param {{ bundle: string, indexWorker: string, dir: string, storage: string, questions: string[] }} task
 */
export async function playRestart(task) {
  const core = createRequire(import.meta.url)(task.bundle);
  const settings = { ...core.DEFAULT_SEARCH_SETTINGS, excludeGlobs: [] };
  const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
  // What the window holds before any index: Node, the bundle, no worker (the index's share is the rest).
  const baseRss = process.memoryUsage().rss;
  const t = performance.now();
  const client = new core.IndexClient({ makeWorker: () => new Worker(task.indexWorker), init: { root: task.dir, storageDir: task.storage }, fs: new core.NodeFileSystem(task.dir), settings: () => settings, logger: silent });
  const opening = client.open();
  const hits = await client.query(task.questions[0], 10);
  const firstQueryMs = performance.now() - t;
  const reload = await opening;
  if (hits.length === 0 || reload.source !== 'loaded') throw new Error(`the restart did not answer from the stored index (${reload.source}, ${hits.length} hits)`);
  await client.query(task.questions[1] ?? task.questions[0], 10);
  const rss = process.memoryUsage().rss;
  const peak = peakRss();
  await client.close();
  return { firstQueryMs, rss, baseRss, peak };
}

/** The workspace's files in a stable order (for the branch switch). */
function listFiles(dir) {
  const out = [];
  const stack = [''];
  while (stack.length > 0) {
    const rel = stack.pop() ?? '';
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) stack.push(p);
      else if (e.name.endsWith('.ts') && !p.startsWith('src/edited')) out.push(p);
    }
  }
  return out.sort();
}
