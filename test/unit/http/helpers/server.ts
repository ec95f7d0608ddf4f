import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** Remote port of the socket: equal values mean a reused connection. */
  socketPort: number;
}

export type Handler = (
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer,
  n: number,
) => void | Promise<void>;

export interface TestServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Responses whose connection closed before they were finished (client aborted). */
  aborted: number;
  connections: number;
  server: Server;
  /** Resolves when the next response is closed early by the client. */
  nextAbort(): Promise<void>;
  close(): Promise<void>;
}

/** A loopback HTTP server on port 0 that records requests and tracks sockets for a clean close. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const sockets = new Set<Socket>();
  const waiters: Array<() => void> = [];
  const state = { aborted: 0, connections: 0 };
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        socketPort: req.socket.remotePort ?? 0,
      });
      res.on('close', () => {
        if (!res.writableFinished) {
          state.aborted++;
          waiters.splice(0).forEach((w) => w());
        }
      });
      void Promise.resolve(handler(req, res, body, requests.length)).catch(() => res.destroy());
    });
  });
  server.on('connection', (socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    get aborted() {
      return state.aborted;
    },
    get connections() {
      return state.connections;
    },
    server,
    nextAbort: () => new Promise<void>((resolve) => waiters.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Writes a contract-exact SSE response: one `data:` line per chunk, then `data: [DONE]`. */
export function sendSse(res: ServerResponse, chunks: readonly unknown[], options: { done?: boolean } = {}): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const chunk of chunks) res.write(`data: ${typeof chunk === 'string' ? chunk : JSON.stringify(chunk)}\n\n`);
  if (options.done !== false) res.write('data: [DONE]\n\n');
  res.end();
}

/**
 * One server for a mocha suite (started before it, closed after it, its requests cleared after each
 * test); `handle` sets what it answers next.
 */
export function serverForSuite(): { readonly server: TestServer; handle(handler: Handler): void } {
  let handler: Handler = (_req, res) => {
    res.end();
  };
  let server: TestServer | undefined;
  before(async () => {
    server = await startServer((req, res, body, n) => handler(req, res, body, n));
  });
  after(() => server?.close());
  afterEach(() => {
    if (server) server.requests.length = 0;
  });
  return {
    get server(): TestServer {
      if (!server) throw new Error('the suite has not started its server');
      return server;
    },
    handle: (next) => {
      handler = next;
    },
  };
}
