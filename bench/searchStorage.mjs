// Storage options for the search index, side by side on the same generated corpus and the same
// chunks and terms (Stratus's chunker and tokenizer): (a) today's format (LexicalIndex, format v6:
// one segment of binary tables, the postings read from the file per query term) and (b) SQLite FTS5 through Node's built-in `node:sqlite`, fed the
// same terms (so recall is comparable), ranked by its bm25(). For each: build time, size on disk,
// reopen until the first answer, warm query median and p95, RSS growth, and the agreement of the
// top 10 with today's ranking. Run it with a Node that has `node:sqlite` (22.5+; the bench's
// default is the Node of the newest code-server tier, test/compat/vscode-1.139):
//   node --expose-gc bench/searchStorage.mjs (re-runs itself under that Node when this one lacks sqlite)
//   BENCH_SEARCH_FILES=5000 BENCH_SQLITE_NODE=/path/to/node
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForNode, root } from './lib.mjs';
import { generateWorkspace } from './search.mjs';

const env = process.env;
const FILES = Math.max(10, Number(env.BENCH_SEARCH_FILES ?? 5000));
const REPEATS = 5;
const log = (s = '') => process.stdout.write(`${s}\n`);
const gc = /** @type {() => void} */ (globalThis.gc ?? (() => undefined));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)] ?? NaN;
const mb = (b) => (b / 1024 / 1024).toFixed(1);

function hasSqlite() {
  try {
    createRequire(import.meta.url)('node:sqlite');
    return true;
  } catch {
    return false;
  }
}

