import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { ApiError, CancelledError, NetworkError, OutcomeUnknownError, RateLimitError } from '../../../src/core/errors';
import { RateLimiter } from '../../../src/core/http/rateLimiter';
import { HttpTransport } from '../../../src/core/http/transport';
import type { TransportOptions } from '../../../src/core/http/types';
import { recordingLogger } from './helpers/logger';
import { sendJson, startServer, type Handler, type TestServer } from './helpers/server';

describe('http/transport retries', () => {
  let server: TestServer;
  let transport: HttpTransport | undefined;
  let handler: Handler;

  before(async () => {
    server = await startServer((req, res, body, n) => handler(req, res, body, n));
  });
  after(() => server.close());
  afterEach(async () => {
    await transport?.close();
    transport = undefined;
    server.requests.length = 0;
  });

  function make(options: Partial<TransportOptions> = {}): HttpTransport {
    transport = new HttpTransport({
      baseUrl: server.url,
      auth: () => Promise.resolve('sk-retry-test-key'),
      retry: { attempts: 4, baseDelayMs: 5, maxDelayMs: 20, maxWaitMs: 2_000 },
      ...options,
    });
    return transport;
  }

  /** Fails `failures` times with `fail`, then answers 200. */
  function flaky(failures: number, fail: Handler): Handler {
    return (req, res, body, n) => (n <= failures ? fail(req, res, body, n) : sendJson(res, 200, { n }));
  }

  for (const status of [429, 500, 503]) {
    it(`retries ${status} with backoff and succeeds`, async () => {
      handler = flaky(2, (_q, res) => sendJson(res, status, { error: { message: 'busy', type: 'x' } }));
      const res = await make().request({ method: 'POST', path: '/v1/chat/completions', json: {} });
      assert.deepEqual(await res.json(), { n: 3 });
      assert.equal(server.requests.length, 3);
    });
  }

  it('gives up after the configured attempts with the last typed error', async () => {
    handler = (_q, res) => sendJson(res, 500, { error: { message: 'boom', type: 'server_error' } });
    await assert.rejects(
      make({ retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 } }).request({ method: 'GET', path: '/v1/models' }),
      (e: unknown) => e instanceof ApiError && e.status === 500 && e.type === 'server_error',
    );
    assert.equal(server.requests.length, 3);
  });

  it('clamps attempts to at most 5', async () => {
    handler = (_q, res) => sendJson(res, 503, {});
    await assert.rejects(make({ retry: { attempts: 50, baseDelayMs: 1, maxDelayMs: 1 } }).request({ method: 'GET', path: '/x' }));
    assert.equal(server.requests.length, 5);
  });

  it('does not retry when the request says retry: false, nor other statuses', async () => {
    handler = (_q, res) => sendJson(res, 503, {});
    await assert.rejects(make().request({ method: 'GET', path: '/x', retry: false }));
    assert.equal(server.requests.length, 1);
    server.requests.length = 0;
    handler = (_q, res) => sendJson(res, 422, {});
    await assert.rejects(make().request({ method: 'GET', path: '/x' }));
    assert.equal(server.requests.length, 1);
  });

  it('honours Retry-After in seconds', async () => {
    handler = flaky(1, (_q, res) => sendJson(res, 429, {}, { 'retry-after': '0' }));
    const logger = recordingLogger();
    const retry = { attempts: 4, baseDelayMs: 10_000, maxDelayMs: 10_000, maxWaitMs: 2_000 };
    await make({ random: () => 0.5, logger, retry }).request({ method: 'POST', path: '/v1/chat/completions', json: {} });
    // The wait is the server's (0 s; delta-seconds are whole seconds), not the jittered backoff (5 s).
    assert.ok(logger.lines.some((l) => /HTTP 429, retry 1\/\d in 0 ms/.test(l)), logger.lines.join('\n'));
    assert.equal(server.requests.length, 2);
  });

  it('honours Retry-After as an HTTP date', async () => {
    handler = flaky(1, (_q, res) => sendJson(res, 503, {}, { 'retry-after': new Date(Date.now() - 1000).toUTCString() }));
    await make().request({ method: 'GET', path: '/x' });
    assert.equal(server.requests.length, 2);
  });

  it('honours X-RateLimit-Reset-Requests as a delta in seconds', async () => {
    handler = flaky(1, (_q, res) => sendJson(res, 429, {}, { 'x-ratelimit-reset-requests': '0' }));
    await make().request({ method: 'GET', path: '/x' });
    assert.equal(server.requests.length, 2);
  });

  it('honours X-RateLimit-Reset-Requests as a Unix time in seconds', async () => {
    const past = String(Math.floor(Date.now() / 1000) - 5);
    handler = flaky(1, (_q, res) => sendJson(res, 429, {}, { 'x-ratelimit-reset-requests': past }));
    await make().request({ method: 'GET', path: '/x' });
    assert.equal(server.requests.length, 2);
  });

  it('does not sleep through a wait over the cap: RateLimitError says when to retry (Unix reset)', async () => {
    const reset = Math.floor(Date.now() / 1000) + 3600;
    handler = (_q, res) =>
      sendJson(res, 429, { error: { message: 'Rate limit', type: 'rate_limit_error', code: 'rate_limit_exceeded' } }, {
        'x-ratelimit-reset-requests': String(reset),
      });
    await assert.rejects(make().request({ method: 'POST', path: '/v1/chat/completions', json: {} }), (e: unknown) => {
      assert.ok(e instanceof RateLimitError);
      assert.equal(e.kind, 'rate_limit');
      assert.equal(e.code, 'rate_limit_exceeded');
      assert.ok(e.retryAt);
      assert.ok(Math.abs(e.retryAt.getTime() - reset * 1000) < 2000, String(e.retryAt));
      assert.ok(e.retryAfterMs !== undefined && e.retryAfterMs > 3_500_000);
      assert.match(e.message, /retry in \d+ s/);
      return true;
    });
    assert.equal(server.requests.length, 1, 'failed at once instead of sleeping an hour');
  });

  it('does not sleep through a Retry-After / delta reset over the cap either', async () => {
    handler = (_q, res) => sendJson(res, 429, {}, { 'x-ratelimit-reset-requests': '120' });
    await assert.rejects(make().request({ method: 'GET', path: '/x' }), (e: unknown) => {
      return e instanceof RateLimitError && e.retryAfterMs === 120_000 && e.retryAt instanceof Date;
    });
    handler = (_q, res) => sendJson(res, 503, {}, { 'retry-after': '600' });
    await assert.rejects(make().request({ method: 'GET', path: '/x' }), (e: unknown) => {
      return e instanceof ApiError && e.status === 503 && e.retryAfterMs === 600_000;
    });
  });

  it('reports a RateLimitError with retry time once attempts are used up', async () => {
    handler = (_q, res) => sendJson(res, 429, {}, { 'retry-after': '0' });
    await assert.rejects(
      make({ retry: { attempts: 3 } }).request({ method: 'GET', path: '/x' }),
      (e: unknown) => e instanceof RateLimitError && e.retryAfterMs === 0,
    );
    assert.equal(server.requests.length, 3);
  });

  it('never resends a POST whose connection broke after it was sent: the outcome is unknown', async () => {
    handler = flaky(2, (req) => {
      req.socket.destroy();
    });
    await assert.rejects(make().request({ method: 'POST', path: '/v1/chat/completions', json: { a: 1 } }), (e: unknown) => {
      assert.ok(e instanceof OutcomeUnknownError, String(e));
      assert.equal(e.kind, 'outcome_unknown');
      assert.match(e.message, /may or may not have been applied/);
      return true;
    });
    assert.equal(server.requests.length, 1, 'sent exactly once');
  });

  it('retries a connection reset for a request marked idempotent', async () => {
    handler = flaky(2, (req) => {
      req.socket.destroy();
    });
    const logger = recordingLogger();
    const res = await make({ logger }).request({ method: 'PUT', path: '/v1/things/1', json: { a: 1 }, idempotent: true });
    assert.deepEqual(await res.json(), { n: 3 });
    assert.ok(logger.lines.some((l) => /failed after \d+ ms: network/.test(l)));
    assert.ok(logger.lines.some((l) => /retry 1\/3/.test(l)));
  });

  it('retries a POST that provably never left (connection refused) and sends it once it connects', async () => {
    // A port that refuses, then accepts: the refused attempts cannot have reached any server.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    handler = (_q, res) => sendJson(res, 200, { ok: true });
    let attempts = 0;
    const engine: typeof fetch = async (input, init) => {
      attempts++;
      if (attempts < 3) return fetch(`http://127.0.0.1:${port}/`, init);
      return fetch(input, init);
    };
    const res = await make({ fetch: engine }).request({ method: 'POST', path: '/v1/chat/completions', json: { a: 1 } });
    await res.json();
    assert.equal(attempts, 3);
    assert.equal(server.requests.length, 1, 'the server saw the POST once');
  });

  it('fails with NetworkError (ECONNREFUSED) when nothing listens, after retrying', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const logger = recordingLogger();
    const t = make({ baseUrl: `http://127.0.0.1:${port}`, logger, retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 } });
    await assert.rejects(t.request({ method: 'GET', path: '/v1/models' }), (e: unknown) => {
      assert.ok(e instanceof NetworkError);
      assert.equal(e.kind, 'network');
      assert.equal(e.code, 'ECONNREFUSED');
      return true;
    });
    assert.equal(logger.lines.filter((l) => /failed after/.test(l)).length, 3);
  });

  it('aborts during a backoff sleep with CancelledError', async () => {
    handler = (_q, res) => sendJson(res, 503, {}, { 'retry-after': '1' });
    const controller = new AbortController();
    const p = make().request({ method: 'GET', path: '/x', signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    // Without the abort the 1 s backoffs would end in an ApiError after 4 requests.
    await assert.rejects(p, (e: unknown) => e instanceof CancelledError && e.kind === 'cancelled');
    assert.equal(server.requests.length, 1);
  });

  it('acquires a rate-limiter token for each attempt under its key', async () => {
    const keys: string[] = [];
    const limiter = new RateLimiter();
    const original = limiter.acquire.bind(limiter);
    limiter.acquire = (key, signal) => {
      keys.push(key);
      return original(key, signal);
    };
    handler = flaky(1, (_q, res) => sendJson(res, 500, {}));
    await make({ rateLimiter: limiter }).request({ method: 'GET', path: '/api/iam/v1/users', rateLimitKey: 'iam' });
    assert.deepEqual(keys, ['iam', 'iam']);
  });
});
