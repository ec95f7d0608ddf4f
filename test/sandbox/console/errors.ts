import { STATUS_CODES } from 'node:http';
import { sendJson, type Headers, type RequestContext } from '../core/http';

/**
 * Console error body. The contract gives the 429 body (`{"error": {"status": "429 Too Many
 * Requests", "message": ...}}`) and no other; the sandbox uses the same shape for every error.
 */
export function consoleErrorBody(status: number, message: string): { error: { status: string; message: string } } {
  return { error: { status: `${status} ${STATUS_CODES[status] ?? 'Error'}`, message } };
}

export function sendConsoleError(ctx: RequestContext, status: number, message: string, headers: Headers = {}): void {
  sendJson(ctx, status, consoleErrorBody(status, message), headers);
}

export const TOO_MANY_REQUESTS = 'Too Many Requests';
