import type { RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { safeParse } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { CallToolResult, JSONRPCNotification, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Extra } from './toolKit';

/** The most arguments a direct call takes (a read tool has at most four). */
const MAX_DIRECT_ARGUMENTS = 16;

/** A JSON object that is no array. */
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Arguments of numbers, strings and booleans only (what every read tool takes), or none. Not with
 * a key `constructor` or `__proto__`: the SDK's record schema of `arguments` refuses an object whose
 * `constructor` is no constructor (a protocol error) and drops a `__proto__` key, so such arguments
 * take its path and get its answer.
 */
function plainArguments(args: unknown): boolean {
  if (args === undefined) return true;
  if (!isRecord(args)) return false;
  let n = 0;
  for (const key in args) {
    const v = args[key];
    if (++n > MAX_DIRECT_ARGUMENTS || key === 'constructor' || key === '__proto__' || (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')) return false;
  }
  return true;
}

/** A `_meta` that holds at most a progress token (the only field of a plain call's meta). */
function plainMeta(meta: unknown): boolean {
  if (meta === undefined) return true;
  if (!isRecord(meta)) return false;
  for (const key in meta) {
    const v = meta[key];
    if (key !== 'progressToken' || (typeof v !== 'string' && !(typeof v === 'number' && Number.isInteger(v)))) return false;
  }
  return true;
}

/**
 * The read tools' calls answered without the SDK's request path. The SDK parses a tools/call three
 * times (its Protocol's CallToolRequestSchema, McpServer's argument schema, asynchronously) and
 * goes through some ten promise steps between the request and the tool's handler; on a page of 50
 * resources that is as much as the server's own work. A read tool's call whose parts are all plain
 * (a name, arguments of numbers, strings and booleans, at most a progress token) is checked with
 * the tool's own argument schema (the one McpServer checks: RegisteredTool.inputSchema), run with
 * its own handler and answered as the SDK answers; with its own abort controller, which
 * notifications/cancelled and the connection's close abort, after which nothing is sent, as the
 * SDK does. Anything else (a task, other `_meta`, arguments the schema refuses, an unknown or
 * disabled tool) goes the SDK's way, so its errors are the SDK's own.
 */
export class DirectToolCalls {
  private readonly tools = new Map<string, RegisteredTool>();
  private readonly running = new Map<RequestId, AbortController>();
  /** Calls answered here (for tests). */
  answered = 0;

  constructor(
    private readonly server: Server,
    private readonly transport: Transport,
  ) {}

  /** Serves `name`'s calls here: for tools that send no progress and ask nothing of the user. */
  add(name: string, tool: RegisteredTool): void {
    this.tools.set(name, tool);
  }

  /** Answers `request` here and returns true, or returns false for the SDK to answer it. */
  tryAnswer(request: JSONRPCRequest): boolean {
    if (request.method !== 'tools/call') return false;
    const params = request.params;
    if (!isRecord(params) || typeof params.name !== 'string') return false;
    const tool = this.tools.get(params.name);
    if (!tool?.enabled || params.task !== undefined || !plainMeta(params._meta) || !plainArguments(params.arguments)) return false;
    for (const key in params) if (key !== 'name' && key !== 'arguments' && key !== '_meta') return false;
    let args: unknown;
    if (tool.inputSchema) {
      const parsed = safeParse(tool.inputSchema, params.arguments ?? {});
      if (!parsed.success) return false;
      args = parsed.data;
    }
    void this.run(request, tool, args);
    return true;
  }

  /** Aborts a call of this path that notifications/cancelled names (the SDK then finds none of its own). */
  cancel(notification: JSONRPCNotification): void {
    const id = (notification.params as { requestId?: RequestId } | undefined)?.requestId;
    if (id === undefined) return;
    const reason = (notification.params as { reason?: unknown } | undefined)?.reason;
    this.running.get(id)?.abort(reason);
  }

  /** The connection closed: every running call is aborted, as the SDK aborts its own. */
  closeAll(): void {
    for (const controller of this.running.values()) controller.abort();
    this.running.clear();
  }

  private async run(request: JSONRPCRequest, tool: RegisteredTool, args: unknown): Promise<void> {
    const controller = new AbortController();
    const id = request.id;
    this.running.set(id, controller);
    const server = this.server;
    const extra: Extra = {
      signal: controller.signal,
      sessionId: this.transport.sessionId,
      _meta: (request.params as { _meta?: Extra['_meta'] })._meta,
      requestId: id,
      sendNotification: async (notification) => {
        if (!controller.signal.aborted) await server.notification(notification, { relatedRequestId: id });
      },
      sendRequest: (r, resultSchema, options) => server.request(r, resultSchema, { ...options, relatedRequestId: id }),
    };
    let result: CallToolResult;
    try {
      const handler = tool.handler as (...a: unknown[]) => CallToolResult | Promise<CallToolResult>;
      result = await (tool.inputSchema ? handler(args, extra) : handler(extra));
    } catch (error) {
      // McpServer's answer to a handler that threw (every tool here is guarded: toolKit.ts).
      result = { content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }], isError: true };
    } finally {
      if (this.running.get(id) === controller) this.running.delete(id);
    }
    if (controller.signal.aborted) return;
    this.answered++;
    await this.transport.send({ result, jsonrpc: '2.0', id }).catch((error: unknown) => {
      this.transport.onerror?.(error instanceof Error ? error : new Error(String(error)));
    });
  }
}
