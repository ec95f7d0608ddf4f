import assert from 'node:assert/strict';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { NetworkError } from '../../../src/core/errors';
import { HttpTransport } from '../../../src/core/http/transport';
import type { TransportOptions } from '../../../src/core/http/types';
import { recordingLogger } from './helpers/logger';
import { startProxy, type TestProxy } from './helpers/proxy';
import { sendJson, startServer, type TestServer } from './helpers/server';
import { makeTestPki, type TestPki } from './helpers/tls';
import { engineTrusting, proxiedEngine } from './helpers/engine';

const PROXY_ENV = ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy'] as const;

describe('http/transport proxy (through the injected engine)', () => {
  let server: TestServer;
  let proxy: TestProxy;
  const transports: HttpTransport[] = [];
  const savedEnv = new Map<string, string | undefined>();

  before(async () => {
    server = await startServer((_q, res) => sendJson(res, 200, { via: 'target' }));
    proxy = await startProxy();
  });
  after(async () => {
    await server.close();
    await proxy.close();
  });
  beforeEach(() => {
    for (const k of PROXY_ENV) {
      savedEnv.set(k, process.env[k]);
      delete process.env[k];
    }
    proxy.tunnels.length = 0;
  });
  afterEach(async () => {
    for (const [k, v] of savedEnv) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await Promise.all(transports.splice(0).map((t) => t.close()));
  });

  function make(options: Partial<TransportOptions> = {}): HttpTransport {
    const t = new HttpTransport({ baseUrl: server.url, retry: { attempts: 1 }, ...options });
    transports.push(t);
    return t;
  }

  const target = (): string => `127.0.0.1:${server.port}`;

  it('sends requests through the engine it is given (a proxied one) unchanged', async () => {
    const res = await make({ fetch: proxiedEngine(proxy.url) }).request({ method: 'GET', path: '/v1/models' });
    assert.deepEqual(await res.json(), { via: 'target' });
    assert.deepEqual(proxy.tunnels, [target()]);
  });

  it('ignores HTTP_PROXY itself: the network is the engine\'s business (VS Code\'s fetch in the host)', async () => {
    process.env.HTTP_PROXY = proxy.url;
    await (await make().request({ method: 'GET', path: '/v1/models' })).json();
    assert.deepEqual(proxy.tunnels, []);
  });

  it('keeps proxy credentials out of errors and logs', async () => {
    const strict = await startProxy({ requireAuth: 'Basic nobody' });
    try {
      const logger = recordingLogger();
      const t = make({ fetch: proxiedEngine(strict.url.replace('http://', 'http://alice:s3cr3t-proxy-pw@')), logger });
      await assert.rejects(t.request({ method: 'GET', path: '/v1/models' }), (e: unknown) => {
        assert.ok(e instanceof NetworkError, String(e));
        assert.match(e.message, /407|tunnel/i);
        assert.ok(!e.message.includes('s3cr3t-proxy-pw'), e.message);
        return true;
      });
      assert.ok(strict.authorizations[0]?.startsWith('Basic '), 'credentials were sent to the proxy');
      assert.ok(logger.lines.every((l) => !l.includes('s3cr3t-proxy-pw')));
    } finally {
      await strict.close();
    }
  });
});

describe('http/transport TLS with extra CA certificates', function () {
  let pki: TestPki | undefined;
  let https: HttpsServer | undefined;
  let port = 0;
  let served = 0;
  let lastAuthorization: string | undefined;
  const sockets = new Set<Socket>();
  const transports: HttpTransport[] = [];

  before(async () => {
    pki = makeTestPki();
    // openssl makes the throwaway CA; it is part of every Debian base image (and setup.sh checks).
    if (!pki) throw new Error('openssl is needed to make the test CA: apt-get install openssl');
    https = createHttpsServer({ key: pki.serverKey, cert: pki.serverCert }, (q, res) => {
      served++;
      lastAuthorization = q.headers.authorization;
      sendJson(res, 200, { tls: true });
    });
    https.on('connection', (s: Socket) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((r) => https?.listen(0, '127.0.0.1', r));
    port = (https.address() as AddressInfo).port;
  });
  after(async () => {
    await Promise.all(transports.splice(0).map((t) => t.close()));
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => (https ? https.close(() => r()) : r()));
  });

  function make(options: Partial<TransportOptions> = {}): HttpTransport {
    const t = new HttpTransport({ baseUrl: `https://127.0.0.1:${port}/v1`, retry: { attempts: 3, baseDelayMs: 1 }, ...options });
    transports.push(t);
    return t;
  }

  it('rejects an unknown CA (not retried)', async () => {
    const logger = recordingLogger();
    await assert.rejects(make({ logger }).request({ method: 'GET', path: '/v1/models' }), (e: unknown) => {
      assert.ok(e instanceof NetworkError, String(e));
      assert.match(e.code ?? '', /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/);
      return true;
    });
    assert.equal(logger.lines.filter((l) => l.includes('failed after')).length, 1);
  });

  it('rejects an unknown CA for a POST too: never sent, so not "outcome unknown"', async () => {
    await assert.rejects(make().request({ method: 'POST', path: '/v1/chat/completions', json: {} }), (e: unknown) => {
      assert.ok(e instanceof NetworkError, String(e));
      return true;
    });
    assert.equal(served, 0);
  });

  it('works over an engine that trusts the CA, also through a proxy tunnel that sees only host:port', async () => {
    assert.deepEqual(await (await make({ fetch: engineTrusting(pki?.caCert ?? '') }).request({ method: 'GET', path: '/v1/models' })).json(), { tls: true });
    const proxy = await startProxy();
    try {
      const t = make({ fetch: proxiedEngine(proxy.url, pki?.caCert), auth: () => Promise.resolve('sk-tunnelled-secret-123') });
      assert.deepEqual(await (await t.request({ method: 'GET', path: '/v1/models' })).json(), { tls: true });
      assert.deepEqual(proxy.tunnels, [`127.0.0.1:${port}`]);
      assert.ok(!JSON.stringify(proxy).includes('sk-tunnelled-secret-123'));
      assert.equal(lastAuthorization, 'Bearer sk-tunnelled-secret-123');
    } finally {
      await proxy.close();
    }
  });
});
