// The edit-by-instruction benchmark: Stratus' live diff (src/core/edit: post-processing, the
// streaming line diff, the row edits and decorations the editor applies) against the bare request,
// side by side in one run, each against its own sandbox with the same realistic latency and token
// rate. Runs alone (`npm run bench:edit`) or at the end of `npm run bench` (bench/run.mjs imports
// runEditBench()).
//
// Method. The range is 200 lines of a real source file (from node_modules); the instruction makes
// the sandbox's scripted model (test/sandbox/inference/editScript.ts) add a comment line on top
// and rename a common keyword on every line that has it, streamed one token per delta. For each
// round, alternately: the bare request (the same prompt sent with the core client, read until its
// first text token) and the edit (the same request through streamEdit into an EditSession, timed
// until its first row edit, i.e. the first diff hunk the editor would show). The extension-side cost
// of each streamed line is the time spent in EditSession.push (post-processing, diff, row edits)
// plus decorations() and hunks() (what the editor asks after each batch), summed over the deltas of
// that line. Peak memory: a child process streams a 2,000-line edit through the sandbox (no delay)
// into an EditSession, and another the same answer into a plain string, sampling RSS.
//
// Figures:
//   ratio edit/bare.firstHunk   median time to the first diff hunk shown / median time to the bare
//                               request's first token (goal <= 1.1)
//   metric edit.perLineP50Ms / edit.perLineP95Ms   extension-side cost per streamed line (goal < 1)
//   metric edit.peakRssMB       peak RSS of the 2,000-line edit (bare.peakRssMB: the same answer
//                               read into a string, the baseline)
// It reports; it is not a test: it exits non-zero only when something could not be measured.
//
// Environment knobs (all optional):
//   BENCH_EDIT_ROUNDS=3          rounds (bare + edit each)
//   BENCH_EDIT_LATENCY_MS=300    sandbox delay before the first byte (time to first token)
//   BENCH_EDIT_TOKEN_MS=15       sandbox delay between streamed tokens (~65 tokens/s)
//   BENCH_EDIT_LINES=200         lines of the timed range
//   BENCH_EDIT_BIG_LINES=2000    lines of the memory run
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleForNode, f2, log, median, verdict } from './lib.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const root = resolve(benchDir, '..');
const env = process.env;
const int = (v, d, min = 1) => (v !== undefined && v !== '' ? Math.max(min, Math.floor(Number(v))) : d);

const ROUNDS = int(env.BENCH_EDIT_ROUNDS, 3);
const LATENCY_MS = int(env.BENCH_EDIT_LATENCY_MS, 300, 0);
const TOKEN_MS = int(env.BENCH_EDIT_TOKEN_MS, 15, 0);
const LINES = int(env.BENCH_EDIT_LINES, 200, 10);
const BIG_LINES = int(env.BENCH_EDIT_BIG_LINES, 2000, 10);
const MODEL = 'gpt-oss:120b';
const INSTRUCTION = 'add documentation and rename const to let';
const TARGETS = { firstHunk: 1.1, perLineP50Ms: 1 };
const SOURCES = ['node_modules/undici/lib/web/fetch/index.js', 'node_modules/undici/lib/core/util.js', 'node_modules/eventsource-parser/dist/index.js'];

const percentile = (xs, p) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};

/** `count` lines of real code (the source files repeated as needed), from a third of the way in. */
function codeLines(count) {
  const all = [];
  for (const p of SOURCES) {
    try {
      all.push(...readFileSync(join(root, p), 'utf8').split('\n'));
    } catch {
      // Missing in this install: the others are used.
    }
  }
  if (all.length === 0) throw new Error(`none of the source files was found: ${SOURCES.join(', ')}`);
  const start = Math.floor(all.length / 3);
  const out = [];
  for (let i = 0; out.length < count; i++) out.push((all[(start + i) % all.length] ?? '').replace(/\r$/, ''));
  return out;
}

function bundle(tmp) {
  return bundleForNode(join(tmp, 'stratus-edit.cjs'), {
    contents: [
      "export { createInferenceClient } from './src/core/inference';",
      "export { buildEditPrompt, EditSession, streamEdit } from './src/core/edit';",
      "export { startSandbox } from './test/sandbox/index';",
    ].join('\n'),
  });
}

function promptFor(m, range) {
  return m.buildEditPrompt({ instruction: INSTRUCTION, languageId: 'javascript', relativePath: 'lib/code.js', before: [], range, after: [], startLine: 0, diagnostics: [], instructions: '', maxModelLen: 131_072 });
}

