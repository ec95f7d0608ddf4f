// Where the MCP round trip's time goes (issue 43): `node bench/mcpBreakdown.mjs` (under
// `flock /tmp/stratus-heavy.lock`). The same list_resources call (a page of 50 VMs from the sandbox)
// four ways, interleaved call by call and paced like bench/mcp.mjs:
//   sdk     the MCP SDK's own client over stdio (what bench/mcp.mjs times)
//   rawRpc  a second server process driven with bare JSON-RPC lines: no SDK client, no result check
//   echo    a bare Node process over stdio that answers each line with the same answer bytes: the
//           floor of stdio framing and JSON parse/serialize on both sides for this payload
//   core    the console client's own list call in a child process (bench/mcp.mjs' core side)
// sdk - rawRpc is the client's (the agent's) share; rawRpc - core - echo is the server's own work
// beyond the core call. Child CPU per call is read from /proc (clock ticks, averaged over the calls).
// Knobs: BENCH_MCPB_CALLS=100, BENCH_MCPB_GAP_MS=60.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { bundleForNode, processCpuMs, f2, live, log, median, runMain } from './lib.mjs';
import { mcpCfWorkerValidator } from '../scripts/mcpBundle.mjs';

const env = process.env;
const CALLS = Math.max(10, Number(env.BENCH_MCPB_CALLS ?? 100));
const GAP_MS = Math.max(0, Number(env.BENCH_MCPB_GAP_MS ?? 60));
const PAGE = { kind: 'virtualMachines', limit: 50 };
const WARM = 40;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const CORE_CHILD = `
import { createInterface } from 'node:readline';
import { createConsoleClient } from './src/core/console/index';
const env = process.env;
const client = createConsoleClient({ baseUrl: env.STRATUS_CONSOLE_BASE_URL ?? '', pat: { id: async () => env.STRATUS_PAT_ID, secret: async () => env.STRATUS_PAT_SECRET } });
createInterface({ input: process.stdin }).on('line', async (line) => {
  const page = await client.list('virtualMachines', { limit: 50, offset: 0 });
  process.stdout.write(JSON.stringify({ id: JSON.parse(line).id, n: page.items.length }) + '\\n');
});
`;


/** A child spoken to in lines of JSON; `call` resolves with the parsed answer to its request. */
function lineChild(file, childEnv) {
  const child = spawn(process.execPath, [file], { env: childEnv, stdio: ['pipe', 'pipe', 'ignore'] });
  live.add(child);
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let id = 0;
  return {
    pid: child.pid,
    async call(method, params) {
      const mine = ++id;
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: mine, method, params })}\n`);
      for (;;) {
        const { value, done } = await lines.next();
        if (done) throw new Error(`${file} ended`);
        const message = JSON.parse(value);
        if (message.id === mine) return message;
      }
    },
    notify(method, params) {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method, params })}\n`);
    },
    close() {
      child.kill();
      live.delete(child);
    },
  };
}

