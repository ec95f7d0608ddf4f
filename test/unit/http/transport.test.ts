import assert from 'node:assert/strict';
import {
  ApiError,
  AuthError,
  ForbiddenError,
  MalformedResponseError,
  NotFoundError,
  RateLimitError,
  ValidationError,
} from '../../../src/core/errors';
import { HttpTransport } from '../../../src/core/http/transport';
import type { TransportOptions } from '../../../src/core/http/types';
import { recordingLogger } from './helpers/logger';
import { sendJson, startServer, type Handler, type TestServer } from './helpers/server';

const KEY = 'sk-test-0123456789abcdef';

describe('http/transport', () => {
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
      baseUrl: `${server.url}/v1`,
      auth: () => Promise.resolve(KEY),
      secretName: 'inference API key',
      retry: { baseDelayMs: 1, maxDelayMs: 5 },
      ...options,
    });
    return transport;
  }

  it('sends JSON with the bearer token, accept and query, and reads JSON back', async () => {
    handler = (_req, res) => sendJson(res, 200, { ok: true }, { 'x-request-id': 'req-1' });
    const res = await make().request({
      method: 'POST',
      path: '/v1/chat/completions',
      query: { a: 1, skip: undefined },
      json: { hello: 'wörld' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.requestId, 'req-1');
    assert.deepEqual(await res.json(), { ok: true });
    const seen = server.requests[0];
    assert.ok(seen);
    assert.equal(seen.url, '/v1/chat/completions?a=1');
    assert.equal(seen.headers.authorization, `Bearer ${KEY}`);
    assert.equal(seen.headers['content-type'], 'application/json');
    assert.equal(seen.headers.accept, 'application/json');
    assert.deepEqual(JSON.parse(seen.body.toString('utf8')), { hello: 'wörld' });
  });

  it('reuses one keep-alive connection across requests', async () => {
    handler = (_req, res) => sendJson(res, 200, {});
    const t = make();
    const before = server.connections;
    for (let i = 0; i < 6; i++) {
      await (await t.request({ method: 'GET', path: '/v1/models' })).json();
      // The engine frees a connection just after the body ends; let it, as real callers do.
      await new Promise((resolve) => setImmediate(resolve));
    }
    // The engine's pool is the process's: an earlier test may have left the one connection open.
    assert.ok(server.connections - before <= 1, `${server.connections - before} connections`);
    assert.equal(new Set(server.requests.map((r) => r.socketPort)).size, 1);
  });

  it('fails with AuthError naming the missing secret, without sending anything', async () => {
    handler = (_req, res) => sendJson(res, 200, {});
    const t = make({ auth: () => Promise.resolve(undefined) });
    await assert.rejects(t.request({ method: 'GET', path: '/v1/models' }), (e: unknown) => {
      assert.ok(e instanceof AuthError);
      assert.equal(e.kind, 'auth');
      assert.equal(e.reason, 'missing');
      assert.equal(e.secretName, 'inference API key');
      assert.match(e.message, /inference API key/);
      return true;
    });
    assert.equal(server.requests.length, 0);
  });

  it('sends no Authorization header when the request opts out', async () => {
    handler = (_req, res) => sendJson(res, 200, {});
    await make().request({ method: 'POST', path: '/api/iam/v2/auth/personal_access_token', auth: false });
    assert.equal(server.requests[0]?.headers.authorization, undefined);
  });

  it('maps 401 to AuthError(rejected) and redacts a key echoed by the server', async () => {
    handler = (_req, res) =>
      sendJson(res, 401, { error: { message: `Invalid API key ${KEY}`, type: 'authentication_error' } });
    await assert.rejects(make().request({ method: 'GET', path: '/v1/models' }), (e: unknown) => {
      assert.ok(e instanceof AuthError);
      assert.equal(e.reason, 'rejected');
      assert.equal(e.status, 401);
      assert.equal(e.type, 'authentication_error');
      assert.ok(!e.message.includes(KEY), e.message);
      assert.ok(!JSON.stringify(e).includes(KEY));
      return true;
    });
    assert.equal(server.requests.length, 1, '401 is not retried');
  });

  it('retries once with a fresh token when onUnauthorized says so', async () => {
    let token = 'jwt-expired-aaaa';
    handler = (req, res) =>
      req.headers.authorization === 'Bearer jwt-fresh-bbbb' ? sendJson(res, 200, { ok: 1 }) : sendJson(res, 401, {});
    const t = make({
      auth: () => Promise.resolve(token),
      onUnauthorized: () => {
        token = 'jwt-fresh-bbbb';
        return Promise.resolve(true);
      },
    });
    const res = await t.request({ method: 'GET', path: '/api/compute/v1/virtual-machines' });
    assert.deepEqual(await res.json(), { ok: 1 });
    assert.equal(server.requests.length, 2);
  });

  it('parses the error envelope into ApiError fields (400 with param)', async () => {
    handler = (_req, res) =>
      sendJson(res, 400, {
        error: { message: 'temperature must be <= 2', type: 'invalid_request_error', param: 'temperature', code: null },
      }, { 'x-request-id': 'rid-9' });
    await assert.rejects(make().request({ method: 'POST', path: '/v1/chat/completions', json: {} }), (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.equal(e.kind, 'api');
      assert.equal(e.status, 400);
      assert.equal(e.type, 'invalid_request_error');
      assert.equal(e.param, 'temperature');
      assert.equal(e.code, undefined);
      assert.equal(e.requestId, 'rid-9');
      assert.match(e.message, /temperature must be <= 2/);
      return true;
    });
    assert.equal(server.requests.length, 1, '400 is not retried');
  });

  it('maps 404 model_not_found to NotFoundError with the code, and 403 to ForbiddenError', async () => {
    handler = (_req, res) =>
      sendJson(res, 404, {
        error: { message: 'model x not found', type: 'invalid_request_error', param: 'model', code: 'model_not_found' },
      });
    await assert.rejects(make().request({ method: 'POST', path: '/v1/chat/completions', json: {} }), (e: unknown) => {
      assert.ok(e instanceof NotFoundError);
      assert.equal(e.kind, 'not_found');
      assert.equal(e.code, 'model_not_found');
      assert.equal(e.isModelNotFound, true);
      assert.equal(e.param, 'model');
      return true;
    });
    handler = (_req, res) => sendJson(res, 403, { message: 'missing permission compute.write' });
    await assert.rejects(make().request({ method: 'DELETE', path: '/api/compute/v1/virtual-machines/1' }), (e: unknown) => {
      assert.ok(e instanceof ForbiddenError);
      assert.equal(e.kind, 'forbidden');
      assert.match(e.message, /compute\.write/);
      return true;
    });
  });

  it("reads the console's 429 body and a plain-text error", async () => {
    handler = (_req, res) =>
      sendJson(res, 429, { error: { status: '429 Too Many Requests', message: 'Too Many Requests' } });
    await assert.rejects(
      make({ retry: { attempts: 1 } }).request({ method: 'GET', path: '/api/iam/v1/users' }),
      (e: unknown) => e instanceof RateLimitError && e.status === 429 && /Too Many Requests/.test(e.message),
    );
    handler = (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('upstream down');
    };
    await assert.rejects(make().request({ method: 'GET', path: '/v1/models' }), (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.equal(e.status, 502);
      assert.match(e.message, /upstream down/);
      return true;
    });
  });

  it('reports a 2xx body that is not JSON as MalformedResponseError without quoting it', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"oops": ${KEY}`);
    };
    const res = await make().request({ method: 'GET', path: '/v1/models' });
    await assert.rejects(res.json(), (e: unknown) => {
      assert.ok(e instanceof MalformedResponseError);
      assert.equal(e.kind, 'malformed_response');
      assert.ok(!e.message.includes(KEY));
      return true;
    });
  });

  it('validates the base URL lazily, with the setting name as param', async () => {
    const t = make({ baseUrl: '', baseUrlParam: 'stratus.inference.baseUrl' });
    await assert.rejects(
      t.request({ method: 'GET', path: '/v1/models' }),
      (e: unknown) => e instanceof ValidationError && e.param === 'stratus.inference.baseUrl',
    );
  });

  it('logs method, path, status and duration at debug, never the token', async () => {
    handler = (_req, res) => sendJson(res, 200, {});
    const logger = recordingLogger();
    await (await make({ logger }).request({ method: 'GET', path: '/v1/models', query: { key: KEY } })).json();
    const line = logger.lines.find((l) => l.startsWith('[debug] GET /v1/models'));
    assert.ok(line, logger.lines.join('\n'));
    assert.match(line, /GET \/v1\/models\?key=\[REDACTED\] 200 in \d+ ms/);
    assert.ok(logger.lines.every((l) => !l.includes(KEY) && !/authorization/i.test(l)));
  });

  it('posts multipart/form-data with file bytes and fields', async () => {
    handler = (_req, res) => sendJson(res, 200, {});
    await make().request({
      method: 'POST',
      path: '/v1/audio/transcriptions',
      form: [
        { name: 'file', data: new Uint8Array([1, 2, 3]), filename: 'a.wav', contentType: 'audio/wav' },
        { name: 'language', value: 'fr' },
      ],
    });
    const seen = server.requests[0];
    assert.ok(seen);
    const type = String(seen.headers['content-type']);
    assert.match(type, /^multipart\/form-data; boundary=/);
    const form = await new Response(seen.body, { headers: { 'content-type': type } }).formData();
    assert.equal(form.get('language'), 'fr');
    const file = form.get('file');
    assert.ok(file instanceof Blob);
    assert.deepEqual([...new Uint8Array(await file.arrayBuffer())], [1, 2, 3]);
  });
});
