import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCNotification, isJSONRPCRequest, type JSONRPCMessage, type JSONRPCNotification, type JSONRPCRequest, type MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';

/** The SDK's own handlers behind its message router (not in its typings; checked at run time). */
interface ProtocolHandlers {
  _onrequest?: (request: JSONRPCRequest, extra?: MessageExtraInfo) => void;
  _onnotification?: (notification: JSONRPCNotification) => void;
}

/** How each incoming message was routed (for tests). */
export interface DispatchCounts {
  requests: number;
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
 * handlers, the SDK's router stays in place (slower, never wrong).
 */
export async function connectWithDirectDispatch(server: Server, transport: Transport, counts?: DispatchCounts): Promise<boolean> {
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
