import assert from 'node:assert/strict';
import { redact, REDACTED, Redactor } from '../../../src/core/http/redact';
import { HttpTransport } from '../../../src/core/http/transport';
import { sendJson, startServer } from './helpers/server';

describe('http/redact', () => {
  it('removes every occurrence of each known secret', () => {
    const out = redact('key sk-live-123456 then sk-live-123456 and tok-abcdef', ['sk-live-123456', 'tok-abcdef']);
    assert.equal(out, `key ${REDACTED} then ${REDACTED} and ${REDACTED}`);
  });

  it('removes Authorization values and URL credentials even for unknown secrets', () => {
    const out = redact('Authorization: Bearer abc.def-ghi and proxy http://bob:hunter2@proxy:3128/');
    assert.ok(!out.includes('abc.def-ghi'));
    assert.ok(!out.includes('hunter2'));
    assert.ok(out.includes(`Bearer ${REDACTED}`));
  });

  it('ignores empty and very short values instead of shredding the text', () => {
    assert.equal(redact('a b c', ['', undefined, 'a']), 'a b c');
    assert.equal(redact('Bearer token missing'), 'Bearer token missing');
  });

  it('Redactor keeps long-lived secrets pinned however many JWTs rotate through its slot', () => {
    const r = new Redactor();
    r.add('long-lived-api-key');
    r.add('proxy-password');
    for (let i = 0; i < 1000; i++) r.setSlot('consoleJwt', `eyJ.rotated-token-${i}`);
    assert.equal(r.redact('long-lived-api-key and proxy-password'), `${REDACTED} and ${REDACTED}`);
    assert.equal(r.redact('eyJ.rotated-token-999'), REDACTED, 'the current JWT is redacted');
    assert.equal(r.redact('x eyJ.rotated-token-998 x'), 'x eyJ.rotated-token-998 x', 'an expired JWT is no longer tracked');
    r.setSlot('consoleJwt', undefined);
    assert.equal(r.redact('eyJ.rotated-token-999'), 'eyJ.rotated-token-999');
  });

  it('Redactor also matches a pinned secret given with surrounding whitespace', () => {
    const r = new Redactor();
    r.add('  padded-secret-value\n');
    assert.equal(r.redact('key=padded-secret-value'), `key=${REDACTED}`);
  });
});

describe('one redactor shared by the transports and the log', () => {
  it('a rotating bearer token takes the slot; a long-lived one stays pinned across any number of rotations', async () => {
    const server = await startServer((_q, res) => sendJson(res, 200, {}));
    try {
      const shared = new Redactor();
      const inference = new HttpTransport({ baseUrl: server.url, redactor: shared, auth: () => Promise.resolve('sk-long-lived-api-key') });
      await (await inference.request({ method: 'GET', path: '/v1/models' })).json();
      let n = 0;
      const console = new HttpTransport({ baseUrl: server.url, redactor: shared, tokenSlot: 'consoleJwt', auth: () => Promise.resolve(`eyJhbGciOi.jwt-${++n}.sig`) });
      for (let i = 0; i < 50; i++) await (await console.request({ method: 'GET', path: '/api/iam/v1/users' })).json();
      const line = `key sk-long-lived-api-key jwt eyJhbGciOi.jwt-${n}.sig`;
      assert.equal(shared.redact(line), `key ${REDACTED} jwt ${REDACTED}`);
    } finally {
      await server.close();
    }
  });
});

describe('the request target in errors', () => {
  it('is redacted of a key first learned during that request (a gateway with the key in its path)', async () => {
    const key = 'gw-key-5f1c9a7e22';
    const server = await startServer((_q, res) => sendJson(res, 400, { error: { message: 'bad request', type: 'invalid_request_error' } }));
    try {
      const transport = new HttpTransport({ baseUrl: `${server.url}/${key}/v1`, auth: () => Promise.resolve(key), retry: { attempts: 1 } });
      const error = await transport.request({ method: 'POST', path: '/v1/chat/completions', json: {} }).then(
        () => assert.fail('expected an error'),
        (e: unknown) => e as Error,
      );
      assert.ok(error.message.includes('/chat/completions'), error.message);
      assert.ok(!error.message.includes(key), `the first request's error shows the key: ${error.message}`);
    } finally {
      await server.close();
    }
  });
});
