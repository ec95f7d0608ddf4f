// The MCP server benchmark (issue 43): the console's tools over stdio, as another agent's host runs
// them. Runs alone (`node bench/mcp.mjs`) or in `npm run bench` (bench/run.mjs; BENCH_SKIP_MCP=1
// leaves it out). Prints:
//   metric mcp.startMs            process start to tools listed (median over the starts)
//   metric mcp.listP95Ms          list_resources (a page of 50 VMs) round trip over stdio, p95
//   ratio mcp/core.listResources  the MCP round trip against the core client's own list call, medians (goal <= 1.3)
// The sandbox runs in this process; the server in its child process, and the core client's
// calls in one long-lived child process of their own (bench/mcp.mjs bundles it), so both sides
// cross a process boundary to reach the sandbox, are warmed alike and stay warm, and differ only
// by what MCP adds (stdio, the SDK, the tool's compaction and redaction). Both sides are warmed with
// BENCH_MCP_WARM calls (the SDK's zod paths and the console client need more than a few to be
// compiled), then run in BENCH_MCP_BLOCKS pairs of blocks, the side that goes first alternating;
// the ratio is the median over the pairs of each pair's median MCP call over its median core call,
// so a change of load during the run weighs on both sides of a pair alike. Calls are paced (BENCH_MCP_GAP_MS apart, both sides alike) so the client-side rate limiter (25 r/s per
// module, as the console allows) never makes one wait: the figures are the calls, not the limiter.
//
// Environment knobs: BENCH_MCP_STARTS=5, BENCH_MCP_CALLS=100, BENCH_MCP_GAP_MS=60, BENCH_MCP_WARM=30, BENCH_MCP_BLOCKS=10.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { bundleForNode, f1, f2, live, log, median } from './lib.mjs';
import { mcpCfWorkerValidator } from '../scripts/mcpBundle.mjs';

/**
 * The core side: the console client's own list call in one long-lived process of its own (warm
 * like the server, which serves every block), the same page and pacing as the MCP calls. Warms up
 * as the server is warmed, then runs a block of calls for each line read on stdin and prints its
 * timings as one JSON line.
 */
const CORE_CHILD = `
import { createInterface } from 'node:readline';
import { createConsoleClient } from './src/core/console/index';
const env = process.env;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function main(): Promise<void> {
  const client = createConsoleClient({ baseUrl: env.STRATUS_CONSOLE_BASE_URL ?? '', pat: { id: async () => env.STRATUS_PAT_ID, secret: async () => env.STRATUS_PAT_SECRET } });
  const limit = Number(env.BENCH_LIMIT);
  const gap = Number(env.BENCH_GAP_MS);
  const page = () => client.list('virtualMachines', { limit, offset: 0 });
  for (let i = 0; i < Number(env.BENCH_WARM); i++) { await page(); await sleep(gap); }
  process.stdout.write('ready\\n');
  for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim() === 'end') break;
    const ms: number[] = [];
    for (let i = 0; i < Number(line); i++) {
      await sleep(gap);
      const t0 = performance.now();
      const items = (await page()).items;
      if (items.length !== limit) throw new Error('short page');
      ms.push(performance.now() - t0);
    }
    process.stdout.write(JSON.stringify(ms) + '\\n');
  }
  await client.close();
}
main().catch((error: unknown) => { process.stderr.write(String(error) + '\\n'); process.exit(1); });
`;

/** The core child started once; `block(n)` runs n timed calls in it. */
function startCoreChild(file, childEnv) {
  const child = spawn(process.execPath, [file], { env: childEnv, stdio: ['pipe', 'pipe', 'pipe'] });
  live.add(child);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`the core child ended: ${stderr.slice(-500)}`);
    return value;
  };
  return {
    ready: next,
    block: async (n) => {
      child.stdin.write(`${n}\n`);
      return JSON.parse(await next());
    },
    close: async () => {
      child.stdin.end('end\n');
      await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
      live.delete(child);
    },
  };
}

const env = process.env;
const int = (v, d, min = 1) => (v !== undefined && v !== '' ? Math.max(min, Math.floor(Number(v))) : d);
const STARTS = int(env.BENCH_MCP_STARTS, 5);
const CALLS = int(env.BENCH_MCP_CALLS, 100, 10);
const GAP_MS = int(env.BENCH_MCP_GAP_MS, 60, 0);
const GOAL = 1.3;
const PAGE = { kind: 'virtualMachines', limit: 50 };
const WARM = int(env.BENCH_MCP_WARM, 30);
const BLOCKS = int(env.BENCH_MCP_BLOCKS, 10);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** @param {number[]} xs @param {number} q */
function quantile(xs, q) {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
}

