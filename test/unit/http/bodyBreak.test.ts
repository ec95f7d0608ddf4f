import assert from 'node:assert/strict';
import { NetworkError, OutcomeUnknownError } from '../../../src/core/errors';
import { HttpTransport } from '../../../src/core/http/transport';
import { presentError } from '../../../src/core/presentError';
import { serverForSuite, type Handler } from './helpers/server';

// A 200 whose body breaks half-way: the service was reached, so the error must not say it could not
// be; a read (GET, or a request marked idempotent) is sent again, a write never.
describe('http/transport: a connection that breaks in the response body', () => {
  const suite = serverForSuite();
  let transport: HttpTransport | undefined;
  afterEach(async () => {
    await transport?.close();
    transport = undefined;
  });

  const make = (attempts = 4): HttpTransport =>
    (transport = new HttpTransport({ baseUrl: suite.server.url, auth: () => Promise.resolve('sk-body-break-test-key'), retry: { attempts, baseDelayMs: 1, maxDelayMs: 2, maxWaitMs: 100 } }));

  /** Sends the headers and half a JSON body, then resets the connection, for the first `breaks` requests. */
  function breakingBody(breaks: number): Handler {
    return (_req, res, _body, n) => {
      if (n > breaks) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: [{ id: 'whole' }], n }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '400' });
      res.write('{"data": [{"id": "half');
      setTimeout(() => res.socket?.destroy(), 5);
    };
  }

  it('sends a GET again when its body broke, and answers from the second response', async () => {
    suite.handle(breakingBody(1));
    const res = await make().request({ method: 'GET', path: '/v1/models' });
    assert.deepEqual(await res.json(), { data: [{ id: 'whole' }], n: 2 });
    assert.equal(suite.server.requests.length, 2);
  });

  it('gives up after the attempts with an error that says the connection broke while the answer arrived', async () => {
    suite.handle(breakingBody(10));
    const res = await make(2).request({ method: 'GET', path: '/v1/models' });
    // The last attempt's body is left to the caller (streaming readers read it themselves).
    const error = await res.json().then(
      () => assert.fail('a broken body must not parse'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof NetworkError, String(error));
    assert.equal(error.phase, 'response');
    assert.match(error.message, /connection broke while the response was read/);
    assert.doesNotMatch(error.message, /sk-body-break-test-key/);
    const shown = presentError(error);
    assert.match(shown.message, /broke while its answer was arriving/);
    assert.doesNotMatch(shown.message, /Cannot reach the service/);
    assert.deepEqual(shown.actions, ['retry', 'showLog']);
    assert.equal(suite.server.requests.length, 2);
  });

  it('never sends a write again when its answer broke: one request, the outcome is the caller’s to judge', async () => {
    suite.handle(breakingBody(10));
    const res = await make().request({ method: 'POST', path: '/v1/things', json: { a: 1 }, write: true });
    await assert.rejects(res.json(), (e: unknown) => e instanceof NetworkError || e instanceof OutcomeUnknownError);
    assert.equal(suite.server.requests.length, 1);
  });

  it('does not send a POST again either (not idempotent unless marked)', async () => {
    suite.handle(breakingBody(10));
    const res = await make().request({ method: 'POST', path: '/v1/embeddings', json: { input: ['a'] } });
    await assert.rejects(res.json(), NetworkError);
    assert.equal(suite.server.requests.length, 1);
  });

  it('a read whose whole body arrived reads the same from memory (text, json, body once)', async () => {
    suite.handle(breakingBody(0));
    const res = await make().request({ method: 'GET', path: '/v1/models' });
    assert.equal(await res.text(), JSON.stringify({ data: [{ id: 'whole' }], n: 1 }));
    const chunks: Uint8Array[] = [];
    for await (const c of res.body) chunks.push(c);
    assert.equal(Buffer.concat(chunks).toString('utf8'), JSON.stringify({ data: [{ id: 'whole' }], n: 1 }));
    res.dispose();
  });
});
