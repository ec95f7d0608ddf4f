import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createConsoleClient, type ConsoleClient } from '../core/console';
import { DEFAULT_CATALOG } from '../core/console/catalog/builtInKinds';
import { ValidationError } from '../core/errors';
import { isPlainHttpToRemoteHost } from '../core/http/plainHttp';
import { Redactor } from '../core/http/redact';
import { DirectToolCalls } from './directCalls';
import { connectWithDirectDispatch, parseToolCallsOnce, type DispatchCounts } from './dispatch';
import { ENV, type McpOptions } from './options';
import { registerReadTools } from './readTools';
import { registerUsageTool } from './usageTool';
import { registerWriteTools } from './writeTools';
import { errorResult, type ToolKit } from './toolKit';

export const SERVER_NAME = 'stratus-console';
export const SERVER_VERSION = '1.0.0';

export interface StratusMcp {
  readonly server: McpServer;
  readonly client: ConsoleClient | undefined;
  /** What is wrong with the setup (said on every call), if anything. */
  readonly setupProblem: string | undefined;
  readonly redactor: Redactor;
  /** Serves on the transport; each request goes straight to its handler (dispatch.ts). */
  connect(transport: Transport, counts?: DispatchCounts): Promise<void>;
  close(): Promise<void>;
}

/** Why the server cannot reach the console as configured, or undefined. */
function setupProblemOf(options: McpOptions): string | undefined {
  if (options.problems.length) return `The server's flags or environment are wrong: ${options.problems.join(' ')} Fix them in the host's server configuration and restart the server.`;
  if (!options.baseUrl) return `${ENV.baseUrl} is not set: set it (the console root, e.g. https://console.example.eu) in the server's environment and restart the server.`;
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    return `${ENV.baseUrl} is not a URL: set it to the console root (https://...) and restart the server.`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `${ENV.baseUrl} must start with https:// (the console root); restart the server after fixing it.`;
  if (isPlainHttpToRemoteHost(url) && !options.allowPlainHttp) {
    return `Refused: ${ENV.baseUrl} is plain http to ${url.host}, which would send the access token unencrypted. Use https, or restart the server with --allow-plain-http if that network is trusted.`;
  }
  if (!options.patId || !options.patSecret) return `No personal access token: set ${ENV.patId} and ${ENV.patSecret} in the server's environment (in VS Code: Stratus: Sign In to Console) and restart the server.`;
  return undefined;
}

/** The server with its tools over one console client; connect it to a transport to serve. */
export function createStratusMcp(options: McpOptions, now: () => number = Date.now): StratusMcp {
  const redactor = new Redactor();
  // Every secret is known to the redactor before anything can print.
  redactor.add(options.patId);
  redactor.add(options.patSecret);
  for (const value of Object.values(options.secretHeaders)) redactor.add(value);
  const setupProblem = setupProblemOf(options);
  let client: ConsoleClient | undefined;
  if (!setupProblem && options.baseUrl) {
    const { patId, patSecret } = options;
    client = createConsoleClient({
      baseUrl: options.baseUrl,
      pat: { id: () => Promise.resolve(patId), secret: () => Promise.resolve(patSecret) },
      redactor,
      userAgent: `stratus-mcp/${SERVER_VERSION}`,
      timeouts: { firstByteMs: options.timeoutMs, idleMs: options.timeoutMs },
      follow: { initialDelayMs: options.pollMs },
      gatewayHeaders: () => Promise.resolve({ ...options.headers, ...options.secretHeaders }),
      // The one door for plain http: no secret leaves for a remote host unencrypted (also after a redirect).
      beforeSecretSent: (url) => {
        if (isPlainHttpToRemoteHost(url) && !options.allowPlainHttp) {
          return Promise.reject(new ValidationError(`plain http to ${url.host} is refused (use https, or --allow-plain-http)`, ENV.baseUrl));
        }
        return Promise.resolve();
      },
    });
  }
  const kit: ToolKit = { client, setupProblem, options, redact: (text) => redactor.redact(text), now };
  const server = new McpServer(
    { name: SERVER_NAME, title: 'Stratus cloud console', version: SERVER_VERSION },
    {
      // No capabilities here: the first registerTool declares tools (listChanged, as declaring them
      // here did) and registers McpServer's tools/call handler, after parseToolCallsOnce (dispatch.ts).
      instructions: `Tools for the Stratus cloud console: list resource kinds, list and read resources and activities${options.allowWrites ? ', and create, modify, power on/off and delete resources (each write starts an activity; pass wait: true to follow it)' : ' (read-only: writes are off)'}. Start with list_resource_kinds.`,
    },
  );
  const kindIds = (client?.catalog.kinds ?? DEFAULT_CATALOG).map((k) => k.id);
  // Before the first tool: McpServer registers its tools/call handler with it (dispatch.ts).
  parseToolCallsOnce(server.server);
  // The read tools (no progress, no question to the user) are answered on the direct path.
  const directTools = registerReadTools(server, kit, kindIds);
  if (options.allowWrites) registerWriteTools(server, kit, kindIds);
  directTools.set('get_usage', registerUsageTool(server, kit));
  // A tool error McpServer makes of a message (a handler that threw, an unknown tool, refused
  // arguments) is redacted as the tools' own errors are; the direct path makes the same (not in
  // McpServer's typings: if a later SDK renames it, its own stays, and every tool is guarded).
  const toolError = (message: string): CallToolResult => errorResult(kit, message);
  const sdkErrors = server as unknown as { createToolError?: unknown };
  if (typeof sdkErrors.createToolError === 'function') sdkErrors.createToolError = toolError;
  return {
    server,
    client,
    setupProblem,
    redactor,
    connect: async (transport, counts) => {
      const direct = new DirectToolCalls(server.server, transport, toolError);
      for (const [name, tool] of directTools) direct.add(name, tool);
      await connectWithDirectDispatch(server.server, transport, counts, direct);
    },
    close: async () => {
      await server.close();
      await client?.close();
    },
  };
}
