import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { RecordedRequest } from '../types';
import { tryParseJson } from './json';

/** Largest request body accepted (transcription uploads included). */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Everything a route handler needs about one request. */
export interface RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly method: string;
  /** Path without query string, e.g. /v1/chat/completions */
  readonly path: string;
  readonly url: URL;
  readonly ip: string;
  readonly body: Buffer;
  readonly record: RecordedRequest;
  /** Delay between SSE events for this request (option + latency fault). */
  readonly chunkDelayMs: number;
}

export type Headers = Record<string, string | number>;

function writeHead(res: ServerResponse, status: number, headers: OutgoingHttpHeaders): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, headers);
}

export function sendJson(ctx: RequestContext, status: number, body: unknown, headers: Headers = {}): void {
  const text = JSON.stringify(body);
  writeHead(ctx.res, status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  ctx.res.end(text);
}

export function sendText(ctx: RequestContext, status: number, text: string, headers: Headers = {}): void {
  writeHead(ctx.res, status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  ctx.res.end(text);
}

export function sendEmpty(ctx: RequestContext, status: number, headers: Headers = {}): void {
  writeHead(ctx.res, status, { 'Content-Length': 0, ...headers });
  ctx.res.end();
}

export type JsonBody = { ok: true; value: unknown } | { ok: false; reason: 'empty' | 'invalid' };

export function parseJsonBody(ctx: RequestContext): JsonBody {
  if (ctx.body.length === 0) return { ok: false, reason: 'empty' };
  const parsed = tryParseJson(ctx.body.toString('utf8'));
  return parsed.ok ? parsed : { ok: false, reason: 'invalid' };
}

/** Reads the whole body; beyond `limit` bytes the rest is drained and `tooLarge` is set. */
export function readBody(req: IncomingMessage, limit: number): Promise<{ body: Buffer; tooLarge: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      else chunks.push(chunk);
    });
    const done = (): void => resolve({ body: Buffer.concat(chunks), tooLarge });
    req.on('end', done);
    req.on('error', done);
    req.on('close', done);
  });
}

/** Resolves when the response can take more data, or when it is closed. */
export function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const finish = (): void => {
      res.off('drain', finish);
      res.off('close', finish);
      resolve();
    };
    res.on('drain', finish);
    res.on('close', finish);
  });
}

/** Resolves when the response (its socket) closes. */
export function whenClosed(res: ServerResponse): Promise<void> {
  if (res.destroyed || res.socket === null || res.socket.destroyed) return Promise.resolve();
  return new Promise((resolve) => res.once('close', () => resolve()));
}
