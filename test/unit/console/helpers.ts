import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createConsoleClient, type ConsoleClient, type ConsoleClientOptions } from '../../../src/core/console/index';
import type { Logger } from '../../../src/core/log';
import { startSandbox, type Sandbox, type SandboxOptions, type SandboxProfile } from '../../sandbox/index';

export const PROFILES: readonly SandboxProfile[] = ['contract', 'production'];
export const AUTH_PATH = '/api/iam/v2/auth/personal_access_token';

export interface CapturedLogger extends Logger {
  lines: Array<{ level: string; message: string }>;
}

export function captureLogger(): CapturedLogger {
  const lines: Array<{ level: string; message: string }> = [];
  const at = (level: string) => (message: string | Error): void => {
    lines.push({ level, message: String(message) });
  };
  return { lines, trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** Everything a test made, closed in `afterEach` so no socket or timer outlives a test. */
export class Fixtures {
  private readonly closers: Array<() => Promise<void>> = [];

  async sandbox(options: SandboxOptions): Promise<Sandbox> {
    const sb = await startSandbox({ port: 0, activityStepMs: 20, ...options });
    this.closers.push(() => sb.close());
    return sb;
  }

  /** A client for the sandbox's demo PAT, with fast activity following. */
  client(sb: Sandbox, options: Partial<ConsoleClientOptions> = {}): ConsoleClient {
    return this.track(
      createConsoleClient({
        baseUrl: sb.consoleUrl,
        pat: { id: async () => sb.credentials.patId, secret: async () => sb.credentials.patSecret },
        follow: { initialDelayMs: 5, maxDelayMs: 40 },
        retry: { baseDelayMs: 5, maxDelayMs: 20 },
        ...options,
      }),
    );
  }

  track(client: ConsoleClient): ConsoleClient {
    this.closers.push(() => client.close());
    return client;
  }

  async stub(handler: StubHandler): Promise<Stub> {
    const stub = await startStub(handler);
    this.closers.push(() => stub.close());
    return stub;
  }

  async proxy(target: string): Promise<CountingProxy> {
    const proxy = await startCountingProxy(target);
    this.closers.push(() => proxy.close());
    return proxy;
  }

  async closeAll(): Promise<void> {
    const closers = this.closers.splice(0).reverse();
    for (const close of closers) await close();
  }
}

export interface StubRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

export type StubHandler = (req: StubRequest, res: ServerResponse) => void;

export interface Stub {
  url: string;
  requests: StubRequest[];
  close(): Promise<void>;
}

function closable(server: ReturnType<typeof createServer>): () => Promise<void> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
}

async function listen(server: ReturnType<typeof createServer>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A loopback server for behaviours the sandbox cannot produce. */
export async function startStub(handler: StubHandler): Promise<Stub> {
  const requests: StubRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stub.invalid');
      const entry: StubRequest = {
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: performance.now(),
      };
      requests.push(entry);
      handler(entry, res);
    });
  });
  const close = closable(server);
  return { url: await listen(server), requests, close };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** An unsigned JWT with the given claims (the client never verifies signatures). */
export function fakeJwt(claims: Record<string, unknown>): string {
  const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}.c2ln`;
}

export function jwtClaims(lifetimeSeconds = 300): Record<string, unknown> {
  const iat = Math.floor(Date.now() / 1000);
  return { iat, exp: iat + lifetimeSeconds, userId: 'user-1', companyId: 'company-1', scope: { id: 'tenant-1' } };
}

export interface CountingProxy {
  url: string;
  /** Arrival time (performance.now) and path of every request forwarded, and the answer's status. */
  arrivals: Array<{ at: number; path: string; status: number }>;
  close(): Promise<void>;
}

/** Forwards everything to `target`, recording when each request reached the "wire". */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const arrivals: CountingProxy['arrivals'] = [];
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const at = performance.now();
    const path = new URL(req.url ?? '/', 'http://proxy.invalid').pathname;
    const out = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        arrivals.push({ at, path, status: answer.statusCode ?? 0 });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  const close = closable(server);
  return { url: await listen(server), arrivals, close };
}

/** Most requests seen in any window of `windowMs` (sliding, like the server's limiter). */
export function maxInWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while ((sorted[end] ?? 0) - (sorted[start] ?? 0) >= windowMs) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

/** A clock that starts at the real time and moves only when told: `now` for ConsoleClientOptions. */
/** Wall time plus what the test advanced; from `startMs` instead (a clock standing still until advanced) when given. */
export function manualClock(startMs?: number): { now: () => number; advance(ms: number): void } {
  let offset = 0;
  return {
    now: () => (startMs ?? Date.now()) + offset,
    advance(ms: number) {
      offset += Math.max(0, ms);
    },
  };
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
