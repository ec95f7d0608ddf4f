import assert from 'node:assert/strict';
import { hostOf, NetworkActivity } from '../../../src/core/http/networkActivity';
import { countedBody, featureOfPath, payloadBytes, utf8Length } from '../../../src/core/http/traffic';
import { HttpTransport } from '../../../src/core/http/transport';
import { createInferenceClient } from '../../../src/core/inference/client';
import { sendJson, startServer, type Handler, type TestServer } from './helpers/server';

const SECRET_TEXT = 'the secret prompt: launch codes 0000';

function recorder(expected: string[] = ['api.example.eu'], now: () => number = () => 1_000): { activity: NetworkActivity; noticed: string[] } {
  const noticed: string[] = [];
  const activity = new NetworkActivity({ now, expectedHosts: () => expected, onUnexpectedHost: (h) => noticed.push(h) });
  return { activity, noticed };
}

describe('http/networkActivity: the recorder', () => {
  it('counts requests and bytes per host and feature, with the last time from the injected clock', () => {
    let clock = 1_000;
    const { activity } = recorder(['api.example.eu', 'console.example.eu'], () => clock);
    const received = activity.sent({ host: 'API.example.eu', feature: 'chat', bytes: 120 });
    received(30);
    received(12);
    clock = 2_000;
    activity.sent({ host: 'api.example.eu', feature: 'chat', bytes: 80 })(8);
    clock = 3_000;
    activity.sent({ host: 'console.example.eu', feature: 'console', bytes: 0 })(500);
    clock = 4_000;
    activity.sent({ host: 'api.example.eu', feature: 'embeddings', bytes: 10 });

    const [api, consoleHost] = activity.snapshot();
    assert.equal(api?.host, 'api.example.eu');
    assert.deepEqual(
      { requests: api?.requests, sent: api?.sentBytes, received: api?.receivedBytes, last: api?.lastAt, expected: api?.expected },
      { requests: 3, sent: 210, received: 50, last: 4_000, expected: true },
    );
    assert.deepEqual(api?.features, [
      { feature: 'embeddings', requests: 1, sentBytes: 10, receivedBytes: 0, lastAt: 4_000 },
      { feature: 'chat', requests: 2, sentBytes: 200, receivedBytes: 50, lastAt: 2_000 },
    ]);
    assert.deepEqual({ host: consoleHost?.host, requests: consoleHost?.requests, received: consoleHost?.receivedBytes }, { host: 'console.example.eu', requests: 1, received: 500 });
  });

  it('tells of a host outside the expected ones once per host, and marks it', () => {
    const { activity, noticed } = recorder();
    activity.sent({ host: 'api.example.eu', feature: 'chat', bytes: 1 });
    activity.sent({ host: 'tracker.example.com', feature: 'chat', bytes: 1 });
    activity.sent({ host: 'tracker.example.com', feature: 'models', bytes: 1 });
    activity.sent({ host: 'other.example.com:8443', feature: 'chat', bytes: 1 });
    activity.sent({ host: 'TRACKER.example.com', feature: 'chat', bytes: 1 });
    assert.deepEqual(noticed, ['tracker.example.com', 'other.example.com:8443']);
    assert.equal(activity.snapshot().find((h) => h.host === 'tracker.example.com')?.expected, false);
  });

  it('counts an invalid size as nothing rather than poisoning the sums', () => {
    const { activity } = recorder();
    const received = activity.sent({ host: 'api.example.eu', feature: 'chat', bytes: Number.NaN });
    received(-5);
    received(Number.POSITIVE_INFINITY);
    received(1.5);
    received(7);
    assert.deepEqual({ s: activity.snapshot()[0]?.sentBytes, r: activity.snapshot()[0]?.receivedBytes }, { s: 0, r: 7 });
  });

  it('hostOf takes the host and port of a base URL, nothing for a blank or invalid one', () => {
    assert.equal(hostOf('https://API.example.eu/v1'), 'api.example.eu');
    assert.equal(hostOf('http://127.0.0.1:8080'), '127.0.0.1:8080');
    assert.equal(hostOf(''), undefined);
    assert.equal(hostOf('not a url'), undefined);
  });
});

