// The inline (ghost-text) completion benchmark: Stratus' InlineCompletionEngine (debounce, abort of
// the request in flight, LRU cache + type-ahead, early stop, post-processing) against a naive
// provider (one request per keystroke, no cache, no abort: each answer read to its end), side by
// side in one run, each against its own sandbox with the same realistic latency. Runs alone
// (`npm run bench:completion`) or at the end of `npm run bench` (bench/run.mjs imports
// runCompletionBench()).
//
// Method. A typing script is replayed (seeded, the same every run): the characters of real source
// files from node_modules, 60-120 ms per key, a pause of 0.6-1.5 s after most line ends and now and
// then mid-line, typos corrected with Backspace, and words deleted and typed again. The region is
// written as new code (the text after the cursor is the rest of the file after it), and a line
// break brings the next line's indentation with it (the editor's auto-indent). The model is an
// oracle that answers what the file really holds next for a third of the prompts
// (BENCH_COMPLETION_MODEL_HITS) and the sandbox's scripted text otherwise, so typing what a
// suggestion says can be served from it. Both providers get every keystroke at the same time, in
// real time (the sandbox's latency and SSE pacing are real network time, so the replay is not
// simulated). VS Code's rule decides what is shown: a suggestion is shown only if it arrives
// before the next keystroke. Then, for each pause, one bare request (the same prompt sent
// straight with the core client, read until its first line is complete) measures what the
// network alone costs.
//
// Figures:
//   metric inline.requestsPer100Keys   requests that reached the network per 100 keystrokes (naive ~100)
//   ratio inline/naive.wastedTokens    tokens the server generated (GET /__sandbox/completions,
//                                      tokensStreamed) for suggestions never shown (one shown later
//                                      by type-ahead counts as shown), inline / naive
//   metric inline.cacheHitRate         (cache + type-ahead hits) / (hits + network requests)
//   metric inline.overheadP50Ms/P95Ms  engine time per keystroke excluding the network: provide()
//                                      until it waits, the handling of each streamed delta, and the
//                                      post-processing after the stream ends
//   metric inline.requestsPer100KeysWithNextEdit(Loaded)  both features on, quiet and on a loaded
//                                      event loop (bench/completionBudget.mjs; targets <= 15, loaded <= quiet)
//   ratio inline/bare.pauseToGhost     median time from the last keystroke before a pause to the
//                                      ghost text, over the median latency of the bare request
// It reports; it is not a test: it exits non-zero only when something could not be measured.
//
// Environment knobs (all optional):
//   BENCH_COMPLETION_KEYS=240        keystrokes replayed
//   BENCH_COMPLETION_LATENCY_MS=200  sandbox delay before the first byte (time to first token)
//   BENCH_COMPLETION_TOKEN_MS=8      sandbox delay between streamed tokens
//   BENCH_COMPLETION_DEBOUNCE_MS     the engine's debounce (default: the engine's DEFAULT_DEBOUNCE_MS)
//   BENCH_COMPLETION_BUDGET=0        ghost text and next edit each on its own clock (no shared budget)
//   BENCH_COMPLETION_MODEL_HITS=0.33 how often the model's answer is what the file holds next (the
//                                    rest of the time it is the sandbox's scripted text, never right)
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleForNode, f2, log, median, prng, table, verdict } from './lib.mjs';
import { runBothFeatures } from './completionBudget.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const root = resolve(benchDir, '..');
const env = process.env;
const int = (v, d, min = 1) => (v !== undefined && v !== '' ? Math.max(min, Math.floor(Number(v))) : d);