async function sandboxAndClient(m, latency) {
  const sandbox = await m.startSandbox({ port: 0 });
  if (latency) sandbox.control.setLatency({ ms: LATENCY_MS, chunkDelayMs: TOKEN_MS, pathPrefix: '/v1/' });
  const client = m.createInferenceClient({ baseUrl: sandbox.inferenceUrl, apiKey: () => Promise.resolve(sandbox.credentials.apiKey), retry: { attempts: 1 } });
  return { sandbox, client };
}

/** The bare request: time to its first text token. */
async function bareFirstToken(m, client, prompt) {
  const controller = new AbortController();
  const t0 = performance.now();
  let first = NaN;
  await client
    .chatStream({ model: MODEL, messages: prompt.messages, max_tokens: prompt.maxTokens, temperature: 0.1 }, { signal: controller.signal })
    .consume((e) => {
      if (e.type === 'text' && e.text !== '' && !Number.isFinite(first)) {
        first = performance.now() - t0;
        controller.abort();
      }
    })
    .catch(() => undefined);
  return first;
}

/** The edit, read to its end: time to the first hunk shown, and the cost of each streamed line. */
async function editRun(m, client, prompt, range) {
  const session = new m.EditSession(range);
  const timed = {
    chatStream: (request, options) => {
      const inner = client.chatStream(request, options);
      return {
        consume: (onEvent) => inner.consume((e) => {
          if (e.type === 'text' && e.text !== '' && !Number.isFinite(firstToken)) firstToken = performance.now() - t0;
          onEvent?.(e);
        }),
      };
    },
  };
  const perLine = [];
  let lineCost = 0;
  let linesSeen = 0;
  let firstToken = NaN;
  let firstHunk = NaN;
  const t0 = performance.now();
  const originalPush = session.push.bind(session);
  session.push = (delta) => {
    const s = performance.now();
    const edits = originalPush(delta);
    session.decorations();
    session.hunks();
    lineCost += performance.now() - s;
    const newlines = delta.split('\n').length - 1;
    if (newlines > 0) {
      perLine.push(lineCost / newlines);
      for (let k = 1; k < newlines; k++) perLine.push(lineCost / newlines);
      linesSeen += newlines;
      lineCost = 0;
    }
    return edits;
  };
  await m.streamEdit({
    client: timed,
    model: MODEL,
    prompt,
    session,
    signal: new AbortController().signal,
    onEdits: () => {
      if (!Number.isFinite(firstHunk)) firstHunk = performance.now() - t0;
    },
  });
  return { firstHunk, firstToken, perLine, linesSeen, hunks: session.hunks().length };
}

/** Child: streams a BIG_LINES edit (or, `bare`, the same answer into a string); prints the peak RSS. */
async function memoryChild(bundlePath, mode) {
  const m = await import(pathToFileURL(bundlePath).href).then((x) => x.default ?? x);
  const range = codeLines(BIG_LINES);
  const { sandbox, client } = await sandboxAndClient(m, false);
  let peak = process.memoryUsage().rss;
  const sample = () => {
    const rss = process.memoryUsage().rss;
    if (rss > peak) peak = rss;
  };
  try {
    const prompt = promptFor(m, range);
    if (mode === 'edit') {
      const session = new m.EditSession(range);
      let rows = 0;
      await m.streamEdit({ client, model: MODEL, prompt, session, signal: new AbortController().signal, onEdits: (edits) => { rows += edits.length; sample(); } });
      session.decorations();
      if (rows === 0 || !session.changed) throw new Error('the 2,000-line edit produced no diff');
    } else {
      let text = '';
      await client.chatStream({ model: MODEL, messages: prompt.messages, max_tokens: prompt.maxTokens, temperature: 0.1 }).consume((e) => {
        if (e.type === 'text') {
          text += e.text;
          if (text.endsWith('\n')) sample();
        }
      });
      if (text.length === 0) throw new Error('empty answer');
    }
    sample();
  } finally {
    await client.close();
    await sandbox.close();
  }
  process.stdout.write(`RSS ${peak}\n`);
}

function peakRss(bundlePath, mode) {
  const res = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--memory-child', bundlePath, mode], { encoding: 'utf8', timeout: 300_000 });
  const line = (res.stdout ?? '').split('\n').find((l) => l.startsWith('RSS '));
  if (res.status !== 0 || !line) throw new Error(`memory child (${mode}) failed: ${(res.stderr ?? '').trim().split('\n').slice(0, 3).join(' ')}`);
  return Number(line.slice(4)) / (1024 * 1024);
}

