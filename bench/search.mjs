// The search benchmark: Stratus' workspace index against a full ripgrep scan of the same files for
// the same words, on a generated workspace of 5,000 files (~50 MB). Runs alone
// (`node bench/search.mjs`) or at the end of `npm run bench` (bench/run.mjs imports runSearchBench()).
//
// Method. The workspace is generated (seeded, so every run is the same): TypeScript-like files with
// functions, doc comments and identifiers built from 200 domain words, 110 verbs and 4,000 made-up
// words. The questions are "where do we <verb> the <word> <word> for the <word>?". ripgrep scans
// the same files for the same words (filler dropped, as the index drops it):
// `rg --no-config -i --count-matches -F -e w1 -e w2 ...`, once untimed to warm the page cache, then
// once per question; its figure is the median. Stratus runs in a child process (the core bundled
// with esbuild, no loader in the timed process): cold build of the index from nothing until it is
// ready to query (open() resolved: walk, read, chunk, index, postings laid out), then until it is
// also written to storage (the engine writes it right after it is ready, off the path to the first
// query: `persisted()`); a reload from storage (with the check of every file's size and time); then
// per question one untimed and BENCH_SEARCH_REPEATS timed lexical queries (median per question, then
// the median over questions) and one warm reranked search against the sandbox (rerank v1).
// Ratios: `scan/stratus.warmQuery` = ripgrep median / lexical median (target >= 20);
// `stratus/scan.coldIndex` = cold build until ready to query / ripgrep median (target <= 3): what
// the user waits for before the first query can run; `stratus/scan.coldPersisted` (until written
// too) is printed beside it. It reports; it is not a test:
// it exits non-zero only when something could not be measured. On a loaded machine wall times move a
// lot; the cold build's CPU time is printed too. Results: test-results/bench-search.json.
//
// Environment knobs (all optional):
//   BENCH_SEARCH_FILES=5000      files in the generated workspace
//   BENCH_SEARCH_FILE_KB=10      approximate size of each file
//   BENCH_SEARCH_QUERIES=20      questions (each timed warm, lexical and reranked, and scanned with rg)
//   BENCH_SEARCH_REPEATS=5       timed repeats of each warm query (median)
//   BENCH_RG=/usr/bin/rg         the ripgrep binary
//   BENCH_SEARCH_WORKER=0        1: the cold build shares the files with a build worker thread
//                                (src/core/search/buildWorker.ts, bundled here), as the extension does
//                                once its bundle has that entry; 0: one thread (the extension today)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleForNode, prng } from './lib.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const root = resolve(benchDir, '..');
const env = process.env;
const int = (v, d, min = 1) => (v !== undefined && v !== '' ? Math.max(min, Math.floor(Number(v))) : d);

const FILES = int(env.BENCH_SEARCH_FILES, 5000, 10);
const FILE_KB = int(env.BENCH_SEARCH_FILE_KB, 10);
const QUERIES = int(env.BENCH_SEARCH_QUERIES, 20);
const REPEATS = int(env.BENCH_SEARCH_REPEATS, 5);
const RG = env.BENCH_RG ?? (existsSync('/usr/bin/rg') ? '/usr/bin/rg' : 'rg');
const WORKER = env.BENCH_SEARCH_WORKER === '1';
const TARGETS = { warmQueryRatio: 20, coldIndexRatio: 3, warmLexicalMs: 50 };

const log = (s = '') => process.stdout.write(`${s}\n`);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? NaN : s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');

// ---- the generated workspace -----------------------------------------------------------------


const DOMAIN = (
  'account address agent alert archive audit auth backup balance batch billing bucket buffer cache ' +
  'calendar cart certificate channel checkout client cluster column comment config connection ' +
  'consumer cookie coupon credential cursor customer dashboard database deadline decoder device ' +
  'discount document domain download draft email encoder endpoint event export feature filter ' +
  'folder format gateway graph handler header history image import index invoice job journal key ' +
  'label layout ledger license limit listener locale lock login manifest merge message metric ' +
  'migration mirror module monitor network node notification order owner package page parser ' +
  'partition password payload payment permission pipeline plugin policy pool preview price printer ' +
  'profile project protocol proxy queue quota receipt record redirect region release report ' +
  'request resource response retry role route schedule schema scope secret segment sender session ' +
  'shipment signature snapshot socket source storage stream subscription summary supplier table tag ' +
  'task template tenant thread ticket timeout timer token topic tracker transaction transfer ' +
  'upload user validator vault version volume warehouse webhook widget worker workspace zone'
).split(' ');
const VERBS = (
  'add apply build cancel check clean close compute create decode delete encode ensure expire fetch ' +
  'find flush format handle load lock merge notify open parse publish read refresh register reload ' +
  'remove render renew repair reset resolve restore retry rotate save schedule send sort split start ' +
  'stop store sync throttle track transform update upload validate verify watch write'
).split(' ');

