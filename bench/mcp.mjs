// The MCP server benchmark (issue 43): the console's tools over stdio, as another agent's host runs
// them. Runs alone (`node bench/mcp.mjs`) or in `npm run bench` (bench/run.mjs; BENCH_SKIP_MCP=1
// leaves it out). Prints:
//   metric mcp.startMs            process start to tools listed (median over the starts)
//   metric mcp.listP95Ms          list_resources (a page of 50 VMs) round trip over stdio, p95
//   ratio mcp/core.listResources  the MCP round trip against the core client's own list call, medians (goal <= 1.3)
//   ratio mcpFloor/core.listResources  the floor of ANY stdio tool server for this call against the core call
//   ratio mcp/mcpFloor.listResources   what our server and the SDK (both ends) add on top of that floor
//   ratio mcpSdkFloor/core.listResources  the same bare child driven by the SDK's client, as the
//                                      server is: the least any stdio server costs under that client
//   ratio mcp/mcpSdkFloor.listResources   what our server alone adds, both under the SDK's client
//   ratio mcp/core.listResources.console20ms  the first ratio with the console 20 ms away
// The floor is a bare Node child (no SDK, none of the MCP server's code but compactResource, so its
// answer is the same bytes) that reads one JSON-RPC line, makes the same core list call and writes
// the tool's compact answer as a JSON-RPC result line; it is timed from this process as the MCP
// side is (write the request, read and parse the answer line), paced alike, in the same blocks.
// A second floor child also answers initialize and tools/list (the least an SDK client needs) and
// is driven by the SDK's Client, as the server is: the sdkFloor side.
// The sandbox runs in this process; the server in its child process, and the core client's
// calls in one long-lived child process of their own (bench/mcp.mjs bundles it), so both sides
// cross a process boundary to reach the sandbox, are warmed alike and stay warm, and differ only
// by what MCP adds (stdio, the SDK, the tool's compaction and redaction). Both sides are warmed with
// BENCH_MCP_WARM calls (the SDK's zod paths and the console client need more than a few to be
// compiled), then run in BENCH_MCP_BLOCKS sets of blocks (MCP, floor, core), the order turning with
// each set; each ratio is the median over the sets of one side's median call over the other's,
// so a change of load during the run weighs on all sides of a set alike. The CPU each child
// (server, floor) spent per timed call is read from /proc where there is one. Calls are paced (BENCH_MCP_GAP_MS apart, both sides alike) so the client-side rate limiter (25 r/s per
// module, as the console allows) never makes one wait: the figures are the calls, not the limiter.
//
// Then the same, fewer blocks, with the sandbox's console answering BENCH_MCP_CONSOLE_MS (20) later, as a
// console across a network does: `ratio mcp/core.listResources.console20ms` (the name carries the
// delay). The sandbox in this process answers a list in ~1.5 ms, so the first ratio weighs what MCP
// adds (two more process hops, ~0.25 ms each on these VMs: the floor) against a call no real
// console is that close for; the second weighs it against a near one.
//
// Environment knobs: BENCH_MCP_STARTS=5, BENCH_MCP_CALLS=100, BENCH_MCP_GAP_MS=60, BENCH_MCP_WARM=30, BENCH_MCP_BLOCKS=10,
// BENCH_MCP_CONSOLE_MS=20 (0: no second measure), BENCH_MCP_CONSOLE_BLOCKS=4,
// BENCH_MCP_SERVER_NODE_ARGS (Node flags for the timed server, e.g. --cpu-prof --cpu-prof-dir=DIR),
// BENCH_MCP_FLOOR_NODE_ARGS (the same for the floor child, to compare the two profiles).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { bundleForNode, processCpuMs, f1, f2, live, log, median, verdict } from './lib.mjs';
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

/**
 * The floor side: what any stdio tool server must do for this call and no more. One JSON-RPC
 * request line in, the same core list call, the tool's compact answer (the same bytes as
 * list_resources returns: compactResource) JSON-stringified into one JSON-RPC result line out.
 */
