// The next edit suggestion benchmark (issue 33): replays edit pairs through the pure core
// (src/core/nextEdit: recorder, window, prompt, answer, diff, rules, engine) against the sandbox,
// in real time. Runs alone (`npm run bench:nextEdit`); not part of `npm run bench`.
//
// Method. Edit pairs come from two corpora: this repository's git history (the last commits
// touching src/**/*.ts) and a generated one (a throwaway git repository whose commits each make
// one of three follow-up edits real code needs: a renamed parameter and its next use, a new field
// and the constructor line that sets it, a call given one more argument at two call sites). In
// each, a file diff with two small hunks close to each other gives a pair: the first hunk is the
// user's edit, the second the edit they needed next. The user types the first hunk (its old lines
// deleted, then its new text in word-sized changes, 60-120 ms apart; in one pair of two a pause
// mid-way lets a request leave, and typing on must drop its answer), calling the engine after each
// change as the editor adapter does, then pauses. The sandbox model is an oracle: when the window
// it is shown is the text after the first hunk and holds the second hunk's place, it answers the
// window with the second hunk applied (BENCH_NEXTEDIT_MODEL_HITS of the time, a deterministic
// coin), else the window unchanged.
//
// Figures:
//   metric nextEdit.requestsPer100Edits  requests that reached the network per 100 change events
//   metric nextEdit.overheadP50Ms        engine time per call excluding the network (the call's
//                                        synchronous part, and the parse/diff/rules after the stream)
//   metric nextEdit.locationHitRate      of the pairs where the model answered the next edit, those
//                                        whose suggestion jumps to the line of the second hunk
//   ratio nextEdit/bare.firstShow        idle pause to suggestion returned, against the same idle
//                                        pause plus the same request sent bare (the client alone)
//   metric nextEdit.staleShown           suggestions returned for a document version that is no
//                                        longer the current one (must be 0)
// It reports; it is not a test: it exits non-zero only when something could not be measured.
//
// Environment knobs (all optional):
//   BENCH_NEXTEDIT_PAIRS=12          edit pairs replayed per corpus
//   BENCH_NEXTEDIT_COMMITS=80        commits searched for pairs in this repository
//   BENCH_NEXTEDIT_LATENCY_MS=250    sandbox delay before the first byte
//   BENCH_NEXTEDIT_TOKEN_MS=4        sandbox delay between streamed tokens
//   BENCH_NEXTEDIT_MODEL_HITS=0.6    how often the oracle knows the next edit
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleForNode, f2, log, median, prng, root } from './lib.mjs';

const env = process.env;
const int = (v, d, min = 1) => (v !== undefined && v !== '' ? Math.max(min, Math.floor(Number(v))) : d);
const PAIRS = int(env.BENCH_NEXTEDIT_PAIRS, 12);
const COMMITS = int(env.BENCH_NEXTEDIT_COMMITS, 80);
const LATENCY_MS = int(env.BENCH_NEXTEDIT_LATENCY_MS, 250, 0);
const TOKEN_MS = int(env.BENCH_NEXTEDIT_TOKEN_MS, 4, 0);
const MODEL_HITS = env.BENCH_NEXTEDIT_MODEL_HITS ? Math.min(1, Math.max(0, Number(env.BENCH_NEXTEDIT_MODEL_HITS))) : 0.6;
const MODEL = 'qwen3-coder:30b';
const PAUSE_MS = 1_500;
const MAX_HUNK_LINES = 4;
const MAX_GAP_LINES = 12;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const gitIn = (cwd) => (...args) => execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const IDLE_MS = 400;

// The hunks of a `-U0` file diff (old start and count, added lines).
function hunksOf(diff) {
  const hunks = [];
  for (const part of diff.split(/^(?=@@ )/m).slice(1)) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@.*\n/.exec(part);
    if (!m) continue;
    const body = part.slice(m[0].length).split('\n');
    hunks.push({
      oldStart: Number(m[1]),
      oldCount: m[2] === undefined ? 1 : Number(m[2]),
      added: body.filter((l) => l.startsWith('+')).map((l) => l.slice(1)),
    });
  }
  return hunks;
}

/** Applies a -U0 hunk (old-file line numbers, shifted by `shift`) to `lines`. */
function applyHunk(lines, hunk, shift) {
  const at = (hunk.oldCount === 0 ? hunk.oldStart : hunk.oldStart - 1) + shift;
  const copy = [...lines];
  copy.splice(at, hunk.oldCount, ...hunk.added);
  return copy;
}