function makeVocabulary(rand, n) {
  const syl = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'zi', 'pe', 'sa', 'do', 'gu', 'fi', 'be', 'no', 'xa', 'qui', 'tor', 'len', 'mar'];
  const words = new Set();
  while (words.size < n) {
    let w = '';
    const k = 2 + Math.floor(rand() * 3);
    for (let i = 0; i < k; i++) w += syl[Math.floor(rand() * syl.length)];
    words.add(w);
  }
  return [...words];
}

const cap = (w) => w[0].toUpperCase() + w.slice(1);

/** Writes FILES files of about FILE_KB KB of TypeScript-like code; returns the questions. */
export function generateWorkspace(dir, { files = FILES, fileKb = FILE_KB, queries = QUERIES, seed = 42 } = {}) {
  const rand = prng(seed);
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const vocab = makeVocabulary(rand, 4000);
  const word = () => (rand() < 0.45 ? pick(DOMAIN) : pick(vocab));
  let bytes = 0;
  for (let f = 0; f < files; f++) {
    const folder = `src/${pick(DOMAIN)}/${pick(vocab)}`;
    const name = `${pick(VERBS)}${cap(pick(DOMAIN))}${f}.ts`;
    const lines = [`// ${cap(pick(DOMAIN))} ${pick(DOMAIN)} helpers: ${word()} ${word()} ${word()}.`, `import { ${pick(VERBS)}${cap(word())} } from '../${pick(vocab)}';`, ''];
    let size = lines.join('\n').length;
    while (size < fileKb * 1024) {
      const fn = `${pick(VERBS)}${cap(word())}${cap(word())}`;
      const block = [`/** ${cap(pick(VERBS))} the ${word()} ${word()} of a ${word()} before the ${word()} ${pick(VERBS)}s. */`, `export async function ${fn}(${word()}Id: string, ${word()}: ${cap(word())}) {`];
      const body = 4 + Math.floor(rand() * 10);
      for (let i = 0; i < body; i++) {
        if (rand() < 0.2) block.push(`  // ${pick(VERBS)} ${word()} ${word()} when the ${word()} is ${word()}`);
        else block.push(`  const ${word()}${cap(word())} = await ${pick(VERBS)}${cap(word())}(${word()}Id, ${Math.floor(rand() * 1000)});`);
      }
      block.push(`  return ${word()}${cap(word())};`, '}', '');
      const text = block.join('\n');
      lines.push(text);
      size += text.length + 1;
    }
    const full = join(dir, folder, name);
    mkdirSync(dirname(full), { recursive: true });
    const content = `${lines.join('\n')}\n`;
    writeFileSync(full, content);
    bytes += Buffer.byteLength(content);
  }
  const questions = [];
  for (let q = 0; q < queries; q++) questions.push(`where do we ${pick(VERBS)} the ${pick(DOMAIN)} ${pick(DOMAIN)} for the ${pick(DOMAIN)}?`);
  return { bytes, questions };
}

/** The words a scan looks for: what the index searches (filler dropped), as ripgrep patterns. */
function scanWords(question) {
  const filler = new Set(['where', 'do', 'we', 'the', 'for', 'a', 'of']);
  return [...new Set(question.toLowerCase().match(/[a-z0-9]+/g).filter((w) => !filler.has(w)))];
}

// ---- ripgrep -------------------------------------------------------------------------------