const KEYS = int(env.BENCH_COMPLETION_KEYS, 240, 20);
const LATENCY_MS = int(env.BENCH_COMPLETION_LATENCY_MS, 200, 0);
const TOKEN_MS = int(env.BENCH_COMPLETION_TOKEN_MS, 8, 0);
const DEBOUNCE_MS = env.BENCH_COMPLETION_DEBOUNCE_MS ? int(env.BENCH_COMPLETION_DEBOUNCE_MS, 100, 0) : undefined;
const MODEL_HITS = env.BENCH_COMPLETION_MODEL_HITS ? Math.min(1, Math.max(0, Number(env.BENCH_COMPLETION_MODEL_HITS))) : 1 / 3;
const ORACLE_KEY_CHARS = 256;
const MODEL = 'gpt-oss:120b';
const PAUSE_MS = 500;
const TARGETS = { requestsPer100Keys: 15, requestsPer100KeysWithNextEdit: 15, wastedTokens: 0.1, overheadP50Ms: 5, pauseToGhost: 1.1 };
/** BENCH_COMPLETION_BUDGET=0: ghost text and next edit each on its own clock (as before the shared budget). */
const SHARE_BUDGET = env.BENCH_COMPLETION_BUDGET !== '0';
const SOURCES = ['node_modules/eventsource-parser/dist/index.js', 'node_modules/undici/lib/web/fetch/body.js', 'node_modules/undici/lib/core/util.js'];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const percentile = (xs, p) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};


/**
 * The typing script: a list of { docId, text, offset, gapMs, truth } (the document after each key,
 * the wait before the next one, and what the file really holds from the cursor on when the text
 * typed so far is the file's: the oracle model's answer). The user writes a region of a real file
 * as new code in the middle of it: the text after the cursor is the rest of the file after that
 * region (a line break first), so the cursor sits at the end of its line, as when writing code.
 */
function typingScript() {
  const rand = prng(18);
  /** @type {string[]} */
  const files = [];
  for (const p of SOURCES) {
    try {
      const text = readFileSync(join(root, p), 'utf8');
      if (text.length > 4_000) files.push(text);
    } catch {
      // Missing in this install: the others are used.
    }
  }
  if (files.length === 0) throw new Error(`none of the source files was found: ${SOURCES.join(', ')}`);
  /** @type {{ docId: string, text: string, offset: number, gapMs: number, truth: string | undefined }[]} */
  const steps = [];
  const perFile = Math.ceil(KEYS / files.length);
  for (const [fi, file] of files.entries()) {
    const start = file.indexOf('\n', Math.floor(file.length * 0.3)) + 1;
    const lineEnd = file.indexOf('\n', start + perFile * 3);
    const end = lineEnd < 0 ? file.length : lineEnd;
    const target = file.slice(start, end);
    const after = file.slice(end);
    const docId = `file:///bench/${fi}.js`;
    let typed = '';
    let i = 0;
    const push = (gapMs) => {
      const prefix = file.slice(0, start) + typed;
      steps.push({ docId, text: prefix + after, offset: prefix.length, gapMs, truth: target.startsWith(typed) ? file.slice(start + typed.length) : undefined });
    };
    // Auto-indent: the editor puts the leading whitespace of a new line with the line break.
    const indent = () => {
      const ws = /^[ \t]*/.exec(target.slice(i))?.[0] ?? '';
      typed += ws;
      i += ws.length;
    };
    const key = () => 60 + rand() * 60;
    let count = 0;
    indent();
    while (count < perFile && i < target.length) {
      const ch = target[i] ?? '';
      const r = rand();
      if (r < 0.04 && /\w/.test(ch)) {
        // A typo, seen, then Backspace.
        typed += String.fromCharCode(97 + Math.floor(rand() * 26));
        push(key() + 150);
        typed = typed.slice(0, -1);
        push(key());
        count += 2;
        continue;
      }
      if (r < 0.06 && /\w$/.test(typed) && /\W/.test(ch)) {
        // Delete the word just typed (Backspace per character), then type it again.
        const word = /\w+$/.exec(typed)?.[0] ?? '';
        const back = Math.min(word.length, 4);
        i -= back;
        for (let k = 0; k < back; k++) {
          typed = typed.slice(0, -1);
          push(key() * 0.7);
          count += 1;
        }
        continue;
      }
      typed += ch;
      i += 1;
      count += 1;
      if (ch === '\n') indent();
      const pause = ch === '\n' ? rand() < 0.7 : rand() < 0.03;
      push(pause ? 600 + rand() * 900 : key());
    }
    const last = steps[steps.length - 1];
    if (last) last.gapMs = Math.max(last.gapMs, 1_500);
  }
  return steps.slice(0, KEYS);
}

/** FNV-1a of a string, in [0, 1): the oracle's deterministic coin. */
function coin(text) {
  let h = 0x811c9dc5;
  for (let k = 0; k < text.length; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193) >>> 0;
  return h / 2 ** 32;
}

