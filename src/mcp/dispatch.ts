import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCNotification, isJSONRPCRequest, type JSONRPCMessage, type JSONRPCNotification, type JSONRPCRequest, type MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { DirectToolCalls } from './directCalls';

/** The SDK's own handlers behind its message router (not in its typings; checked at run time). */
interface ProtocolHandlers {
  _onrequest?: (request: JSONRPCRequest, extra?: MessageExtraInfo) => void;
  _onnotification?: (notification: JSONRPCNotification) => void;
}

/** The request handlers the SDK's Protocol keeps (not in its typings; checked at run time). */
interface HandlerMap {
  _requestHandlers?: Map<string, (request: JSONRPCRequest, extra: unknown) => Promise<unknown>>;
}

type SetRequestHandler = (this: Server, schema: unknown, handler: (request: never, extra: never) => unknown) => void;

/**
 * Makes the tools/call handler that McpServer registers on `server` (call this before the first
 * registerTool) parse each request once. The SDK's Server wraps that handler to parse the request
 * again (its base Protocol already did, with the same CallToolRequestSchema) and to parse the
 * handler's result with CallToolResultSchema before sending it: ~0.2 ms per call of zod on a
 * page of 50 resources, to check a result every tool of this server builds the one way
 * (toolKit.ts: jsonResult, errorResult, under guarded; McpServer's own tool errors). The base
 * Protocol's registration keeps the one request parse (a malformed tools/call is still refused
 * with InvalidParams before any tool runs) and the tool's own argument validation is McpServer's,
 * unchanged. A task-augmented call (params.task; this server offers no tasks) keeps the SDK's
 * whole path. If a later SDK changes these internals, its own registration stays (slower, never
 * wrong). Returns whether the single parse is in place.
 */
export function parseToolCallsOnce(server: Server): boolean {
  const base = (Object.getPrototypeOf(Server.prototype) as { setRequestHandler?: SetRequestHandler }).setRequestHandler;
  const handlers = (server as unknown as HandlerMap)._requestHandlers;
  if (typeof base !== 'function' || !(handlers instanceof Map)) return false;
  const sdkSet = server.setRequestHandler.bind(server) as unknown as (schema: unknown, handler: unknown) => void;
  server.setRequestHandler = function (this: Server, schema: unknown, handler: (request: never, extra: never) => unknown): void {
    const before = handlers.get('tools/call');
    sdkSet(schema, handler);
    // Whether this was the tools/call handler: the one the SDK just set for that method.
    const sdkPath = handlers.get('tools/call');
    if (!sdkPath || sdkPath === before) return;
    base.call(this, schema, handler);
    const once = handlers.get('tools/call');
    if (!once) return;
    handlers.set('tools/call', (request, extra) => ((request.params as { task?: unknown } | undefined)?.task !== undefined ? sdkPath(request, extra) : once(request, extra)));
  } as Server['setRequestHandler'];
  return true;
}

/** How each incoming message was routed (for tests). */
export interface DispatchCounts {
  requests: number;
  /** Of the requests, the read tools' calls answered by DirectToolCalls. */
  direct: number;
  notifications: number;
  /** Responses to the server's own requests (elicitation) and anything else: the SDK's router. */
  other: number;
}

/**
 * Connects the server to its transport, then routes each incoming request and notification
 * straight to the SDK's handler for it. The SDK's router tries every message as a result response
 * first, then as an error response, and only then as a request: two zod parses that fail on every
 * tool call, each building a ZodError with its issues and a stack trace (~0.1-0.3 ms per call,
 * more than all the server's own work on a page of 50 resources). A request cannot be a response
 * (the JSON-RPC schemas are strict, and a request carries `method`), so a message that passes the
 * SDK's own request check goes where the SDK would have sent it, without the two failing parses;
 * the same for notifications. Everything else (responses to the server's elicitations, malformed
 * messages) takes the SDK's own path, so its handling is unchanged. If a later SDK renames its
 * handlers, the SDK's router stays in place (slower, never wrong). A read tool's plain call goes
 * to `direct` (directCalls.ts), which checks it as strictly as the SDK's request check (so that
 * check is skipped for it) and whose calls the SDK's own cancellation and close abort.
 */
export async function connectWithDirectDispatch(server: Server, transport: Transport, counts?: DispatchCounts, direct?: DirectToolCalls): Promise<boolean> {
  // What the SDK's router calls first with every message (a listener set before connecting).
  const before = transport.onmessage;
  await server.connect(transport);
  const handlers = server as unknown as ProtocolHandlers;
  const onRequest = handlers._onrequest;
  const onNotification = handlers._onnotification;
  const sdkRouter = transport.onmessage;
  if (!sdkRouter || typeof onRequest !== 'function' || typeof onNotification !== 'function') return false;
  transport.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo): void => {
    if ('method' in message) {
      if ('id' in message) {
        // A read tool's plain call: the direct path checks it as the SDK's request schema would.
        const call = direct?.plan(message);
        if (call && direct) {
          if (counts) {
            counts.requests++;
            counts.direct++;
          }
          before?.(message, extra);
          direct.answer(call);
          return;
        }
        if (isJSONRPCRequest(message)) {
          if (counts) counts.requests++;
          before?.(message, extra);
          onRequest.call(server, message, extra);
          return;
        }
      } else if (isJSONRPCNotification(message)) {
        if (counts) counts.notifications++;
        before?.(message, extra);
        onNotification.call(server, message);
        return;
      }
    }
    if (counts) counts.other++;
    sdkRouter(message, extra);
  };
  return true;
}