const FLOOR_CHILD = `
import { createInterface } from 'node:readline';
import { createConsoleClient } from './src/core/console/index';
import { compactResource } from './src/mcp/records';
const env = process.env;
const client = createConsoleClient({ baseUrl: env.STRATUS_CONSOLE_BASE_URL ?? '', pat: { id: async () => env.STRATUS_PAT_ID, secret: async () => env.STRATUS_PAT_SECRET } });
createInterface({ input: process.stdin }).on('line', (line) => {
  const request = JSON.parse(line) as { id?: number; method: string; params: { protocolVersion?: string; arguments: { kind: string; limit: number } } };
  const answer = (result: unknown) => process.stdout.write(JSON.stringify({ result, jsonrpc: '2.0', id: request.id }) + '\\n');
  // The least an SDK client needs before its first call (the sdkFloor side); notifications need nothing.
  if (request.method === 'initialize') return answer({ protocolVersion: request.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'floor', version: '1.0.0' } });
  if (request.id === undefined) return;
  if (request.method === 'tools/list') return answer({ tools: [{ name: 'list_resources', inputSchema: { type: 'object' } }] });
  const { kind, limit } = request.params.arguments;
  client.list(kind, { limit, offset: 0 }).then(
    (page) => {
      const text = JSON.stringify({ kind, items: page.items.slice(0, limit).map((item) => compactResource(client.catalog, kind, item)), ...(page.total !== undefined ? { total: page.total } : {}), ...(page.nextOffset !== undefined ? { nextOffset: page.nextOffset } : {}) });
      answer({ content: [{ type: 'text', text }] });
    },
    (error: unknown) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: request.id, error: { code: -32603, message: String(error) } }) + '\\n'),
  );
});
`;

