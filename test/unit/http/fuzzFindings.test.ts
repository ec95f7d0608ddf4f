// Counterexamples found by the property suite (test/unit/properties), kept as plain examples.
import assert from 'node:assert/strict';
import { RateLimitError } from '../../../src/core/errors';
import { HttpTransport } from '../../../src/core/http/transport';
import { sendJson, startServer, type TestServer } from './helpers/server';

describe('transport options found by fuzzing', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer((_q, res) => sendJson(res, 429, { error: { message: 'slow down' } }, { 'retry-after': '86400' }));
  });
  after(() => server.close());

  it('a retry cap of NaN (a string in settings.json) is the default 20 s: a day-long Retry-After fails at once, not after a day', async () => {
    const transport = new HttpTransport({ baseUrl: server.url, retry: { maxWaitMs: Number.NaN, attempts: 2 } });
    await assert.rejects(transport.request({ method: 'GET', path: '/v1/models' }), (e: unknown) => e instanceof RateLimitError && e.retryAfterMs === 86_400_000);
    assert.equal(server.requests.length, 1);
    await transport.close();
  });
});
