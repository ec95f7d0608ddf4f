import type { RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { safeParse } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { ErrorCode, McpError, type CallToolResult, type JSONRPCRequest, type RequestId } from '@modelcontextprotocol/sdk/types.js';
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

/** A JSON-RPC id or progress token as the SDK's schemas take it: a string or a safe integer (zod's `int()`). */
const isIdLike = (v: unknown): boolean => typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v));

/** A `_meta` that holds at most a progress token (the only field of a plain call's meta). */
function plainMeta(meta: unknown): boolean {
  if (meta === undefined) return true;
  if (!isRecord(meta)) return false;
  for (const key in meta) if (key !== 'progressToken' || !isIdLike(meta[key])) return false;
  return true;
}

/**
 * A request as the SDK's JSONRPCRequestSchema takes it, for what a plain call can hold: that
 * schema is strict (no key but jsonrpc, id, method and params), its jsonrpc is "2.0" and its id a
 * string or a safe integer; params (an object, no array) and its `_meta` are checked by tryAnswer,
 * more narrowly than the schema does. What fails here goes to the SDK's own check and path.
 */
function plainEnvelope(message: unknown): message is JSONRPCRequest {
  if (!isRecord(message)) return false;
  for (const key in message) if (key !== 'jsonrpc' && key !== 'id' && key !== 'method' && key !== 'params') return false;
  return message.jsonrpc === '2.0' && typeof message.method === 'string' && isIdLike(message.id);
}

/** A read tool's call to answer here, its arguments as the tool's schema read them. */
export interface DirectCall {
  readonly request: JSONRPCRequest;
  readonly tool: RegisteredTool;
  readonly args: unknown;
}

/** The SDK's abort controllers of the requests it runs, by id (not in its typings; checked at run time). */
interface RunningRequests {
  _requestHandlerAbortControllers?: Map<RequestId, AbortController>;
}

/**
 * The read tools' calls answered without the SDK's request path. The SDK parses a tools/call three
 * times (its Protocol's CallToolRequestSchema, McpServer's argument schema, asynchronously) and
 * goes through some ten promise steps between the request and the tool's handler; on a page of 50
 * resources that is as much as the server's own work. A read tool's call whose parts are all plain
 * (a name, arguments of numbers, strings and booleans, at most a progress token) is checked with
 * the tool's own argument schema (the one McpServer checks: RegisteredTool.inputSchema), run with
 * its own handler and answered as the SDK answers. Its abort controller goes in the SDK's own map of
 * running requests, so notifications/cancelled (after the SDK's check of it) and the connection's
 * close abort it exactly as they abort the SDK's calls (same ids, a later call with the same id
 * taking the earlier one's place), after which nothing is sent. Anything else (a task, other
 * `_meta`, arguments the schema refuses, an unknown or disabled tool) goes the SDK's way, so its
 * errors are the SDK's own; so does every call if a later SDK keeps no such map (slower, never wrong).
 */
export class DirectToolCalls {
  private readonly tools = new Map<string, RegisteredTool>();
  private readonly running: Map<RequestId, AbortController> | undefined;
  /** Calls answered here (for tests). */
  answered = 0;

  /** `toolError`: the text of a handler that threw, as a tool error (the SDK path's answer, redacted). */
  constructor(
    private readonly server: Server,
    private readonly transport: Transport,
    private readonly toolError: (message: string) => CallToolResult,
  ) {
    const running = (server as unknown as RunningRequests)._requestHandlerAbortControllers;
    this.running = running instanceof Map ? running : undefined;
  }

  /** Serves `name`'s calls here: for tools that send no progress and ask nothing of the user. */
  add(name: string, tool: RegisteredTool): void {
    this.tools.set(name, tool);
  }

  /**
   * The call `message` (any incoming message) is, when it is a plain call of a tool served here,
   * else undefined: the SDK's to check and answer. What it takes, the SDK's request schema would
   * take (plainEnvelope), so that parse (~0.06 ms on a server that is not hot) is not made.
   */
  plan(message: unknown): DirectCall | undefined {
    if (!plainEnvelope(message) || message.method !== 'tools/call' || !this.running) return undefined;
    const params = message.params;
    if (!isRecord(params) || typeof params.name !== 'string') return undefined;
    const tool = this.tools.get(params.name);
    if (!tool?.enabled || params.task !== undefined || !plainMeta(params._meta) || !plainArguments(params.arguments)) return undefined;
    for (const key in params) if (key !== 'name' && key !== 'arguments' && key !== '_meta') return undefined;
    if (!tool.inputSchema) return { request: message, tool, args: undefined };
    const parsed = parsedArguments(tool, params.arguments);
    return parsed.success ? { request: message, tool, args: parsed.data } : undefined;
  }

  /** Runs a planned call; its answer (or nothing, once cancelled) is sent on the transport. */
  answer(call: DirectCall): void {
    if (this.running) void this.run(call.request, call.tool, call.args, this.running);
  }

  /** plan, then answer: whether the call is answered here. */
  tryAnswer(message: unknown): boolean {
    const call = this.plan(message);
    if (call) this.answer(call);
    return call !== undefined;
  }

  private async run(request: JSONRPCRequest, tool: RegisteredTool, args: unknown, running: Map<RequestId, AbortController>): Promise<void> {
    const controller = new AbortController();
    const id = request.id;
    running.set(id, controller);
    const server = this.server;
    // As the SDK: the answer goes where the server serves when the call came, none once it closed.
    const transport = server.transport;
    const extra: Extra = {
      signal: controller.signal,
      sessionId: transport?.sessionId,
      _meta: (request.params as { _meta?: Extra['_meta'] })._meta,
      requestId: id,
      sendNotification: async (notification) => {
        if (!controller.signal.aborted) await server.notification(notification, { relatedRequestId: id });
      },
      sendRequest: (r, resultSchema, options) =>
        controller.signal.aborted
          ? Promise.reject(new McpError(ErrorCode.ConnectionClosed, 'Request was cancelled'))
          : server.request(r, resultSchema, { ...options, relatedRequestId: id }),
    };
    let result: CallToolResult;
    try {
      const handler = tool.handler as (...a: unknown[]) => CallToolResult | Promise<CallToolResult>;
      result = await (tool.inputSchema ? handler(args, extra) : handler(extra));
    } catch (error) {
      // McpServer's answer to a handler that threw (every tool here is guarded: toolKit.ts).
      result = this.toolError(error instanceof Error ? error.message : String(error));
    } finally {
      if (running.get(id) === controller) running.delete(id);
    }
    if (controller.signal.aborted || !transport) return;
    this.answered++;
    await transport.send({ result, jsonrpc: '2.0', id }).catch((error: unknown) => {
      this.transport.onerror?.(error instanceof Error ? error : new Error(String(error)));
    });
  }
}

/**
 * The arguments as the tool's schema reads them; a schema that cannot be read synchronously (an
 * async refinement throws in safeParse) is no success: the SDK's path, which parses asynchronously.
 */
function parsedArguments(tool: RegisteredTool, args: unknown): { success: true; data: unknown } | { success: false } {
  try {
    const parsed = safeParse(tool.inputSchema as NonNullable<RegisteredTool['inputSchema']>, args ?? {});
    return parsed.success ? { success: true, data: parsed.data } : { success: false };
  } catch {
    return { success: false };
  }
}