/** The floor child: `call(args)` sends one tools/call line and resolves with the parsed answer line. */
function startFloorChild(file, childEnv, nodeArgs = []) {
  const child = spawn(process.execPath, [...nodeArgs, file], { env: childEnv, stdio: ['pipe', 'pipe', 'ignore'] });
  live.add(child);
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let id = 0;
  return {
    pid: child.pid,
    async call(args) {
      const mine = ++id;
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: mine, method: 'tools/call', params: { name: 'list_resources', arguments: args } })}\n`);
      const { value, done } = await lines.next();
      if (done) throw new Error('the floor child ended');
      const message = JSON.parse(value);
      if (message.id !== mine || !message.result) throw new Error(`the floor child failed: ${value.slice(0, 200)}`);
      return message.result;
    },
    // Its stdin closed, the child ends by itself (and writes its profile, if asked); killed after 2 s.
    close: async () => {
      child.stdin.end();
      const ended = new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
      await Promise.race([ended, sleep(2000)]);
      child.kill();
      live.delete(child);
    },
  };
}


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
const CONSOLE_MS = int(env.BENCH_MCP_CONSOLE_MS, 20, 0);
const CONSOLE_BLOCKS = int(env.BENCH_MCP_CONSOLE_BLOCKS, 4);
// Node flags for the timed server only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it.
const SERVER_NODE_ARGS = (env.BENCH_MCP_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
const FLOOR_NODE_ARGS = (env.BENCH_MCP_FLOOR_NODE_ARGS ?? '').split(' ').filter(Boolean);

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
    const start = async (nodeArgs = []) => {
      const t0 = performance.now();
      const transport = new StdioClientTransport({ command: process.execPath, args: [...nodeArgs, serverFile], env: serverEnv, stderr: 'ignore' });
      const client = new Client({ name: 'stratus-bench', version: '1.0.0' });
      await client.connect(transport);
      const { tools } = await client.listTools();
      const ms = performance.now() - t0;
      if (tools.length < 6) throw new Error(`the server listed ${tools.length} tools`);
      return { client, ms, pid: transport.pid };
    };

    const startMs = [];
    for (let i = 0; i < STARTS; i++) {
      const { client, ms } = await start();
      startMs.push(ms);
      await client.close();
    }

    const { client, pid: serverPid } = await start(SERVER_NODE_ARGS);
    closers.push(() => client.close());
    const coreFile = await bundleForNode(join(tmp, 'coreLists.cjs'), { contents: CORE_CHILD });
    const core = startCoreChild(coreFile, { ...serverEnv, BENCH_WARM: String(WARM), BENCH_GAP_MS: String(GAP_MS), BENCH_LIMIT: String(PAGE.limit) });
    closers.push(() => core.close());
    const floorFile = await bundleForNode(join(tmp, 'floor.cjs'), { contents: FLOOR_CHILD });
    const floor = startFloorChild(floorFile, serverEnv, FLOOR_NODE_ARGS);
    closers.push(() => floor.close());
    // The same bare child driven by the SDK's client, as the server is: the least any stdio
    // server can cost for this call under that client.
    const sdkFloorTransport = new StdioClientTransport({ command: process.execPath, args: [floorFile], env: serverEnv, stderr: 'ignore' });
    const sdkFloor = new Client({ name: 'stratus-bench', version: '1.0.0' });
    await sdkFloor.connect(sdkFloorTransport);
    closers.push(() => sdkFloor.close());
    const perBlock = Math.ceil(CALLS / BLOCKS);
    const mcpMs = [];
    const coreMs = [];
    const floorMs = [];
    const sdkFloorMs = [];
    const pairRatios = [];
    const floorRatios = [];
    const overFloorRatios = [];
    const sdkFloorRatios = [];
    const overSdkFloorRatios = [];
    // Warm all sides alike (sign-in, path proof, connection, JIT) before timing.
    for (let i = 0; i < WARM; i++) {
      await client.callTool({ name: 'list_resources', arguments: PAGE });
      await sleep(GAP_MS);
      await floor.call(PAGE);
      await sleep(GAP_MS);
      await sdkFloor.callTool({ name: 'list_resources', arguments: PAGE });
      await sleep(GAP_MS);
    }
    if ((await core.ready()) !== 'ready') throw new Error('the core child did not start');
    const mcpBlock = async (via = client) => {
      const ms = [];
      for (let i = 0; i < perBlock; i++) {
        await sleep(GAP_MS);
        const t0 = performance.now();
        const result = await via.callTool({ name: 'list_resources', arguments: PAGE });
        if (result.isError) throw new Error(`list_resources failed: ${JSON.stringify(result.content).slice(0, 200)}`);
        ms.push(performance.now() - t0);
      }
      return ms;
    };
    // The floor side, timed as the MCP side is: from the request written to the answer parsed.
    const floorBlock = async () => {
      const ms = [];
      for (let i = 0; i < perBlock; i++) {
        await sleep(GAP_MS);
        const t0 = performance.now();
        await floor.call(PAGE);
        ms.push(performance.now() - t0);
      }
      return ms;
    };
    // The four sides of a block run in an order that turns with each block (each side goes first,
    // second, third and last in turn, forwards, then backwards), so no side always follows the same one.
    let serverCpu = 0;
    let floorCpu = 0;
    const SIDES = ['mcp', 'sdkFloor', 'floor', 'core'];
    const orderOf = (block) => {
      const turned = SIDES.map((_, i) => SIDES[(i + block) % SIDES.length]);
      return Math.floor(block / SIDES.length) % 2 === 1 ? turned.reverse() : turned;
    };
    for (let block = 0; block < BLOCKS; block++) {
      /** @type {{ mcp: number[], sdkFloor: number[], floor: number[], core: number[] }} */
      const got = { mcp: [], sdkFloor: [], floor: [], core: [] };
      for (const side of orderOf(block)) {
        if (side === 'mcp') {
          const cpu0 = processCpuMs(serverPid);
          got.mcp = await mcpBlock();
          serverCpu += processCpuMs(serverPid) - cpu0;
        } else if (side === 'floor') {
          const cpu0 = processCpuMs(floor.pid);
          got.floor = await floorBlock();
          floorCpu += processCpuMs(floor.pid) - cpu0;
        } else if (side === 'sdkFloor') got.sdkFloor = await mcpBlock(sdkFloor);
        else got.core = await core.block(perBlock);
      }
      const { mcp, sdkFloor: sdkFloorBlock, floor: floorBlockMs, core: coreBlock } = got;
      mcpMs.push(...mcp);
      coreMs.push(...coreBlock);
      floorMs.push(...floorBlockMs);
      sdkFloorMs.push(...sdkFloorBlock);
      pairRatios.push(median(mcp) / median(coreBlock));
      floorRatios.push(median(floorBlockMs) / median(coreBlock));
      overFloorRatios.push(median(mcp) / median(floorBlockMs));
      sdkFloorRatios.push(median(sdkFloorBlock) / median(coreBlock));
      overSdkFloorRatios.push(median(mcp) / median(sdkFloorBlock));
    }
    // The same calls with the console farther away (MCP and core only: what a user's call costs).
    let consoleRatio = NaN;
    if (CONSOLE_MS > 0) {
      sb.control.setLatency({ ms: CONSOLE_MS, pathPrefix: '/api/compute' });
      const far = [];
      for (let block = 0; block < CONSOLE_BLOCKS; block++) {
        const first = block % 2 === 0;
        const coreFirst = first ? await core.block(perBlock) : undefined;
        const mcp = await mcpBlock();
        const coreBlock = coreFirst ?? (await core.block(perBlock));
        far.push(median(mcp) / median(coreBlock));
      }
      sb.control.setLatency(null);
      consoleRatio = median(far);
    }
    const ratio = median(pairRatios);
    const floorRatio = median(floorRatios);
    const overFloorRatio = median(overFloorRatios);
    const sdkFloorRatio = median(sdkFloorRatios);
    const overSdkFloorRatio = median(overSdkFloorRatios);
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
    log(`  floor (bare stdio tool) median ${f2(median(floorMs))} ms, p95 ${f2(quantile(floorMs, 0.95))} ms`);
    log(`  MCP / core              ${f2(ratio)} (median of ${BLOCKS} paired blocks; goal <= ${GOAL}: ${ratio <= GOAL ? 'PASS' : 'FAIL'}; of all calls' medians ${f2(median(mcpMs) / median(coreMs))})`);
    log(`  floor / core            ${f2(floorRatio)} (what any stdio tool server costs for this call; of all calls' medians ${f2(median(floorMs) / median(coreMs))})`);
    log(`  child CPU per call      server ${f2(serverCpu / mcpMs.length)} ms, floor ${f2(floorCpu / floorMs.length)} ms (from /proc, 10 ms ticks over the timed calls)`);
    log(`  MCP / floor             ${f2(overFloorRatio)} (what our server and the SDK add on top; of all calls' medians ${f2(median(mcpMs) / median(floorMs))})`);
    log(`  SDK client, bare server median ${f2(median(sdkFloorMs))} ms: / core ${f2(sdkFloorRatio)} (the least any stdio server costs under the SDK's client); MCP / it ${f2(overSdkFloorRatio)} (what our server adds)`);
    if (Number.isFinite(bytes)) log(`  dist/mcp.js             ${(bytes / 1024).toFixed(1)} KB`);
    if (Number.isFinite(consoleRatio)) log(`  console ${CONSOLE_MS} ms away    MCP / core ${f2(consoleRatio)} (median of ${CONSOLE_BLOCKS} paired blocks of ${perBlock} calls)`);
    log('');
    log(`ratio mcp/core.listResources ${f2(ratio)} (goal <= ${GOAL}) ${verdict(Number.isFinite(ratio) ? ratio <= GOAL : undefined)}`);
    log(`ratio mcpFloor/core.listResources ${f2(floorRatio)}`);
    log(`ratio mcp/mcpFloor.listResources ${f2(overFloorRatio)}`);
    log(`ratio mcpSdkFloor/core.listResources ${f2(sdkFloorRatio)}`);
    log(`ratio mcp/mcpSdkFloor.listResources ${f2(overSdkFloorRatio)}`);
    if (Number.isFinite(consoleRatio)) log(`ratio mcp/core.listResources.console${CONSOLE_MS}ms ${f2(consoleRatio)} (the console ${CONSOLE_MS} ms away; goal <= ${GOAL}) ${verdict(consoleRatio <= GOAL)}`);
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
