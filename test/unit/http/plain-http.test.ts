import assert from 'node:assert/strict';
import { ValidationError } from '../../../src/core/errors';
import { isPlainHttpToRemoteHost, PlainHttpGate } from '../../../src/core/http/plainHttp';
import { HttpTransport } from '../../../src/core/http/transport';
import { sendJson, startServer, type TestServer } from './helpers/server';

describe('plain http to a remote host', () => {
  it('is only plain http beyond loopback', () => {
    for (const url of ['http://inference.example.eu/v1', 'http://10.0.0.5:8080', 'http://[2001:db8::1]/']) {
      assert.equal(isPlainHttpToRemoteHost(new URL(url)), true, url);
    }
    for (const url of ['https://inference.example.eu/v1', 'http://127.0.0.1:8787', 'http://127.8.9.1', 'http://localhost:3000', 'http://[::1]:80/', 'http://api.localhost/']) {
      assert.equal(isPlainHttpToRemoteHost(new URL(url)), false, url);
    }
  });

  it('asks once per origin, shares one question between concurrent requests, remembers a yes', async () => {
    const asked: string[] = [];
    const remembered: string[] = [];
    const gate = new PlainHttpGate(async (origin) => {
      asked.push(origin);
      return true;
    }, [], (origin) => remembered.push(origin));
    const url = new URL('http://inference.example.eu/v1/models');
    await Promise.all([gate.check(url, 'inference API key', 'p'), gate.check(url, 'inference API key', 'p')]);
    await gate.check(url, 'inference API key', 'p');
    assert.deepEqual(asked, ['http://inference.example.eu']);
    assert.deepEqual(remembered, ['http://inference.example.eu']);
    await gate.check(new URL('https://inference.example.eu/v1'), 'k', 'p');
    assert.equal(asked.length, 1, 'https is never asked about');
  });

  it('a remembered origin is not asked again; a no fails with the setting to fix and is asked again next time', async () => {
    let answers = 0;
    const gate = new PlainHttpGate(async () => {
      answers++;
      return false;
    }, ['http://known.example']);
    await gate.check(new URL('http://known.example/x'), 'k', 'p');
    for (let i = 0; i < 2; i++) {
      await assert.rejects(gate.check(new URL('http://other.example/x'), 'console access token', 'stratus.console.baseUrl'), (e: unknown) => {
        assert.ok(e instanceof ValidationError);
        assert.equal(e.param, 'stratus.console.baseUrl');
        assert.match(e.message, /Refused to send the console access token unencrypted to http:\/\/other\.example/);
        return true;
      });
    }
    assert.equal(answers, 2);
  });

  describe('in the transport', () => {
    let server: TestServer;
    before(async () => {
      server = await startServer((_q, res) => sendJson(res, 200, {}));
    });
    after(() => server.close());

    it('the gate runs before a secret is sent; a refusal sends nothing', async () => {
      const seen: string[] = [];
      const t = new HttpTransport({
        // The sandbox is on loopback; a remote-looking name that resolves there stands for a remote host.
        baseUrl: server.url,
        auth: () => Promise.resolve('sk-never-sent-123'),
        beforeSecretSent: async (url, secretName, param) => {
          seen.push(`${url.origin} ${secretName} ${param}`);
          throw new ValidationError('refused', param);
        },
        secretName: 'inference API key',
        baseUrlParam: 'stratus.inference.baseUrl',
      });
      await assert.rejects(t.request({ method: 'GET', path: '/v1/models' }), ValidationError);
      assert.equal(server.requests.length, 0);
      assert.deepEqual(seen, [`${new URL(server.url).origin} inference API key stratus.inference.baseUrl`]);
      // Without a secret (no auth, no body secret) the gate is not consulted.
      const anonymous = new HttpTransport({ baseUrl: server.url, beforeSecretSent: () => Promise.reject(new Error('asked')) });
      await (await anonymous.request({ method: 'GET', path: '/v1/models' })).json();
      await assert.rejects(anonymous.request({ method: 'POST', path: '/x', json: { secret: 's' }, sendsSecret: true }), /asked/);
    });
  });
});
