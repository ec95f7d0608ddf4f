// The agent-loop benchmark: the overhead Stratus' agent loop (src/core/agent) adds per tool round,
// beside a minimal hand-written loop over a raw undici client against the same local server.
// Per round: last streamed delta -> tool start, and tool result -> next request received by the
// server. Runs alone (`node bench/agent.mjs`) or at the end of `npm run bench` (bench/run.mjs).
//
// Environment knobs (all optional):
//   BENCH_AGENT_RUNS=6        runs per loop (children alternate stratus/raw, order flips each pair)
//   BENCH_AGENT_TURNS=30      timed turns per run (after 5 warm-up turns)
//   BENCH_AGENT_ROUNDS=10     tool rounds per turn
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleForNode, f2, fx, killAll, log, median, pad, run, table } from './lib.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const root = resolve(benchDir, '..');
const env = process.env;
const int = (v, d) => (v !== undefined && v !== '' ? Math.max(1, Math.floor(Number(v))) : d);
const RUNS = int(env.BENCH_AGENT_RUNS, 6);
const TURNS = int(env.BENCH_AGENT_TURNS, 30);
const ROUNDS = int(env.BENCH_AGENT_ROUNDS, 10);
const TARGET = 1.2;
const CHILD_TIMEOUT_MS = 120_000;

function bundle(tmp) {
  return bundleForNode(join(tmp, 'stratus-agent.cjs'), {
    contents: [
      "export { createInferenceClient, estimateMessageTokens, estimateToolsTokens } from './src/core/inference';",
      "export { runAgent } from './src/core/agent';",
      "export { loadInstructions } from './src/core/agent/instructions';",
      "export { compactToFit, planCompaction, MemorySummaryStore } from './src/core/agent/compaction';",
      "export { TurnRecorder } from './src/core/agent/checkpoints';",
    ].join('\n'),
  });
}

/**
 * Tokens of a 30-turn conversation on a 16k-context model (3 tool rounds of 20 KB results and a
 * text answer per turn, 11 tool schemas), every request compacted as @stratus does; a fake model
 * answers summary requests with a summary of the size asked for. Counts estimated prompt tokens
 * plus answer tokens (tool-call rounds ~40, answers ~300, summaries as long as asked for).
 * @param {any} mod the bundled adapter
 */
async function summaryShare(mod) {
  const maxModelLen = 16_384;
  const tools = Array.from({ length: 11 }, (_, i) => ({ type: 'function', function: { name: `tool_${i}`, description: `Tool number ${i} does a useful thing in the workspace.`, parameters: { type: 'object', properties: { path: { type: 'string' } } } } }));
  const budget = { maxModelLen, toolsTokens: mod.estimateToolsTokens(tools), reserveTokens: 4_096 };
  const store = new mod.MemorySummaryStore();
  const tokens = (messages) => messages.reduce((a, m) => a + mod.estimateMessageTokens(m), 0);
  let main = 0;
  let summary = 0;
  let summaries = 0;
  let requests = 0;
  /** @type {any[]} */
  const conversation = [{ role: 'system', content: 'You are Stratus, a coding assistant.' }];
  const summarise = (request) => {
    summaries++;
    summary += tokens(request.messages) + request.maxTokens;
    // A SummaryAnswer, as the chat client returns one (a bare string is no answer: summaryProblem reads .text).
    return Promise.resolve({ text: 'The user refactors the parser; files read and facts found. '.repeat(Math.ceil((request.maxTokens * 3) / 60)), finishReason: 'stop' });
  };
  for (let t = 1; t <= 30; t++) {
    conversation.push({ role: 'user', content: `Turn ${t}: look at the parser and fix the next failing case.` });
    for (let r = 0; r <= 3; r++) {
      if (r > 0) {
        const id = `call_${t}_${r}`;
        conversation.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'tool_1', arguments: `{"path":"src/file${r}.ts"}` } }] });
        conversation.push({ role: 'tool', tool_call_id: id, content: `File: src/file${r}.ts\n${'const x = parse(input); // and more code\n'.repeat(500)}` });
      }
      const outcome = await mod.compactToFit(conversation, budget, { store, conversationId: 'bench', summarise });
      if (outcome.kind !== 'send') throw new Error(`turn ${t}: ${outcome.kind}`);
      requests++;
      main += outcome.plan.promptTokens + budget.toolsTokens + (r < 3 ? 40 : 300);
    }
    conversation.push({ role: 'assistant', content: `Fixed case ${t}. ${'The parser now handles it. '.repeat(40)}` });
  }
  return { share: summary / (main + summary), summaries, requests, summaryTokens: summary, totalTokens: main + summary };
}