/**
 * The model the three providers share: for a prompt at a position of the script where the text
 * typed so far is the file's, it answers what the file really holds next with probability
 * MODEL_HITS (a deterministic coin per prompt), else the sandbox's scripted continuation (which
 * never matches the file). It sees only the prompt, like a real model.
 */
function installOracle(m, steps) {
  const truths = new Map();
  for (const step of steps) if (step.truth !== undefined) truths.set(step.text.slice(Math.max(0, step.offset - ORACLE_KEY_CHARS), step.offset), step.truth);
  m.setCompletionOracle((before) => {
    const truth = truths.get(before.slice(-ORACLE_KEY_CHARS));
    return truth !== undefined && coin(before) < MODEL_HITS ? truth.slice(0, 4_000) : undefined;
  });
}

function bundle(tmp) {
  return bundleForNode(join(tmp, 'stratus-inline.cjs'), {
    contents: [
          "export { createInferenceClient } from './src/core/inference';",
          "export { InlineCompletionEngine, buildPrompt, decideMode, postProcess, EarlyStop, CURSOR_MARKER, isPausePoint, PauseBudget } from './src/core/inlineCompletion';",
          "export { NextEditEngine, EditHistory } from './src/core/nextEdit';",
          "export { startSandbox } from './test/sandbox/index';",
          "export { setCompletionOracle } from './test/sandbox/inference/completionScript';",
        ].join('\n'),
  });
}

async function sandboxAndClient(m) {
  const sandbox = await m.startSandbox({ port: 0 });
  sandbox.control.setLatency({ ms: LATENCY_MS, chunkDelayMs: TOKEN_MS, pathPrefix: '/v1/' });
  const client = m.createInferenceClient({ baseUrl: sandbox.inferenceUrl, apiKey: () => Promise.resolve(sandbox.credentials.apiKey), retry: { attempts: 1 } });
  return { sandbox, client };
}

/** Counts the text deltas a stream delivered to the client. */
function counting(stream, onDeltas) {
  return {
    consume(onEvent) {
      let deltas = 0;
      return stream
        .consume((e) => {
          if (e.type === 'text') deltas += 1;
          onEvent?.(e);
        })
        .finally(() => onDeltas(deltas));
    },
  };
}

/** Replays the script through the engine; returns what it measured. */
async function runInline(m, steps) {
  const { sandbox, client } = await sandboxAndClient(m);
  let key = -1;
  const requestKey = [];
  const delivered = [];
  const overhead = [];
  const ghostAt = new Map();
  /** Per keystroke: time spent handling streamed deltas, and when its stream ended. */
  const eventMs = new Map();
  const streamEnd = new Map();
  const triggers = { pausePoint: 0, rhythm: 0, base: 0 };
  const engine = new m.InlineCompletionEngine({
    onTrigger: (kind) => (triggers[kind] += 1),
    model: () => ({ id: MODEL, maxModelLen: undefined }),
    ...(DEBOUNCE_MS !== undefined ? { debounceMs: DEBOUNCE_MS } : {}),
    complete: (request, signal) => {
      const index = requestKey.length;
      const k = key;
      requestKey.push(k);
      const stream = counting(client.completeStream(request, { signal, purpose: 'inline' }), (n) => (delivered[index] = n));
      return {
        consume: (onEvent) =>
          stream
            .consume((e) => {
              const t0 = performance.now();
              onEvent?.(e);
              eventMs.set(k, (eventMs.get(k) ?? 0) + performance.now() - t0);
            })
            .finally(() => streamEnd.set(k, performance.now())),
      };
    },
  });
  /** Requests (by seq) whose suggestion became ghost text, at once or later by type-ahead. */
  const shownRequests = new Set();
  const pending = [];
  try {
    for (const [k, step] of steps.entries()) {
      key = k;
      const started = performance.now();
      const p = engine.provide({ id: step.docId, languageId: 'javascript', relativePath: step.docId.slice(15), text: step.text, offset: step.offset });
      const syncMs = performance.now() - started;
      pending.push(
        p.then((items) => {
          const done = performance.now();
          const end = streamEnd.get(k);
          const tail = end !== undefined ? done - end : 0;
          overhead.push(syncMs + (eventMs.get(k) ?? 0) + tail);
          if (items && items.length > 0 && key === k) {
            if (items[0].requestSeq !== undefined) shownRequests.add(items[0].requestSeq);
            ghostAt.set(k, done - started);
          }
        }),
      );
      await sleep(step.gapMs);
    }
    await Promise.all(pending);
    await sleep(50);
    const streams = sandbox.control.completionStreams();
    const serverTokens = streams.reduce((s, r) => s + r.tokensStreamed, 0);
    let usefulTokens = 0;
    for (const i of requestKey.keys()) if (shownRequests.has(i + 1)) usefulTokens += delivered[i] ?? 0;
    return { stats: { ...engine.stats }, triggers, streams: streams.length, serverTokens, wastedTokens: Math.max(0, serverTokens - usefulTokens), overhead, ghostAt };
  } finally {
    engine.cancel();
    await client.close();
    await sandbox.close();
  }
}

