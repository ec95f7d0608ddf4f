import assert from 'node:assert/strict';
import { call, useSandbox, type ErrorEnvelope } from './helpers';

describe('sandbox inference: bearer auth', () => {
  const sb = useSandbox();
  const routes: Array<[string, string]> = [
    ['GET', '/v1/models'],
    ['POST', '/v1/chat/completions'],
    ['POST', '/v1/completions'],
    ['POST', '/v1/embeddings'],
    ['POST', '/v1/rerank'],
    ['POST', '/v2/rerank'],
    ['POST', '/v1/audio/transcriptions'],
  ];

  for (const [method, path] of routes) {
    it(`${method} ${path} without a key: 401 authentication_error envelope`, async () => {
      const r = await call(`${sb().consoleUrl}${path}`, { method, ...(method === 'POST' ? { body: {} } : {}) });
      assert.equal(r.status, 401);
      const body = r.json as ErrorEnvelope;
      assert.equal(body.error.type, 'authentication_error');
      assert.equal(typeof body.error.message, 'string');
      assert.equal(body.error.code, undefined);
      assert.ok(r.headers.get('x-ratelimit-limit-requests'), 'rate-limit headers on errors too');
    });
  }

  it('a wrong key, a non-Bearer scheme and the console PAT secret are all rejected', async () => {
    for (const authorization of ['Bearer sk-wrong', 'Basic c2stc2FuZGJveA==', `Bearer ${sb().credentials.patSecret}`, sb().credentials.apiKey]) {
      const r = await call(`${sb().inferenceUrl}/models`, { headers: { authorization } });
      assert.equal(r.status, 401, authorization);
    }
  });

  it('the demo key is accepted, scheme case-insensitive', async () => {
    const r = await call(`${sb().inferenceUrl}/models`, { headers: { authorization: `bearer ${sb().credentials.apiKey}` } });
    assert.equal(r.status, 200);
  });

  it('unknown routes under /v1 answer 404 once authenticated, wrong methods 405', async () => {
    const headers = { authorization: `Bearer ${sb().credentials.apiKey}` };
    const missing = await call(`${sb().inferenceUrl}/assistants`, { headers });
    assert.equal(missing.status, 404);
    assert.equal((missing.json as ErrorEnvelope).error.type, 'invalid_request_error');
    const wrong = await call(`${sb().inferenceUrl}/chat/completions`, { headers });
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.get('allow'), 'POST');
  });
});