function rgScan(dir, question) {
  const args = ['--no-config', '--ignore-case', '--count-matches', '--fixed-strings', '--no-messages'];
  for (const w of scanWords(question)) args.push('-e', w);
  args.push('.');
  const t = performance.now();
  const res = spawnSync(RG, args, { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t;
  if (res.error) throw res.error;
  if (res.status !== 0 && res.status !== 1) throw new Error(`rg exited ${res.status}: ${res.stderr}`);
  return { ms, files: res.stdout.split('\n').filter(Boolean).length };
}

// ---- the Stratus side (a child process) -------------------------------------------------------

async function bundleCore(outDir) {
  const outfile = await bundleForNode(join(outDir, 'stratus-search.cjs'), { contents: "export * from './src/core/search/index.ts'; export { createInferenceClient } from './src/core/inference/client.ts';" });
  const worker = await bundleForNode(join(outDir, 'stratus-search-worker.cjs'), { entry: join(root, 'src/core/search/buildWorker.ts') });
  return { bundle: outfile, worker };
}

/** Runs in the child: cold build, reload, warm lexical and reranked queries, RSS. */
async function child(task) {
  const { createRequire } = await import('node:module');
  const core = createRequire(import.meta.url)(task.bundle);
  const { Worker } = await import('node:worker_threads');
  const settings = { ...core.DEFAULT_SEARCH_SETTINGS, excludeGlobs: [] };
  const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
  const client = task.sandbox ? core.createInferenceClient({ baseUrl: task.sandbox.inference, apiKey: () => Promise.resolve(task.sandbox.apiKey) }) : undefined;
  const make = () =>
    new core.SearchEngine({
      fs: new core.NodeFileSystem(task.dir),
      storage: new core.NodeIndexStorage(task.storage),
      logger: silent,
      settings: () => settings,
      ...(client ? { inference: () => core.searchInference(() => client) } : {}),
      ...(task.worker ? { buildWorker: () => new Worker(task.worker) } : {}),
    });
  const rssBefore = process.memoryUsage().rss;
  let t = performance.now();
  const cpu = process.cpuUsage();
  const engine = make();
  const stats = await engine.open();
  // Ready: open() resolved, the index answers queries (what the user waits for).
  const coldMs = performance.now() - t;
  const coldCpu = process.cpuUsage(cpu);
  const coldCpuMs = (coldCpu.user + coldCpu.system) / 1000;
  // Persisted: the index is written to storage too (right after, off the path to the first query).
  await engine.persisted();
  const persistedMs = performance.now() - t;
  const persistedCpu = process.cpuUsage(cpu);
  const persistedCpuMs = (persistedCpu.user + persistedCpu.system) / 1000;
  const rssAfterBuild = process.memoryUsage().rss;

  t = performance.now();
  const reloaded = make();
  const reload = await reloaded.open();
  const reloadMs = performance.now() - t;

  const lexical = [];
  const reranked = [];
  let rerankedAll = true;
  for (const q of task.questions) {
    engine.lexical(q, 50); // warm-up
    const samples = [];
    for (let r = 0; r < task.repeats; r++) {
      const s = performance.now();
      const hits = engine.lexical(q, 50);
      samples.push(performance.now() - s);
      if (hits.length === 0) throw new Error(`no lexical hit for "${q}"`);
    }
    lexical.push(median(samples));
    if (client) {
      await engine.search(q);
      const s = performance.now();
      const result = await engine.search(q);
      reranked.push(performance.now() - s);
      rerankedAll &&= result.reranked;
    }
  }
  await client?.close();
  const status = readFileSync('/proc/self/status', 'utf8');
  const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN) * 1024;
  return {
    coldMs, coldCpuMs, persistedMs, persistedCpuMs, reloadMs, reloadSource: reload.source, files: stats.files, chunks: stats.chunks,
    lexicalMs: lexical, rerankedMs: reranked, rerankedAll,
    rss: { before: rssBefore, afterBuild: rssAfterBuild, peak: hwm },
  };
}



function dirSize(dir) {
  let total = 0;
  for (const name of readdirSync(dir)) total += statSync(join(dir, name)).size;
  return total;
}

// ---- orchestration --------------------------------------------------------------------------

export async function runSearchBench() {
  const started = performance.now();
  log('Search benchmark: Stratus index vs a full ripgrep scan (bench/search.mjs)');
  try {
    execFileSync(RG, ['--version'], { stdio: 'ignore' });
  } catch {
    log(`  ripgrep not found (${RG}): install Debian's \`ripgrep\` (scripts/setup.sh does). Not measured.`);
    process.exitCode = 1;
    return undefined;
  }
  const tmp = mkdtempSync(join(tmpdir(), 'stratus-search-bench-'));
  let sandbox;
  try {
    const dir = join(tmp, 'workspace');
    const storage = join(tmp, 'storage');
    mkdirSync(dir, { recursive: true });
    const gen = generateWorkspace(dir);
    log(`  workspace: ${FILES.toLocaleString('en')} files, ${(gen.bytes / 1024 / 1024).toFixed(1)} MB, ${gen.questions.length} questions; cold build ${WORKER ? 'with a build worker thread' : 'on one thread'}`);
    const { bundle, worker } = await bundleCore(tmp);
    const { startSandboxProcess } = await import(pathToFileURL(join(root, 'test', 'harness', 'sandbox.mjs')).href);
    sandbox = await startSandboxProcess({});

    // ripgrep, warm page cache: one untimed pass, then each question timed.
    rgScan(dir, gen.questions[0]);
    const scans = gen.questions.map((q) => rgScan(dir, q));
    const scanMs = median(scans.map((s) => s.ms));

    const task = { bundle, worker: WORKER ? worker : undefined, dir, storage, questions: gen.questions, repeats: REPEATS, sandbox: { inference: sandbox.info.inference, apiKey: sandbox.info.apiKey } };
    const res = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', JSON.stringify(task)], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, timeout: 300_000 });
    const line = res.stdout.split('\n').find((l) => l.startsWith('RESULT '));
    if (!line) throw new Error(`the Stratus child failed (${res.status ?? res.signal}): ${res.stderr.slice(0, 2000)}`);
    const r = JSON.parse(line.slice('RESULT '.length));
    const indexBytes = dirSize(storage);
    const lexicalMs = median(r.lexicalMs);
    const lexicalMax = Math.max(...r.lexicalMs);
    const rerankedMs = median(r.rerankedMs);
    const warmQueryRatio = scanMs / lexicalMs;
    const coldIndexRatio = r.coldMs / scanMs;

    log('');
    log(`  ${'measure'.padEnd(44)}${'value'.padStart(14)}`);
    const row = (k, v) => log(`  ${k.padEnd(44)}${String(v).padStart(14)}`);
    row('ripgrep full scan, median per question (ms)', f1(scanMs));
    row('Stratus cold build, ready to query (ms)', f1(r.coldMs));
    row('  of which CPU time (ms)', f1(r.coldCpuMs));
    row('Stratus cold build, persisted too (ms)', f1(r.persistedMs));
    row('  of which CPU time (ms)', f1(r.persistedCpuMs));
    row('Stratus reload from storage + check (ms)', f1(r.reloadMs));
    row('Stratus warm lexical query, median (ms)', f2(lexicalMs));
    row('Stratus warm lexical query, slowest (ms)', f2(lexicalMax));
    row('Stratus warm reranked query, median (ms)', f1(rerankedMs));
    row('index on disk (MB)', f2(indexBytes / 1024 / 1024));
    row('RSS after build (MB)', f1(r.rss.afterBuild / 1024 / 1024));
    row('peak RSS (MB)', f1(r.rss.peak / 1024 / 1024));
    row('files / chunks indexed', `${r.files} / ${r.chunks}`);
    log('');
    log(`ratio scan/stratus.warmQuery ${warmQueryRatio.toFixed(2)} (target >= ${TARGETS.warmQueryRatio}) ${warmQueryRatio >= TARGETS.warmQueryRatio ? 'met' : 'MISSED'}`);
    log(`ratio stratus/scan.coldIndex ${coldIndexRatio.toFixed(2)} (target <= ${TARGETS.coldIndexRatio}) ${coldIndexRatio <= TARGETS.coldIndexRatio ? 'met' : 'MISSED'}`);
    log(`metric search.warmLexicalMs ${lexicalMs.toFixed(3)} (target < ${TARGETS.warmLexicalMs}) ${lexicalMs < TARGETS.warmLexicalMs ? 'met' : 'MISSED'}`);
    log(`metric search.warmRerankedMs ${rerankedMs.toFixed(2)}`);
    log(`metric search.scanMs ${scanMs.toFixed(2)}`);
    log(`metric search.coldIndexMs ${r.coldMs.toFixed(1)}`);
    log(`metric search.coldIndexCpuMs ${r.coldCpuMs.toFixed(1)}`);
    log(`metric search.coldPersistedMs ${r.persistedMs.toFixed(1)}`);
    log(`metric search.coldPersistedCpuMs ${r.persistedCpuMs.toFixed(1)}`);
    log(`ratio stratus/scan.coldPersisted ${(r.persistedMs / scanMs).toFixed(2)} (the cold build until the index is on disk too; informative)`);
    log(`metric search.reloadMs ${r.reloadMs.toFixed(1)}`);
    log(`metric search.indexBytes ${indexBytes}`);
    log(`metric search.peakRssBytes ${r.rss.peak}`);
    if (!r.rerankedAll) log('  note: some reranked queries fell back to the local order');
    const out = {
      config: { files: FILES, fileKb: FILE_KB, worker: WORKER, bytes: gen.bytes, questions: gen.questions, repeats: REPEATS, rg: RG },
      scanMs, scans, stratus: r, indexBytes,
      ratios: { 'scan/stratus.warmQuery': warmQueryRatio, 'stratus/scan.coldIndex': coldIndexRatio },
      targets: TARGETS, seconds: (performance.now() - started) / 1000,
    };
    mkdirSync(join(root, 'test-results'), { recursive: true });
    writeFileSync(join(root, 'test-results', 'bench-search.json'), `${JSON.stringify(out, null, 2)}\n`);
    log(`\nfull results: test-results/bench-search.json (${out.seconds.toFixed(0)} s)`);
    return out;
  } finally {
    await sandbox?.stop?.().catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') {
  child(JSON.parse(process.argv[3] ?? '')).then(
    (r) => process.stdout.write(`RESULT ${JSON.stringify(r)}\n`),
    (error) => {
      process.stderr.write(`${error?.stack ?? error}\n`);
      process.exitCode = 1;
    },
  );
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runSearchBench().catch((error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exitCode = 1;
  });
}