describe('http/traffic: sizes and features', () => {
  it('measures UTF-8 lengths and payloads as the wire sees them', () => {
    for (const text of ['', 'abc', 'wörld', '€uro', '🙂 ok', 'lone \ud800 surrogate']) {
      assert.equal(utf8Length(text), new TextEncoder().encode(text).byteLength, text);
    }
    assert.equal(payloadBytes({ kind: 'none' }), 0);
    assert.equal(payloadBytes({ kind: 'raw', data: new Uint8Array(9), contentType: 'x' }), 9);
    assert.equal(payloadBytes({ kind: 'form', fields: [{ name: 'a', value: 'héllo' }, { name: 'f', data: new Uint8Array(4), filename: 'f' }] }), 10);
  });

  it('names a request by its path when the caller did not', () => {
    assert.equal(featureOfPath('/v1/chat/completions'), 'chat');
    assert.equal(featureOfPath('/v1/embeddings'), 'embeddings');
    assert.equal(featureOfPath('/v2/rerank'), 'rerank');
    assert.equal(featureOfPath('/v1/audio/transcriptions'), 'transcription');
    assert.equal(featureOfPath('/v1/models'), 'models');
    assert.equal(featureOfPath('/api/compute/v1/virtual-machines'), 'console');
    assert.equal(featureOfPath('/elsewhere'), 'other');
  });

  it('counts a body chunk by chunk as it is read', async () => {
    const seen: number[] = [];
    const source = { async *[Symbol.asyncIterator]() { yield new Uint8Array(3); yield new Uint8Array(5); } };
    const chunks: number[] = [];
    for await (const chunk of countedBody(source, (n) => seen.push(n))) chunks.push(chunk.byteLength);
    assert.deepEqual(seen, [3, 5]);
    assert.deepEqual(chunks, [3, 5]);
  });

  it('passes an early exit on to the inner body (which cancels the connection)', async () => {
    let returned = false;
    const inner = {
      [Symbol.asyncIterator]: (): AsyncIterator<Uint8Array> => ({
        next: () => Promise.resolve({ done: false, value: new Uint8Array(2) }),
        return: () => {
          returned = true;
          return Promise.resolve({ done: true, value: undefined });
        },
      }),
    };
    const seen: number[] = [];
    for await (const chunk of countedBody(inner, (n) => seen.push(n))) {
      assert.equal(chunk.byteLength, 2);
      break;
    }
    assert.ok(returned);
    assert.deepEqual(seen, [2]);
  });
});

describe('http/networkActivity: through the transport', () => {
  let server: TestServer;
  let handler: Handler;
  before(async () => {
    server = await startServer((req, res, body, n) => handler(req, res, body, n));
  });
  after(() => server.close());

  it('records a streamed chat answer: host, the purpose as feature, body size and every byte read, and no text', async () => {
    const events = [
      { choices: [{ index: 0, delta: { content: 'Hello' }, finish_reason: null }] },
      { choices: [{ index: 0, delta: { content: ' there' }, finish_reason: 'stop' }] },
    ];
    const sse = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).concat('data: [DONE]\n\n');
    handler = async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const line of sse) {
        res.write(line);
        await new Promise((r) => setImmediate(r));
      }
      res.end();
    };
    const host = new URL(server.url).host;
    const { activity, noticed } = recorder([host]);
    const client = createInferenceClient({ baseUrl: server.url, apiKey: () => Promise.resolve('sk-test-network'), traffic: activity, retry: { attempts: 1 } });
    try {
      const stream = client.chatStream({ model: 'm', messages: [{ role: 'user', content: SECRET_TEXT }] }, { purpose: 'edit' });
      await stream.consume();
    } finally {
      await client.close();
    }
    const sentBody = server.requests.at(-1)?.body;
    const [entry] = activity.snapshot();
    assert.equal(entry?.host, host);
    assert.deepEqual(noticed, []);
    assert.deepEqual(entry?.features.map((f) => [f.feature, f.requests, f.sentBytes, f.receivedBytes]), [
      ['edit', 1, sentBody?.byteLength, Buffer.byteLength(sse.join(''))],
    ]);
    const state = JSON.stringify(entry);
    assert.ok(!state.includes('launch codes') && !state.includes('Hello') && !state.includes('sk-test'), state);
  });

  it('records an error answer and a request to an unexpected host once', async () => {
    handler = (_req, res) => sendJson(res, 404, { error: { message: 'nope', type: 'not_found' } });
    const { activity, noticed } = recorder(['api.example.eu']);
    const transport = new HttpTransport({ baseUrl: server.url, traffic: activity, retry: { attempts: 1 } });
    for (let i = 0; i < 2; i++) {
      await assert.rejects(transport.request({ method: 'GET', path: '/v1/models' }));
    }
    await transport.close();
    const host = new URL(server.url).host;
    assert.deepEqual(noticed, [host]);
    const [entry] = activity.snapshot();
    assert.deepEqual(entry?.features.map((f) => [f.feature, f.requests, f.sentBytes]), [['models', 2, 0]]);
    assert.ok((entry?.receivedBytes ?? 0) > 0);
  });
});