async function main() {
  if (!hasSqlite()) {
    const node = env.BENCH_SQLITE_NODE ?? join(root, 'test', 'compat', 'vscode-1.139', 'node_modules', 'node', 'bin', 'node');
    if (!existsSync(node)) throw new Error(`this Node (${process.version}) has no node:sqlite and ${node} is missing: set BENCH_SQLITE_NODE`);
    log(`(this Node ${process.version} has no node:sqlite: running under ${node})`);
    const res = spawnSync(node, ['--no-warnings', '--expose-gc', fileURLToPath(import.meta.url)], { stdio: 'inherit', env });
    process.exitCode = res.status ?? 1;
    return;
  }
  const tmp = mkdtempSync(join(tmpdir(), 'stratus-search-storage-'));
  try {
    const dir = join(tmp, 'workspace');
    mkdirSync(dir, { recursive: true });
    const gen = generateWorkspace(dir, { files: FILES });
    const bundle = await bundleForNode(join(tmp, 'core.cjs'), { contents: "export * from './src/core/search/index.ts'; export { forEachTerm } from './src/core/search/text/identifiers.ts';" });
    const core = createRequire(import.meta.url)(bundle);
    const { DatabaseSync } = createRequire(import.meta.url)('node:sqlite');
    log(`Search index storage, side by side: ${FILES.toLocaleString('en')} files, ${mb(gen.bytes)} MB, ${gen.questions.length} questions (Node ${process.version})`);

    // The same chunks and terms for both.
    const files = [];
    const walk = (rel) => {
      for (const d of readdirSync(join(dir, rel), { withFileTypes: true })) {
        const p = rel ? `${rel}/${d.name}` : d.name;
        if (d.isDirectory()) walk(p);
        else files.push(p);
      }
    };
    walk('');
    files.sort();

    // (a) today's format, built in a function so that nothing of the build is alive at the reopen.
    const buildToday = () => {
      const r0 = process.memoryUsage().rss;
      const t0 = performance.now();
      const lexical = new core.LexicalIndex();
      for (const path of files) {
        const text = readFileSync(join(dir, path), 'utf8');
        lexical.setFile(path, { mtime: 1, size: text.length }, core.chunkText(path, text));
      }
      const out = lexical.serialize('k');
      return { bytes: out, ms: performance.now() - t0, rss: process.memoryUsage().rss - r0 };
    };
    const built = buildToday();
    const { bytes } = built;
    const aBuildMs = built.ms;
    const aRss = built.rss;
    const aFile = join(tmp, 'index.bin');
    writeFileSync(aFile, bytes);
    gc();
    let rss0;
    let t;
    t = performance.now();
    const reloaded = core.LexicalIndex.deserialize(readFileSync(aFile), 'k');
    reloaded.search(gen.questions[0], 10);
    const aReopenMs = performance.now() - t;
    const aSamples = [];
    const truth = new Map();
    for (const q of gen.questions) {
      truth.set(q, reloaded.search(q, 10).map((h) => `${h.path}:${h.startLine}`));
      for (let r = 0; r < REPEATS; r++) {
        const s = performance.now();
        reloaded.search(q, 50);
        aSamples.push(performance.now() - s);
      }
    }

    // (b) SQLite FTS5, the same terms per chunk (path terms twice, as the index weighs them).
    const dbFile = join(tmp, 'index.sqlite');
    gc();
    rss0 = process.memoryUsage().rss;
    t = performance.now();
    const db = new DatabaseSync(dbFile);
    db.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; CREATE TABLE chunks(id INTEGER PRIMARY KEY, path TEXT, start INTEGER, end INTEGER); CREATE VIRTUAL TABLE terms USING fts5(body, content='', tokenize='unicode61 remove_diacritics 0');");
    const insChunk = db.prepare('INSERT INTO chunks(id, path, start, end) VALUES (?, ?, ?, ?)');
    const insTerms = db.prepare('INSERT INTO terms(rowid, body) VALUES (?, ?)');
    let id = 0;
    db.exec('BEGIN');
    for (const path of files) {
      const text = readFileSync(join(dir, path), 'utf8');
      const pathTerms = [];
      core.forEachTerm(path, (term) => pathTerms.push(term));
      const pathBody = `${pathTerms.join(' ')} ${pathTerms.join(' ')}`;
      for (const c of core.chunkText(path, text)) {
        id++;
        const terms = [];
        core.forEachTerm(c.text, (term) => terms.push(term));
        insChunk.run(id, path, c.startLine, c.endLine);
        insTerms.run(id, `${pathBody} ${terms.join(' ')}`);
      }
    }
    db.exec('COMMIT');
    db.exec("INSERT INTO terms(terms) VALUES('optimize')");
    db.close();
    const bBuildMs = performance.now() - t;
    const bRss = process.memoryUsage().rss - rss0;
    const ftsQuery = (handle, q) => {
      const terms = new Set();
      core.forEachTerm(q, (term) => terms.add(`"${term.replace(/"/g, '""')}"`));
      if (terms.size === 0) return [];
      return handle.all([...terms].join(' OR '));
    };
    t = performance.now();
    const db2 = new DatabaseSync(dbFile);
    const select = db2.prepare('SELECT c.path AS path, c.start AS start FROM terms JOIN chunks c ON c.id = terms.rowid WHERE terms MATCH ? ORDER BY bm25(terms) LIMIT 50');
    ftsQuery(select, gen.questions[0]);
    const bReopenMs = performance.now() - t;
    const bSamples = [];
    let agree = 0;
    for (const q of gen.questions) {
      const top = ftsQuery(select, q).slice(0, 10).map((r) => `${r.path}:${r.start}`);
      const want = truth.get(q) ?? [];
      agree += top.filter((k) => want.includes(k)).length / Math.max(1, want.length);
      for (let r = 0; r < REPEATS; r++) {
        const s = performance.now();
        ftsQuery(select, q);
        bSamples.push(performance.now() - s);
      }
    }
    db2.close();
    const walSize = existsSync(`${dbFile}-wal`) ? statSync(`${dbFile}-wal`).size : 0;

    const row = (k, a, b) => log(`  ${k.padEnd(40)}${String(a).padStart(16)}${String(b).padStart(16)}`);
    log('');
    row('', '(a) today', '(b) FTS5');
    row('build, chunks and terms given (ms)', aBuildMs.toFixed(0), bBuildMs.toFixed(0));
    row('on disk (MB)', mb(bytes.length), mb(statSync(dbFile).size + walSize));
    row('RSS growth while building (MB)', mb(aRss), mb(bRss));
    row('reopen until the first answer (ms)', aReopenMs.toFixed(0), bReopenMs.toFixed(0));
    row('warm query median (ms)', median(aSamples).toFixed(2), median(bSamples).toFixed(2));
    row('warm query p95 (ms)', p95(aSamples).toFixed(2), p95(bSamples).toFixed(2));
    row('top 10 shared with today\'s ranking', '100%', `${((agree / gen.questions.length) * 100).toFixed(0)}%`);
    const label = `searchStorage${FILES % 1000 === 0 ? `${FILES / 1000}k` : FILES}`;
    log('');
    log(`metric ${label}.todayBuildMs ${aBuildMs.toFixed(0)}`);
    log(`metric ${label}.fts5BuildMs ${bBuildMs.toFixed(0)}`);
    log(`metric ${label}.todayDiskMB ${mb(bytes.length)}`);
    log(`metric ${label}.fts5DiskMB ${mb(statSync(dbFile).size + walSize)}`);
    log(`metric ${label}.todayReopenMs ${aReopenMs.toFixed(0)}`);
    log(`metric ${label}.fts5ReopenMs ${bReopenMs.toFixed(0)}`);
    log(`metric ${label}.todayWarmP95Ms ${p95(aSamples).toFixed(2)}`);
    log(`metric ${label}.fts5WarmP95Ms ${p95(bSamples).toFixed(2)}`);
    log(`ratio fts5/today.warmQueryMedian ${(median(bSamples) / median(aSamples)).toFixed(2)}`);
    log(`metric ${label}.fts5Top10Agreement ${((agree / gen.questions.length) * 100).toFixed(0)}`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exitCode = 1;
});
