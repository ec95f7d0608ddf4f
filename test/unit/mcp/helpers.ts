import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import * as esbuild from 'esbuild';
import { mcpCfWorkerValidator } from '../../../scripts/mcpBundle.mjs';
import type { Sandbox } from '../../sandbox/index';
import { Fixtures } from '../console/helpers';

/** The server bundled once per run, as scripts/build.mjs bundles dist/mcp.js. */
let bundled: { dir: string; file: string } | undefined;

export async function buildServer(): Promise<string> {
  if (bundled) return bundled.file;
  const dir = mkdtempSync(join(tmpdir(), 'stratus-mcp-'));
  const file = join(dir, 'mcp.js');
  await esbuild.build({ entryPoints: ['src/mcp/main.ts'], outfile: file, bundle: true, platform: 'node', format: 'cjs', target: 'node20', plugins: [mcpCfWorkerValidator], logLevel: 'error' });
  bundled = { dir, file };
  return file;
}

export function removeBuiltServer(): void {
  if (bundled) rmSync(bundled.dir, { recursive: true, force: true });
  bundled = undefined;
}

export interface Session {
  client: Client;
  /** Everything the server printed: every protocol message it sent (stdout) and its stderr. */
  printed(): string;
  stderr(): string;
  call(name: string, args?: Record<string, unknown>, onprogress?: (p: { progress: number; message?: string }) => void): Promise<CallToolResult>;
  close(): Promise<void>;
}

export interface SessionOptions {
  args?: string[];
  env?: Record<string, string>;
  /** How the client answers an elicitation; absent: the client has no elicitation capability. */
  elicit?: (message: string) => ElicitResult;
}

/** The sandbox's console and demo PAT as the server's environment. */
export function sandboxEnv(sb: Sandbox, pat = { id: sb.credentials.patId, secret: sb.credentials.patSecret }): Record<string, string> {
  return { STRATUS_CONSOLE_BASE_URL: sb.consoleUrl, STRATUS_PAT_ID: pat.id, STRATUS_PAT_SECRET: pat.secret };
}

/** Starts `node mcp.js` and connects the SDK's own client to it over stdio. */
export async function startSession(options: SessionOptions = {}): Promise<Session> {
  const file = await buildServer();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [file, '--poll-ms', '5', '--timeout-seconds', '2', ...(options.args ?? [])],
    env: { ...getDefaultEnvironment(), ...(options.env ?? {}) },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'stratus-test', version: '1.0.0' }, { capabilities: options.elicit ? { elicitation: {} } : {} });
  if (options.elicit) {
    const answer = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, (request) => answer(request.params.message));
  }
  const printed: string[] = [];
  const errText: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => {
    errText.push(chunk.toString('utf8'));
    printed.push(chunk.toString('utf8'));
  });
  await client.connect(transport);
  const onmessage = transport.onmessage;
  transport.onmessage = (message) => {
    printed.push(JSON.stringify(message));
    onmessage?.(message);
  };
  return {
    client,
    printed: () => printed.join('\n'),
    stderr: () => errText.join(''),
    call: async (name, args = {}, onprogress) =>
      (await client.callTool({ name, arguments: args }, undefined, { timeout: 30_000, ...(onprogress ? { onprogress } : {}) })) as CallToolResult,
    close: () => client.close(),
  };
}

export function text(result: CallToolResult): string {
  const first = result.content[0];
  return first && first.type === 'text' ? first.text : '';
}

export function data<T = Record<string, unknown>>(result: CallToolResult): T {
  if (result.isError) throw new Error(`tool error: ${text(result)}`);
  return JSON.parse(text(result)) as T;
}

/**
 * The sandboxes and server sessions of one `describe`: opened through `open`, all closed after each
 * test, and the bundled server removed after the suite.
 */
export function useSessions(): { fx: Fixtures; open: (...args: Parameters<typeof startSession>) => Promise<Session> } {
  const fx = new Fixtures();
  const sessions: Session[] = [];
  afterEach(async () => {
    for (const s of sessions.splice(0)) await s.close();
    await fx.closeAll();
  });
  after(() => removeBuiltServer());
  return {
    fx,
    open: async (...args) => {
      const s = await startSession(...args);
      sessions.push(s);
      return s;
    },
  };
}