/** The naive provider: every keystroke sends a request and reads it to its end. */
async function runNaive(m, steps) {
  const { sandbox, client } = await sandboxAndClient(m);
  let key = -1;
  let usefulTokens = 0;
  let requests = 0;
  let shown = 0;
  const pending = [];
  try {
    for (const [k, step] of steps.entries()) {
      key = k;
      const prefix = step.text.slice(0, step.offset);
      const suffix = step.text.slice(step.offset);
      const mode = m.decideMode(prefix, suffix);
      const built = m.buildPrompt({ prefix, suffix, languageId: 'javascript', relativePath: step.docId.slice(15), mode, budget: { maxModelLen: undefined } });
      requests += 1;
      let raw = '';
      let deltas = 0;
      pending.push(
        client
          .completeStream({ model: MODEL, messages: built.messages, max_tokens: built.maxTokens, temperature: 0.2 }, { purpose: 'inline' })
          .consume((e) => {
            if (e.type === 'text') {
              raw += e.text;
              deltas += 1;
            }
          })
          .then(() => {
            const text = m.postProcess({ raw, prefix, suffix, mode, marker: m.CURSOR_MARKER });
            if (text !== undefined && key === k) {
              shown += 1;
              usefulTokens += deltas;
            }
          })
          .catch(() => undefined),
      );
      await sleep(step.gapMs);
    }
    await Promise.all(pending);
    await sleep(50);
    const streams = sandbox.control.completionStreams();
    const serverTokens = streams.reduce((s, r) => s + r.tokensStreamed, 0);
    return { requests, shown, streams: streams.length, serverTokens, wastedTokens: Math.max(0, serverTokens - usefulTokens) };
  } finally {
    await client.close();
    await sandbox.close();
  }
}

/** One bare request per pause: the same prompt, read until the first line is decided. */
async function runBare(m, steps, pauseKeys) {
  const { sandbox, client } = await sandboxAndClient(m);
  const latencies = [];
  try {
    for (const k of pauseKeys) {
      const step = steps[k];
      const prefix = step.text.slice(0, step.offset);
      const suffix = step.text.slice(step.offset);
      const mode = m.decideMode(prefix, suffix);
      const built = m.buildPrompt({ prefix, suffix, languageId: 'javascript', relativePath: step.docId.slice(15), mode, budget: { maxModelLen: undefined } });
      const stop = new m.EarlyStop(mode, prefix.slice(prefix.lastIndexOf('\n') + 1), built.maxTokens);
      const controller = new AbortController();
      const t0 = performance.now();
      let decidedAt = NaN;
      await client
        .completeStream({ model: MODEL, messages: built.messages, max_tokens: built.maxTokens, temperature: 0.2 }, { signal: controller.signal })
        .consume((e) => {
          if (e.type === 'text' && stop.push(e.text) && !controller.signal.aborted) {
            decidedAt = performance.now();
            controller.abort();
          }
        })
        .catch(() => undefined);
      latencies.push((Number.isFinite(decidedAt) ? decidedAt : performance.now()) - t0);
    }
    return latencies;
  } finally {
    await client.close();
    await sandbox.close();
  }
}