export async function runAgentBench() {
  const tmp = mkdtempSync(join(tmpdir(), 'stratus-bench-agent-'));
  const failures = [];
  try {
    log(`Agent loop benchmark: ${RUNS} runs per loop, ${TURNS} turns of ${ROUNDS} tool rounds each (after 5 warm-up turns)`);
    const adapter = pathToFileURL(await bundle(tmp)).href;
    const results = [];
    for (let i = 0; i < RUNS; i++) {
      const order = i % 2 ? ['undici', 'client', 'depth', 'stratus'] : ['stratus', 'depth', 'client', 'undici'];
      for (const client of order) {
        const task = { client: client === 'undici' ? 'raw' : client, adapter, turns: TURNS, warmupTurns: 5, roundsPerTurn: ROUNDS };
        const res = await run(process.execPath, [join(benchDir, 'agentChild.mjs'), JSON.stringify(task)], { timeoutMs: CHILD_TIMEOUT_MS });
        const line = res.stdout.split('\n').find((l) => l.startsWith('RESULT '));
        if (res.code !== 0 || !line) {
          failures.push(`${client} run ${i + 1}: ${res.timedOut ? 'timed out' : `exit ${res.code ?? res.signal}`}\n${res.stderr.trim().split('\n').slice(0, 4).join('\n')}`);
          continue;
        }
        results.push({ ...JSON.parse(line.slice(7)), client, run: i });
      }
    }
    const of = (client, key) => median(results.filter((r) => r.client === client).map((r) => r[key]));
    const pairedWith = (base, of = 'stratus', key = 'perRoundMs') => median([...Array(RUNS).keys()].map((i) => {
      const s = results.find((r) => r.run === i && r.client === of);
      const r = results.find((x) => x.run === i && x.client === base);
      return s && r ? s[key] / r[key] : NaN;
    }));
    // "raw": the same minimal loop written by hand over the core inference client, so the ratio is
    // the agent loop's own overhead; "undici": that loop over a bare undici client (transport included).
    const paired = pairedWith('client');
    const overUndici = pairedWith('undici');
    const withDepth = pairedWith('client', 'depth', 'perRoundWithToolMs');
    // The loop alone (tool time left out): what the instructions' bytes and the per-request planning cost.
    const withDepthLoopOnly = pairedWith('client', 'depth');
    log(`\nAgent loop overhead per tool round (medians of per-run medians, ms)`);
    const labels = { stratus: 'stratus agent loop', depth: 'stratus loop, instructions + compaction + checkpoints', client: 'hand-written loop, core client (raw)', undici: 'hand-written loop, bare undici' };
    log(table(['loop', 'delta->tool', 'result->next request', 'per round', 'per round, tool incl.', 'rounds/run'], ['stratus', 'depth', 'client', 'undici'].map((c) => [labels[c], f2(of(c, 'deltaToToolMs')), f2(of(c, 'resultToRequestMs')), f2(of(c, 'perRoundMs')), f2(of(c, 'perRoundWithToolMs')), results.find((r) => r.client === c)?.rounds ?? 'n/a'])));
    if (failures.length) {
      log('\nProblems:');
      for (const f of failures) log(`  - ${f.replace(/\n/g, '\n    ')}`);
    }
    log('');
    if (Number.isFinite(paired)) log(`ratio stratus/raw.agentRound ${paired.toFixed(2)}`);
    if (Number.isFinite(overUndici)) log(`ratio stratus/undici.agentRound ${overUndici.toFixed(2)}`);
    if (Number.isFinite(withDepth)) log(`ratio agent/raw.perRoundWithDepth ${withDepth.toFixed(2)}`);
    if (Number.isFinite(withDepthLoopOnly)) log(`ratio agent/raw.perRoundWithDepthLoopOnly ${withDepthLoopOnly.toFixed(2)}`);
    const share = await summaryShare(await import(adapter));
    log(`metric agent.summaryTokenShare ${share.share.toFixed(4)}`);
    log(`metric agent.summaryRequests ${share.summaries}`);
    for (const c of ['stratus', 'depth', 'client', 'undici']) {
      log(`metric agent.delta_to_tool.${c}_ms ${f2(of(c, 'deltaToToolMs'))}`);
      log(`metric agent.result_to_request.${c}_ms ${f2(of(c, 'resultToRequestMs'))}`);
      log(`metric agent.per_round.${c}_ms ${f2(of(c, 'perRoundMs'))}`);
    }
    const status = Number.isFinite(paired) ? (paired <= TARGET ? 'PASS' : 'FAIL') : 'NOT MEASURED';
    const depthStatus = Number.isFinite(withDepth) ? (withDepth <= TARGET ? 'PASS' : 'FAIL') : 'NOT MEASURED';
    if (status === 'FAIL' || depthStatus === 'FAIL') process.exitCode = 1;
    log(`\ntargets:\n  ${pad(status, 12)} agent loop within ${TARGET}x of a hand-written loop over the core client, per round: ${fx(paired)} (over bare undici: ${fx(overUndici)})`);
    log(`  ${pad(depthStatus, 12)} with instructions, compaction and checkpoints on, within ${TARGET}x of the hand-written loop, per round (tool included): ${fx(withDepth)}`);
    log(`  ${pad('INFO', 12)} summary requests over a 30-turn conversation: ${share.summaries} of ${share.requests} requests, ${(share.share * 100).toFixed(1)}% of ${share.totalTokens.toLocaleString('en')} tokens`);
    mkdirSync(join(root, 'test-results'), { recursive: true });
    writeFileSync(join(root, 'test-results', 'bench-agent.json'), `${JSON.stringify({ date: new Date().toISOString(), node: process.version, config: { runs: RUNS, turns: TURNS, rounds: ROUNDS }, ratio: paired, ratioOverUndici: overUndici, ratioWithDepth: withDepth, ratioWithDepthLoopOnly: withDepthLoopOnly, summaryShare: share, results, failures }, null, 2)}\n`);
    if (failures.length) process.exitCode = 1;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.on('exit', killAll);
  runAgentBench().catch((error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exitCode = 1;
  });
}
