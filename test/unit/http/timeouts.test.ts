import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { CancelledError, StreamStalledError, TimeoutError } from '../../../src/core/errors';
import { HttpTransport } from '../../../src/core/http/transport';
import type { TransportOptions } from '../../../src/core/http/types';
import { startServer, type Handler, type TestServer } from './helpers/server';
import { engineWithConnectTimeout } from './helpers/engine';

describe('http/transport timeouts, stalls and cancellation', () => {
  let server: TestServer;
  let transport: HttpTransport | undefined;
  let handler: Handler;
  const timers = new Set<NodeJS.Timeout>();

  before(async () => {
    server = await startServer((req, res, body, n) => handler(req, res, body, n));
  });
  after(() => server.close());
  afterEach(async () => {
    for (const t of timers) clearInterval(t);
    timers.clear();
    await transport?.close();
    transport = undefined;
    server.requests.length = 0;
  });

  function make(options: Partial<TransportOptions> = {}): HttpTransport {
    transport = new HttpTransport({
      baseUrl: server.url,
      retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
      ...options,
    });
    return transport;
  }

  /** Answers headers and one chunk, then goes silent (until the client gives up). */
  const stallAfterFirstChunk: Handler = (_q, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: {"a":1}\n\n');
  };

  it('times out the connect phase (a peer that never completes the TLS handshake)', async () => {
    const sockets = new Set<Socket>();
    let silentConnections = 0;
    const silent: Server = createServer((s) => {
      silentConnections++;
      sockets.add(s);
      s.on('error', () => undefined);
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const port = (silent.address() as AddressInfo).port;
      // The engine enforces the connect timeout (the extension host's fetch: 10 s); this one 150 ms.
      const t = make({ baseUrl: `https://127.0.0.1:${port}`, fetch: engineWithConnectTimeout(150), timeouts: { connectMs: 150 }, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 } });
      await assert.rejects(t.request({ method: 'POST', path: '/v1/chat/completions', json: {} }), (e: unknown) => {
        assert.ok(e instanceof TimeoutError, String(e));
        assert.equal(e.kind, 'timeout');
        assert.equal(e.phase, 'connect');
        assert.equal(e.timeoutMs, 150);
        return true;
      });
      // Never connected, so provably never sent: even a POST is tried again.
      assert.equal(silentConnections, 2);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });

  it('times out waiting for the first byte; a POST is not resent', async () => {
    handler = () => undefined; // never answers
    const t = make({ timeouts: { firstByteMs: 150 } });
    await assert.rejects(t.request({ method: 'POST', path: '/v1/chat/completions', json: {} }), (e: unknown) => {
      assert.ok(e instanceof TimeoutError);
      assert.equal(e.phase, 'first_byte');
      return true;
    });
    assert.equal(server.requests.length, 1);
  });

  it('retries a first-byte timeout for an idempotent GET', async () => {
    handler = (_q, res, _b, n) => {
      if (n > 1) res.end('{}');
    };
    const res = await make({ timeouts: { firstByteMs: 150 } }).request({ method: 'GET', path: '/v1/models' });
    await res.text();
    assert.equal(server.requests.length, 2);
  });

  it('reports an idle streamed body as StreamStalledError', async () => {
    handler = stallAfterFirstChunk;
    const res = await make({ timeouts: { idleMs: 150 } }).request({ method: 'POST', path: '/v1/chat/completions', streaming: true });
    const received: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const chunk of res.body) received.push(String(chunk));
      })().catch((e: unknown) => {
        throw res.toError(e);
      }),
      (e: unknown) => {
        assert.ok(e instanceof StreamStalledError, String(e));
        assert.equal(e.kind, 'stream_stalled');
        assert.equal(e.idleMs, 150);
        assert.match(e.message, /stalled/);
        return true;
      },
    );
    assert.equal(received.length, 1);
    assert.equal(server.requests[0]?.headers.accept, 'text/event-stream');
  });

  it('reports an idle plain body as TimeoutError(body)', async () => {
    handler = stallAfterFirstChunk;
    // A GET is read whole inside request() while retries are left: the stall surfaces there.
    const read = make().request({ method: 'GET', path: '/x', timeouts: { idleMs: 150 } }).then((res) => res.text());
    await assert.rejects(read, (e: unknown) => e instanceof TimeoutError && e.phase === 'body');
  });

  it('cancels before the response and the server sees the connection close', async () => {
    handler = () => undefined;
    const controller = new AbortController();
    const closed = server.nextAbort();
    const p = make().request({ method: 'POST', path: '/v1/chat/completions', json: {}, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(p, (e: unknown) => e instanceof CancelledError);
    await closed;
  });

  it('cancels mid-stream: reading stops and the server sees the connection close', async () => {
    handler = (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(() => res.write('data: {"x":1}\n\n'), 10);
      timers.add(timer);
      res.on('close', () => clearInterval(timer));
    };
    const controller = new AbortController();
    const res = await make().request({ method: 'POST', path: '/v1/chat/completions', streaming: true, signal: controller.signal });
    const closed = server.nextAbort();
    let chunks = 0;
    await assert.rejects(
      (async () => {
        for await (const _chunk of res.body) {
          if (++chunks === 2) controller.abort();
        }
      })().catch((e: unknown) => {
        throw res.toError(e);
      }),
      (e: unknown) => e instanceof CancelledError,
    );
    await closed;
    assert.equal(server.aborted >= 1, true);
  });

  it('rejects at once when the signal is already aborted', async () => {
    handler = () => undefined;
    await assert.rejects(
      make().request({ method: 'GET', path: '/x', signal: AbortSignal.abort() }),
      (e: unknown) => e instanceof CancelledError,
    );
    assert.equal(server.requests.length, 0);
  });
});