export async function runCompletionBench() {
  const tmp = mkdtempSync(join(tmpdir(), 'stratus-bench-inline-'));
  const failures = [];
  try {
    const steps = typingScript();
    const m = await import(pathToFileURL(await bundle(tmp)).href).then((x) => x.default ?? x);
    installOracle(m, steps);
    const typingSeconds = steps.reduce((s, x) => s + x.gapMs, 0) / 1000;
    log(`Inline completion benchmark: ${steps.length} keystrokes (~${typingSeconds.toFixed(0)} s of typing, real time), sandbox latency ${LATENCY_MS} ms + ${TOKEN_MS} ms per token, debounce ${DEBOUNCE_MS ?? 'default'}, model right ${(MODEL_HITS * 100).toFixed(0)} % of the time`);
    const both = { model: MODEL, latencyMs: LATENCY_MS, tokenMs: TOKEN_MS, prng, shareBudget: SHARE_BUDGET };
    const [inline, naive, withNextEdit] = await Promise.all([runInline(m, steps), runNaive(m, steps), runBothFeatures(m, steps, { ...both, loaded: false })]);
    // Alone: its busy loop would load the other runs too.
    const withNextEditLoaded = await runBothFeatures(m, steps, { ...both, loaded: true });
    const pauseKeys = [...steps.keys()].filter((k) => (steps[k]?.gapMs ?? 0) >= PAUSE_MS);
    const bare = await runBare(m, steps, pauseKeys);
    const ghost = pauseKeys.map((k) => inline.ghostAt.get(k)).filter((x) => x !== undefined);

    const requestsPer100Keys = (inline.stats.requests / steps.length) * 100;
    const naivePer100Keys = (naive.requests / steps.length) * 100;
    const wasted = naive.wastedTokens > 0 ? inline.wastedTokens / naive.wastedTokens : NaN;
    const hits = inline.stats.cacheHits + inline.stats.typeAheadHits;
    const cacheHitRate = hits + inline.stats.requests > 0 ? hits / (hits + inline.stats.requests) : NaN;
    const p50 = percentile(inline.overhead, 50);
    const p95 = percentile(inline.overhead, 95);
    const pauseToGhost = median(ghost) / median(bare);
    if (ghost.length === 0) failures.push('no pause ended with ghost text');

    log('');
    log(table(
      ['provider', 'requests', 'per 100 keys', 'server tokens', 'wasted tokens', 'shown'],
      [
        ['stratus engine', inline.stats.requests, f2(requestsPer100Keys), inline.serverTokens, inline.wastedTokens, `${ghost.length}/${pauseKeys.length} pauses`],
        ['naive (per key)', naive.requests, f2(naivePer100Keys), naive.serverTokens, naive.wastedTokens, `${naive.shown} keys`],
      ],
    ));
    log(`engine: ${inline.stats.cacheHits} cache hits, ${inline.stats.typeAheadHits} type-ahead hits, ${inline.stats.stoppedEarly} stopped early, ${inline.stats.superseded} superseded, ${inline.stats.abandoned} abandoned, ${inline.stats.failures} failures`);
    log(`trigger: ${inline.triggers.pausePoint} at pause points (at once), ${inline.triggers.rhythm} after the typing rhythm, ${inline.triggers.base} after the base debounce`);
    // (isPausePoint is absent when this bench runs against an older engine, for a baseline.)
    const atPausePoint = typeof m.isPausePoint === 'function' ? pauseKeys.filter((k) => m.isPausePoint((steps[k]?.text ?? '').slice(0, steps[k]?.offset ?? 0))) : [];
    const midLine = pauseKeys.filter((k) => !atPausePoint.includes(k));
    const ghostOf = (keys) => keys.map((k) => inline.ghostAt.get(k)).filter((x) => x !== undefined);
    log(`pauses: ${atPausePoint.length} at a pause point (ghost median ${f2(median(ghostOf(atPausePoint)))} ms), ${midLine.length} elsewhere (ghost median ${f2(median(ghostOf(midLine)))} ms, ${ghostOf(midLine).filter((x) => x < 50).length} served at once by type-ahead)`);
    log(`pause to ghost text: median ${f2(median(ghost))} ms over ${ghost.length} pauses; bare request to its first line: median ${f2(median(bare))} ms`);
    const perKeys = (r) => (r.received / steps.length) * 100;
    const bothQuiet = perKeys(withNextEdit);
    const bothLoaded = perKeys(withNextEditLoaded);
    log(`with next edit suggestions (${SHARE_BUDGET ? 'one shared request budget per pause' : 'each on its own clock'}):`);
    log(table(
      ['event loop', 'requests', 'per 100 keys', 'ghost text', 'next edit', 'ghost at pauses', 'next edits shown'],
      [withNextEdit, withNextEditLoaded].map((r, i) => [i === 0 ? 'quiet' : 'loaded (busy 50-200 ms)', r.received, f2(perKeys(r)), r.sent.ghostText, r.sent.nextEdit, `${r.shownAtPause}/${r.pauses}`, r.nextEditShown]),
    ));
    if (withNextEdit.shownAtPause === 0) failures.push('with next edit on, no pause ended with ghost text');
    log(`targets: requests/100 keys <= ${TARGETS.requestsPer100Keys}, wasted tokens <= ${TARGETS.wastedTokens * 100} % of naive, overhead p50 < ${TARGETS.overheadP50Ms} ms, pause to ghost <= ${TARGETS.pauseToGhost}x`);
    if (failures.length) {
      log('\nProblems:');
      for (const f of failures) log(`  - ${f}`);
    }
    log('');
    log(`metric inline.requestsPer100Keys ${f2(requestsPer100Keys)} (target <= ${TARGETS.requestsPer100Keys}) ${verdict(requestsPer100Keys <= TARGETS.requestsPer100Keys)}`);
    log(`metric inline.requestsPer100KeysWithNextEdit ${f2(bothQuiet)} (target <= ${TARGETS.requestsPer100KeysWithNextEdit}) ${verdict(bothQuiet <= TARGETS.requestsPer100KeysWithNextEdit)}`);
    log(`metric inline.requestsPer100KeysWithNextEditLoaded ${f2(bothLoaded)} (target <= quiet ${f2(bothQuiet)}) ${verdict(bothLoaded <= bothQuiet)}`);
    log(`ratio inline/naive.wastedTokens ${Number.isFinite(wasted) ? wasted.toFixed(4) : 'n/a'} (target <= ${TARGETS.wastedTokens}) ${verdict(Number.isFinite(wasted) ? wasted <= TARGETS.wastedTokens : undefined)}`);
    log(`metric inline.cacheHitRate ${Number.isFinite(cacheHitRate) ? cacheHitRate.toFixed(3) : 'n/a'}`);
    log(`metric inline.overheadP50Ms ${f2(p50)} (target < ${TARGETS.overheadP50Ms}) ${verdict(Number.isFinite(p50) ? p50 < TARGETS.overheadP50Ms : undefined)}`);
    log(`metric inline.overheadP95Ms ${f2(p95)}`);
    log(`ratio inline/bare.pauseToGhost ${Number.isFinite(pauseToGhost) ? pauseToGhost.toFixed(2) : 'n/a'} (target <= ${TARGETS.pauseToGhost}) ${verdict(Number.isFinite(pauseToGhost) ? pauseToGhost <= TARGETS.pauseToGhost : undefined)}`);

    mkdirSync(join(root, 'test-results'), { recursive: true });
    writeFileSync(join(root, 'test-results', 'bench-completion.json'), `${JSON.stringify({
      date: new Date().toISOString(),
      node: process.version,
      config: { keys: steps.length, latencyMs: LATENCY_MS, tokenMs: TOKEN_MS, pauseMs: PAUSE_MS, modelHits: MODEL_HITS },
      inline: { stats: inline.stats, triggers: inline.triggers, streams: inline.streams, serverTokens: inline.serverTokens, wastedTokens: inline.wastedTokens },
      naive,
      withNextEdit: { shareBudget: SHARE_BUDGET, quiet: withNextEdit, loaded: withNextEditLoaded },
      metrics: { requestsPer100Keys, requestsPer100KeysWithNextEdit: bothQuiet, requestsPer100KeysWithNextEditLoaded: bothLoaded, naivePer100Keys, cacheHitRate, overheadP50Ms: p50, overheadP95Ms: p95, ghostMedianMs: median(ghost), bareMedianMs: median(bare) },
      ratios: { wastedTokens: wasted, pauseToGhost },
      targets: TARGETS,
      failures,
    }, null, 2)}\n`);
    if (failures.length) process.exitCode = 1;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runCompletionBench().catch((error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exitCode = 1;
  });
}