async function main() {
  const tmp = mkdtempSync(join(tmpdir(), 'stratus-bench-mcpb-'));
  const closers = [];
  try {
    const serverFile = await bundleForNode(join(tmp, 'mcp.js'), { entry: 'src/mcp/main.ts' }, [mcpCfWorkerValidator]);
    const helpers = await bundleForNode(join(tmp, 'helpers.cjs'), { contents: "export { startSandbox } from './test/sandbox/index';\n" });
    const { startSandbox } = createRequire(import.meta.url)(helpers);
    const sb = await startSandbox({ port: 0, profile: 'contract', vmCount: 200 });
    closers.push(() => sb.close());
    const serverEnv = { ...getDefaultEnvironment(), STRATUS_CONSOLE_BASE_URL: sb.consoleUrl, STRATUS_PAT_ID: sb.credentials.patId, STRATUS_PAT_SECRET: sb.credentials.patSecret };

    const transport = new StdioClientTransport({ command: process.execPath, args: [serverFile], env: serverEnv, stderr: 'ignore' });
    const client = new Client({ name: 'stratus-bench', version: '1.0.0' });
    await client.connect(transport);
    closers.push(() => client.close());

    const rpc = lineChild(serverFile, serverEnv);
    closers.push(async () => rpc.close());
    await rpc.call('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'stratus-bench-raw', version: '1.0.0' } });
    rpc.notify('notifications/initialized', {});
    const sample = await rpc.call('tools/call', { name: 'list_resources', arguments: PAGE });
    if (!sample.result || sample.result.isError) throw new Error(`list_resources failed: ${JSON.stringify(sample).slice(0, 200)}`);
    const answer = JSON.stringify(sample);

    const echoFile = join(tmp, 'echo.cjs');
    writeFileSync(echoFile, `const answer = JSON.parse(${JSON.stringify(answer)});
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => { answer.id = JSON.parse(line).id; process.stdout.write(JSON.stringify(answer) + '\\n'); });\n`);
    const echo = lineChild(echoFile, {});
    closers.push(async () => echo.close());

    const core = lineChild(await bundleForNode(join(tmp, 'core.cjs'), { contents: CORE_CHILD }), serverEnv);
    closers.push(async () => core.close());

    const sides = {
      sdk: { pid: transport.pid, call: () => client.callTool({ name: 'list_resources', arguments: PAGE }) },
      rawRpc: { pid: rpc.pid, call: () => rpc.call('tools/call', { name: 'list_resources', arguments: PAGE }) },
      echo: { pid: echo.pid, call: () => echo.call('tools/call', { name: 'list_resources', arguments: PAGE }) },
      core: { pid: core.pid, call: () => core.call('list', {}) },
    };
    const names = Object.keys(sides);
    for (let i = 0; i < WARM; i++) for (const n of names) { await sides[n].call(); await sleep(GAP_MS); }
    /** @type {Record<string, { ms: number[], childCpu: number, ownCpu: number }>} */
    const figures = {};
    for (const n of names) figures[n] = { ms: [], childCpu: 0, ownCpu: 0 };
    /** @param {string} n */
    const figure = (n) => /** @type {{ ms: number[], childCpu: number, ownCpu: number }} */ (figures[n]);
    for (let i = 0; i < CALLS; i++) {
      for (const n of i % 2 ? names : [...names].reverse()) {
        await sleep(GAP_MS);
        const child0 = processCpuMs(sides[n].pid);
        const own0 = process.cpuUsage();
        const t0 = performance.now();
        await sides[n].call();
        const f = figure(n);
        f.ms.push(performance.now() - t0);
        const own = process.cpuUsage(own0);
        f.ownCpu += (own.user + own.system) / 1000;
        f.childCpu += processCpuMs(sides[n].pid) - child0;
      }
    }
    const time = (f, n = 500) => {
      for (let i = 0; i < 100; i++) f();
      const t0 = performance.now();
      for (let i = 0; i < n; i++) f();
      return (performance.now() - t0) / n;
    };
    const zodMs = time(() => CallToolResultSchema.parse(sample.result));
    const parseMs = time(() => JSON.parse(answer));

    log(`MCP round trip breakdown: list_resources, ${PAGE.limit} VMs (answer ${answer.length} bytes), ${CALLS} calls a side, interleaved, ${GAP_MS} ms apart`);
    for (const n of names) {
      const f = figure(n);
      log(`  ${n.padEnd(7)} median ${f2(median(f.ms))} ms   child CPU/call ${f2(f.childCpu / CALLS)} ms   this process (bench + sandbox) CPU/call ${f2(f.ownCpu / CALLS)} ms`);
    }
    /** @param {string} n */
    const m = (n) => median(figure(n).ms);
    log(`  the SDK client's share (sdk - rawRpc)                 ${f2(m('sdk') - m('rawRpc'))} ms (its result check alone, CallToolResultSchema.parse: ${zodMs.toFixed(3)} ms; JSON.parse of the answer ${parseMs.toFixed(3)} ms)`);
    log(`  stdio + JSON floor (echo)                             ${f2(m('echo'))} ms`);
    log(`  the server's own work beyond the core call            ${f2(m('rawRpc') - m('core') - m('echo'))} ms (rawRpc - core - echo)`);
    log(`  ratio sdk/core ${f2(m('sdk') / m('core'))}; floor (core + echo + the SDK client's share)/core ${f2((m('core') + m('echo') + m('sdk') - m('rawRpc')) / m('core'))}`);
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
  }
}

runMain(main);
