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
  return bundleForNode(join(tmp, 'stratus-agent.cjs'), { contents: "export { createInferenceClient } from './src/core/inference';\nexport { runAgent } from './src/core/agent';\n" });
}

export async function runAgentBench() {
  const tmp = mkdtempSync(join(tmpdir(), 'stratus-bench-agent-'));
  const failures = [];
  try {
    log(`Agent loop benchmark: ${RUNS} runs per loop, ${TURNS} turns of ${ROUNDS} tool rounds each (after 5 warm-up turns)`);
    const adapter = pathToFileURL(await bundle(tmp)).href;
    const results = [];
    for (let i = 0; i < RUNS; i++) {
      const order = i % 2 ? ['undici', 'client', 'stratus'] : ['stratus', 'client', 'undici'];
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
    const pairedWith = (base) => median([...Array(RUNS).keys()].map((i) => {
      const s = results.find((r) => r.run === i && r.client === 'stratus');
      const r = results.find((x) => x.run === i && x.client === base);
      return s && r ? s.perRoundMs / r.perRoundMs : NaN;
    }));
    // "raw": the same minimal loop written by hand over the core inference client, so the ratio is
    // the agent loop's own overhead; "undici": that loop over a bare undici client (transport included).
    const paired = pairedWith('client');
    const overUndici = pairedWith('undici');
    log(`\nAgent loop overhead per tool round (medians of per-run medians, ms)`);
    const labels = { stratus: 'stratus agent loop', client: 'hand-written loop, core client (raw)', undici: 'hand-written loop, bare undici' };
    log(table(['loop', 'delta->tool', 'result->next request', 'per round', 'rounds/run'], ['stratus', 'client', 'undici'].map((c) => [labels[c], f2(of(c, 'deltaToToolMs')), f2(of(c, 'resultToRequestMs')), f2(of(c, 'perRoundMs')), results.find((r) => r.client === c)?.rounds ?? 'n/a'])));
    if (failures.length) {
      log('\nProblems:');
      for (const f of failures) log(`  - ${f.replace(/\n/g, '\n    ')}`);
    }
    log('');
    if (Number.isFinite(paired)) log(`ratio stratus/raw.agentRound ${paired.toFixed(2)}`);
    if (Number.isFinite(overUndici)) log(`ratio stratus/undici.agentRound ${overUndici.toFixed(2)}`);
    for (const c of ['stratus', 'client', 'undici']) {
      log(`metric agent.delta_to_tool.${c}_ms ${f2(of(c, 'deltaToToolMs'))}`);
      log(`metric agent.result_to_request.${c}_ms ${f2(of(c, 'resultToRequestMs'))}`);
      log(`metric agent.per_round.${c}_ms ${f2(of(c, 'perRoundMs'))}`);
    }
    const status = Number.isFinite(paired) ? (paired <= TARGET ? 'PASS' : 'FAIL') : 'NOT MEASURED';
    log(`\ntargets:\n  ${pad(status, 12)} agent loop within ${TARGET}x of a hand-written loop over the core client, per round: ${fx(paired)} (over bare undici: ${fx(overUndici)})`);
    mkdirSync(join(root, 'test-results'), { recursive: true });
    writeFileSync(join(root, 'test-results', 'bench-agent.json'), `${JSON.stringify({ date: new Date().toISOString(), node: process.version, config: { runs: RUNS, turns: TURNS, rounds: ROUNDS }, ratio: paired, ratioOverUndici: overUndici, results, failures }, null, 2)}\n`);
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