export async function runEditBench() {
  const tmp = mkdtempSync(join(tmpdir(), 'stratus-bench-edit-'));
  const failures = [];
  try {
    log(`Edit by instruction benchmark: ${LINES}-line rewrite, ${ROUNDS} rounds, sandbox latency ${LATENCY_MS} ms + ${TOKEN_MS} ms per token; memory: a ${BIG_LINES}-line edit`);
    const bundlePath = await bundle(tmp);
    const m = await import(pathToFileURL(bundlePath).href).then((x) => x.default ?? x);
    const range = codeLines(LINES);
    const prompt = promptFor(m, range);
    const bare = await sandboxAndClient(m, true);
    const edit = await sandboxAndClient(m, true);
    const bareTimes = [];
    const runs = [];
    try {
      // Warm both connections (the first fetch of a process is slower), then alternate.
      await bareFirstToken(m, bare.client, prompt);
      await bareFirstToken(m, edit.client, prompt);
      for (let r = 0; r < ROUNDS; r++) {
        bareTimes.push(await bareFirstToken(m, bare.client, prompt));
        runs.push(await editRun(m, edit.client, prompt, range));
      }
    } finally {
      await Promise.all([bare.client.close(), edit.client.close()]);
      await Promise.all([bare.sandbox.close(), edit.sandbox.close()]);
    }
    const hunkTimes = runs.map((r) => r.firstHunk);
    const tokenToHunk = runs.map((r) => r.firstHunk - r.firstToken);
    const perLine = runs.flatMap((r) => r.perLine);
    const firstHunk = median(hunkTimes) / median(bareTimes);
    const p50 = percentile(perLine, 50);
    const p95 = percentile(perLine, 95);
    if (runs.some((r) => !Number.isFinite(r.firstHunk))) failures.push('an edit showed no hunk');
    if (runs.some((r) => r.linesSeen < LINES)) failures.push(`an edit streamed fewer than ${LINES} lines`);
    let editRss = NaN;
    let bareRss = NaN;
    try {
      editRss = peakRss(bundlePath, 'edit');
      bareRss = peakRss(bundlePath, 'bare');
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    }

    log('');
    log(`first diff hunk: median ${f2(median(hunkTimes))} ms after the request (first token to first hunk: median ${f2(median(tokenToHunk))} ms); bare request's first token: median ${f2(median(bareTimes))} ms`);
    log(`per streamed line: p50 ${f2(p50)} ms, p95 ${f2(p95)} ms over ${perLine.length} lines; ${runs[0]?.hunks ?? 0} hunks per edit`);
    log(`peak RSS of a ${BIG_LINES}-line edit: ${f2(editRss)} MB (the same answer read into a string: ${f2(bareRss)} MB)`);
    log(`targets: first hunk <= ${TARGETS.firstHunk}x the bare first token, per-line p50 < ${TARGETS.perLineP50Ms} ms`);
    if (failures.length) {
      log('\nProblems:');
      for (const f of failures) log(`  - ${f}`);
    }
    log('');
    log(`ratio edit/bare.firstHunk ${Number.isFinite(firstHunk) ? firstHunk.toFixed(3) : 'n/a'} (target <= ${TARGETS.firstHunk}) ${verdict(Number.isFinite(firstHunk) ? firstHunk <= TARGETS.firstHunk : undefined)}`);
    log(`metric edit.perLineP50Ms ${Number.isFinite(p50) ? p50.toFixed(4) : 'n/a'} (target < ${TARGETS.perLineP50Ms}) ${verdict(Number.isFinite(p50) ? p50 < TARGETS.perLineP50Ms : undefined)}`);
    log(`metric edit.perLineP95Ms ${Number.isFinite(p95) ? p95.toFixed(4) : 'n/a'}`);
    log(`metric edit.peakRssMB ${f2(editRss)}`);
    log(`metric bare.peakRssMB ${f2(bareRss)}`);

    mkdirSync(join(root, 'test-results'), { recursive: true });
    writeFileSync(join(root, 'test-results', 'bench-edit.json'), `${JSON.stringify({
      date: new Date().toISOString(),
      node: process.version,
      config: { rounds: ROUNDS, latencyMs: LATENCY_MS, tokenMs: TOKEN_MS, lines: LINES, bigLines: BIG_LINES, instruction: INSTRUCTION },
      metrics: { firstHunkMedianMs: median(hunkTimes), bareFirstTokenMedianMs: median(bareTimes), tokenToHunkMedianMs: median(tokenToHunk), perLineP50Ms: p50, perLineP95Ms: p95, peakRssMB: editRss, barePeakRssMB: bareRss },
      ratios: { firstHunk },
      targets: TARGETS,
      failures,
    }, null, 2)}\n`);
    if (failures.length) process.exitCode = 1;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--memory-child') {
  memoryChild(process.argv[3] ?? '', process.argv[4] ?? 'edit').then(
    () => process.exit(0),
    (error) => {
      process.stderr.write(`${error?.stack ?? error}\n`);
      process.exit(1);
    },
  );
} else if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runEditBench().catch((error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exitCode = 1;
  });
}