/** Edit pairs from the git history of `cwd`: { corpus, path, base, first, both, firstHunk, secondLine }. */
function editPairs(cwd, corpus) {
  const git = gitIn(cwd);
  const pairs = [];
  const commits = git('log', '--no-merges', '--format=%H', `-n${COMMITS}`, '--', 'src').trim().split('\n').filter(Boolean);
  for (const commit of commits) {
    if (pairs.length >= PAIRS) break;
    let files;
    try {
      files = git('diff', '--name-only', `${commit}^`, commit, '--', 'src/*.ts', 'src/**/*.ts').trim().split('\n').filter(Boolean);
    } catch {
      continue; // the root commit
    }
    for (const path of files) {
      if (pairs.length >= PAIRS) break;
      const hunks = hunksOf(git('diff', '-U0', `${commit}^`, commit, '--', path));
      const k = hunks.findIndex((h, i) => {
        const next = hunks[i + 1];
        return next && h.oldCount <= MAX_HUNK_LINES && h.added.length <= MAX_HUNK_LINES && h.added.length > 0 && next.oldCount <= MAX_HUNK_LINES && next.added.length <= MAX_HUNK_LINES && next.oldStart - (h.oldStart + h.oldCount) <= MAX_GAP_LINES;
      });
      if (k < 0) continue;
      const [h1, h2] = [hunks[k], hunks[k + 1]];
      if (!h1 || !h2) continue;
      let base;
      try {
        base = git('show', `${commit}^:${path}`);
      } catch {
        continue;
      }
      const lines = base.split('\n');
      const firstLines = applyHunk(lines, h1, 0);
      const shift = h1.added.length - h1.oldCount;
      const both = applyHunk(firstLines, h2, shift).join('\n');
      const secondLine = (h2.oldCount === 0 ? h2.oldStart : h2.oldStart - 1) + shift;
      pairs.push({ corpus, path, base, first: firstLines.join('\n'), both, firstHunk: h1, secondLine });
    }
  }
  return pairs;
}

/** FNV-1a of a string, in [0, 1): the oracle's deterministic coin. */
function coin(text) {
  let h = 0x811c9dc5;
  for (let k = 0; k < text.length; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193) >>> 0;
  return h / 2 ** 32;
}

/** The oracle: the window with the next edit when it knows it, else the window unchanged (it notes which in `current.answer`). */
function installOracle(m, current) {
  m.setCompletionOracle((before, after) => {
    const open = before.lastIndexOf('<window>\n');
    const close = after.indexOf('\n</window>');
    if (open < 0 || close < 0) return undefined;
    const window = before.slice(open + '<window>\n'.length) + after.slice(0, close);
    const pair = current.pair;
    const at = pair ? pair.first.indexOf(window) : -1;
    const unchanged = `<window>\n${window}\n</window>`;
    current.answer = 'unchanged';
    if (!pair || at < 0 || coin(window) >= MODEL_HITS) return unchanged;
    const firstLine = pair.first.slice(0, at).split('\n').length - 1;
    const lastLine = firstLine + window.split('\n').length - 1;
    if (pair.secondLine < firstLine || pair.secondLine > lastLine) return unchanged;
    // Lines are kept apart from the window's end: the next edit shifts only what follows it.
    const tailLength = pair.first.length - (at + window.length);
    const rewritten = pair.both.slice(at, pair.both.length - tailLength);
    current.answer = 'next';
    return `<window>\n${rewritten}\n</window>`;
  });
}

/**
 * The three follow-up edits of the generated corpus: [before, after] of one file, two hunks apart.
 * @param {number} i
 * @returns {[string[], string[]]}
 */
function generatedFile(i) {
  const names = ['value', 'count', 'width', 'price', 'limit', 'offset', 'delay', 'score'];
  const renamed = ['amount', 'total', 'span', 'cost', 'maximum', 'shift', 'wait', 'points'];
  const a = names[i % names.length] ?? 'value';
  const b = renamed[i % renamed.length] ?? 'amount';
  switch (i % 3) {
    case 0: {
      const lines = (p, q) => [`// Generated ${i}.`, `export function compute${i}(${p}: number, factor: number): number {`, '  const base = factor * 2;', `  const scaled = ${q} * factor;`, `  if (${a} > base) return scaled;`, `  return ${a} + base;`, '}', ''];
      return [lines(a, a), lines(b, b)];
    }
    case 1: {
      const lines = (field, set) => [`// Generated ${i}.`, `export class Account${i} {`, '  readonly id: string;', '  readonly name: string;', ...field, '', '  constructor(id: string, name: string, email: string) {', '    this.id = id;', '    this.name = name;', ...set, '  }', '}', ''];
      return [lines([], []), lines(['  readonly email: string;'], ['    this.email = email;'])];
    }
    default: {
      const lines = (extra) => [`// Generated ${i}.`, `export function report${i}(items: string[], level: number): void {`, `  log('start', items.length${extra});`, '  for (const item of items) {', '    check(item);', '  }', `  log('end', items.length${extra});`, '}', ''];
      return [lines(''), lines(', level')];
    }
  }
}