export async function runMcpBench() {
  const tmp = mkdtempSync(join(tmpdir(), 'stratus-bench-mcp-'));
  /** @type {Array<() => Promise<void>>} */
  const closers = [];
  try {
    const serverFile = await bundleForNode(join(tmp, 'mcp.js'), { entry: 'src/mcp/main.ts' }, [mcpCfWorkerValidator]);
    const helpers = await bundleForNode(join(tmp, 'helpers.cjs'), {
      contents: "export { startSandbox } from './test/sandbox/index';\n",
    });
    const { startSandbox } = createRequire(import.meta.url)(helpers);
    const sb = await startSandbox({ port: 0, profile: 'contract', vmCount: 200 });
    closers.push(() => sb.close());
    const serverEnv = { ...getDefaultEnvironment(), STRATUS_CONSOLE_BASE_URL: sb.consoleUrl, STRATUS_PAT_ID: sb.credentials.patId, STRATUS_PAT_SECRET: sb.credentials.patSecret };

    /** Starts the server and lists its tools; resolves with the client and the time it took. */
    const start = async () => {
      const t0 = performance.now();
      const transport = new StdioClientTransport({ command: process.execPath, args: [serverFile], env: serverEnv, stderr: 'ignore' });
      const client = new Client({ name: 'stratus-bench', version: '1.0.0' });
      await client.connect(transport);
      const { tools } = await client.listTools();
      const ms = performance.now() - t0;
      if (tools.length < 6) throw new Error(`the server listed ${tools.length} tools`);
      return { client, ms };
    };

    const startMs = [];
    for (let i = 0; i < STARTS; i++) {
      const { client, ms } = await start();
      startMs.push(ms);
      await client.close();
    }

    const { client } = await start();
    closers.push(() => client.close());
    const coreFile = await bundleForNode(join(tmp, 'coreLists.cjs'), { contents: CORE_CHILD });
    const core = startCoreChild(coreFile, { ...serverEnv, BENCH_WARM: String(WARM), BENCH_GAP_MS: String(GAP_MS), BENCH_LIMIT: String(PAGE.limit) });
    closers.push(() => core.close());
    const perBlock = Math.ceil(CALLS / BLOCKS);
    const mcpMs = [];
    const coreMs = [];
    const pairRatios = [];
    // Warm both sides alike (sign-in, path proof, connection, JIT) before timing.
    for (let i = 0; i < WARM; i++) {
      await client.callTool({ name: 'list_resources', arguments: PAGE });
      await sleep(GAP_MS);
    }
    if ((await core.ready()) !== 'ready') throw new Error('the core child did not start');
    const mcpBlock = async () => {
      const ms = [];
      for (let i = 0; i < perBlock; i++) {
        await sleep(GAP_MS);
        const t0 = performance.now();
        const result = await client.callTool({ name: 'list_resources', arguments: PAGE });
        if (result.isError) throw new Error(`list_resources failed: ${JSON.stringify(result.content).slice(0, 200)}`);
        ms.push(performance.now() - t0);
      }
      return ms;
    };
    for (let block = 0; block < BLOCKS; block++) {
      let mcp;
      let coreBlock;
      if (block % 2 === 0) {
        mcp = await mcpBlock();
        coreBlock = await core.block(perBlock);
      } else {
        coreBlock = await core.block(perBlock);
        mcp = await mcpBlock();
      }
      mcpMs.push(...mcp);
      coreMs.push(...coreBlock);
      pairRatios.push(median(mcp) / median(coreBlock));
    }
    const ratio = median(pairRatios);
    let bytes = NaN;
    try {
      bytes = statSync(join('dist', 'mcp.js')).size;
    } catch {
      // Not built: `npm run build` (or `npm run package`) writes it.
    }
    log(`MCP server over stdio (${STARTS} starts, ${WARM} warm-up and ${perBlock * BLOCKS} timed list calls of ${PAGE.limit} VMs a side, ${GAP_MS} ms apart; sandbox in process)`);
    log(`  start to tools listed   median ${f1(median(startMs))} ms`);
    log(`  list_resources (MCP)    median ${f2(median(mcpMs))} ms, p95 ${f2(quantile(mcpMs, 0.95))} ms`);
    log(`  core client list        median ${f2(median(coreMs))} ms, p95 ${f2(quantile(coreMs, 0.95))} ms`);
    log(`  MCP / core              ${f2(ratio)} (median of ${BLOCKS} paired blocks; goal <= ${GOAL}: ${ratio <= GOAL ? 'PASS' : 'FAIL'}; of all calls' medians ${f2(median(mcpMs) / median(coreMs))})`);
    if (Number.isFinite(bytes)) log(`  dist/mcp.js             ${(bytes / 1024).toFixed(1)} KB`);
    log('');
    log(`ratio mcp/core.listResources ${f2(ratio)}`);
    log(`metric mcp.startMs ${f1(median(startMs))}`);
    log(`metric mcp.listP95Ms ${f2(quantile(mcpMs, 0.95))}`);
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runMcpBench().catch((error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exitCode = 1;
  });
}