/** A throwaway git repository of `count` files, each added in one commit and changed by a pair of hunks in the next. */
function generatedCorpus(dir, count) {
  const git = gitIn(dir);
  mkdirSync(join(dir, 'src'), { recursive: true });
  git('init', '-q');
  for (const [k, v] of [['user.email', 'bench@example.invalid'], ['user.name', 'bench'], ['commit.gpgsign', 'false']]) git('config', k, v);
  writeFileSync(join(dir, 'README'), 'Generated by bench/nextEdit.mjs\n');
  git('add', '-A');
  git('commit', '-qm', 'root');
  for (let i = 0; i < count; i++) {
    const [before, after] = generatedFile(i);
    const path = join(dir, 'src', `gen${i}.ts`);
    writeFileSync(path, before.join('\n'));
    git('add', '-A');
    git('commit', '-qm', `add gen${i}`);
    writeFileSync(path, after.join('\n'));
    git('commit', '-qam', `follow-up edit in gen${i}`);
  }
}

export async function runNextEditBench() {
  const tmp = mkdtempSync(join(tmpdir(), 'stratus-bench-nextedit-'));
  try {
    const corpusDir = join(tmp, 'corpus');
    generatedCorpus(corpusDir, PAIRS);
    const pairs = [...editPairs(root, 'git'), ...editPairs(corpusDir, 'generated')];
    if (!pairs.some((p) => p.corpus === 'git')) throw new Error('no edit pair found in the git history');
    if (!pairs.some((p) => p.corpus === 'generated')) throw new Error('no edit pair found in the generated corpus');
    const m = await import(pathToFileURL(await bundleForNode(join(tmp, 'stratus-nextedit.cjs'), {
      contents: [
        "export { createInferenceClient } from './src/core/inference';",
        "export { NextEditEngine, EditHistory, DEFAULT_IDLE_MS } from './src/core/nextEdit';",
        "export { startSandbox } from './test/sandbox/index';",
        "export { setCompletionOracle } from './test/sandbox/inference/completionScript';",
      ].join('\n'),
    })).href).then((x) => x.default ?? x);
    if (m.DEFAULT_IDLE_MS !== IDLE_MS) throw new Error(`the engine's idle pause is ${m.DEFAULT_IDLE_MS} ms, the bench assumes ${IDLE_MS}`);
    /** @type {{ pair: ReturnType<typeof editPairs>[number] | undefined, answer: string | undefined, request: unknown }} */
    const current = { pair: undefined, answer: undefined, request: undefined };
    installOracle(m, current);
    const sandbox = await m.startSandbox({ port: 0 });
    sandbox.control.setLatency({ ms: LATENCY_MS, chunkDelayMs: TOKEN_MS, pathPrefix: '/v1/' });
    const client = m.createInferenceClient({ baseUrl: sandbox.inferenceUrl, apiKey: () => Promise.resolve(sandbox.credentials.apiKey), retry: { attempts: 1 } });
    const rand = prng(33);
    const overhead = [];
    const firstShow = [];
    const bareShow = [];
    let events = 0;
    let requests = 0;
    let modelRight = 0;
    let hits = 0;
    let staleShown = 0;
    let droppedMidFlight = 0;
    let streamEnd = NaN;
    try {
      log(`Next edit benchmark: ${pairs.filter((p) => p.corpus === 'git').length} edit pairs from the git history, ${pairs.filter((p) => p.corpus === 'generated').length} from the generated corpus; sandbox latency ${LATENCY_MS} ms + ${TOKEN_MS} ms per token, model right ${(MODEL_HITS * 100).toFixed(0)} % of the time`);
      for (const [index, pair] of pairs.entries()) {
        const id = `file:///bench/${pair.corpus}/${index}/${pair.path}`;
        let text = pair.base;
        let version = 1;
        const history = new m.EditHistory(() => performance.now());
        history.open(id, pair.path, text);
        const engine = new m.NextEditEngine({
          model: () => ({ id: MODEL, maxModelLen: undefined }),
          history,
          documentNow: (doc) => (doc === id ? { version, text } : undefined),
          complete: (request, signal) => {
            current.request = request;
            const stream = client.completeStream(request, { signal, purpose: 'nextEdit' });
            return { consume: (onEvent) => stream.consume(onEvent).finally(() => (streamEnd = performance.now())) };
          },
        });
        current.pair = pair;
        current.answer = undefined;
        const lines = text.split('\n');
        const h = pair.firstHunk;
        const startLine = h.oldCount === 0 ? h.oldStart : h.oldStart - 1;
        const offset = lines.slice(0, startLine).reduce((s, l) => s + l.length + 1, 0);
        const removed = h.oldCount === 0 ? 0 : Math.min(text.length - offset, lines.slice(startLine, startLine + h.oldCount).reduce((s, l) => s + l.length + 1, 0));
        const inserted = h.added.map((l) => `${l}\n`).join('');
        const chunks = inserted.match(/\s+|\w+|[^\s\w]/g) ?? [];
        const changes = [{ offset, length: removed, text: '' }, ...chunks.map((c, k) => ({ offset: offset + chunks.slice(0, k).join('').length, length: 0, text: c }))];
        // One pair of two: a pause mid-way lets a request leave; typing on must drop its answer.
        const pauseAt = index % 2 === 1 && changes.length > 2 ? Math.floor(changes.length / 2) : -1;
        const results = [];
        let lastChangeAt = NaN;
        for (const [k, change] of changes.entries()) {
          text = text.slice(0, change.offset) + change.text + text.slice(change.offset + change.length);
          version += 1;
          events += 1;
          history.change(id, [change]);
          const doc = { id, version, languageId: 'typescript', relativePath: pair.path, text, cursor: change.offset + change.text.length };
          const t0 = performance.now();
          lastChangeAt = t0;
          streamEnd = NaN;
          const pending = engine.suggest(doc);
          const sync = performance.now() - t0;
          results.push(pending.then((r) => {
            const at = performance.now();
            overhead.push(sync + (Number.isFinite(streamEnd) ? at - streamEnd : 0));
            if (r.kind === 'suggestion' && r.suggestion.version !== version) staleShown += 1;
            if (k === pauseAt && r.kind === 'none' && r.reason === 'superseded') droppedMidFlight += 1;
            return { r, at };
          }));
          await sleep(k === pauseAt ? IDLE_MS + LATENCY_MS / 2 : 60 + rand() * 60);
        }
        await sleep(PAUSE_MS);
        const last = (await Promise.all(results)).at(-1);
        const final = last?.r;
        const right = current.answer === 'next';
        if (right) modelRight += 1;
        const hit = final?.kind === 'suggestion' && final.suggestion.jumpTo.line >= pair.secondLine - 1 && final.suggestion.jumpTo.line <= pair.secondLine + MAX_HUNK_LINES;
        if (right && hit) hits += 1;
        if (final?.kind === 'suggestion' && final.source === 'network' && last && current.request) {
          firstShow.push(last.at - lastChangeAt);
          // The same request, bare: the client alone, after the same idle pause.
          const t0 = performance.now();
          await client.completeStream(current.request, { purpose: 'nextEdit' }).consume(() => undefined);
          bareShow.push(IDLE_MS + performance.now() - t0);
        }
        log(`  [${pair.corpus}] ${pair.path}: ${final?.kind === 'suggestion' ? `suggestion at line ${final.suggestion.jumpTo.line + 1} (next edit at ${pair.secondLine + 1})` : `none (${final?.reason})`}, model ${right ? 'right' : 'unchanged'}, ${engine.stats.requests} requests`);
        engine.cancel();
        requests += engine.stats.requests;
      }
    } finally {
      m.setCompletionOracle(undefined);
      await client.close();
      await sandbox.close();
    }
    log('');
    log(`  ${events} change events, ${requests} requests; the model answered the next edit for ${modelRight} of ${pairs.length} pairs; ${droppedMidFlight} answers in flight dropped when typing resumed`);
    log(`metric nextEdit.requestsPer100Edits ${f2((requests / events) * 100)}`);
    log(`metric nextEdit.overheadP50Ms ${f2(median(overhead))}`);
    log(`metric nextEdit.locationHitRate ${modelRight > 0 ? (hits / modelRight).toFixed(3) : 'n/a'}`);
    log(`ratio nextEdit/bare.firstShow ${f2(median(firstShow) / median(bareShow))}`);
    log(`metric nextEdit.staleShown ${staleShown}`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runNextEditBench().catch((error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exitCode = 1;
  });
}
