import assert from 'node:assert/strict';
import { ValidationError } from '../../../src/core/errors';
import { joinUrl, parseBaseUrl } from '../../../src/core/http/url';

describe('http/url joinUrl', () => {
  const cases: Array<[string, string, string]> = [
    ['https://h/v1', '/v1/chat/completions', 'https://h/v1/chat/completions'],
    ['https://h/v1/', '/v1/chat/completions', 'https://h/v1/chat/completions'],
    ['https://h', '/v1/chat/completions', 'https://h/v1/chat/completions'],
    ['https://h/', '/v1/models', 'https://h/v1/models'],
    ['https://h/v1', '/v2/rerank', 'https://h/v2/rerank'],
    ['https://h', '/v2/rerank', 'https://h/v2/rerank'],
    ['https://h/proxy/llm/v1', '/v1/embeddings', 'https://h/proxy/llm/v1/embeddings'],
    ['https://h/proxy/llm', '/v1/embeddings', 'https://h/proxy/llm/v1/embeddings'],
    ['https://console.example.eu', '/api/iam/v2/roles', 'https://console.example.eu/api/iam/v2/roles'],
    ['https://console.example.eu/api/', '/api/iam/v2/roles', 'https://console.example.eu/api/iam/v2/roles'],
    ['http://127.0.0.1:8080//', 'v1/models', 'http://127.0.0.1:8080/v1/models'],
  ];
  for (const [base, path, expected] of cases) {
    it(`${base} + ${path}`, () => assert.equal(joinUrl(base, path), expected));
  }

  it('rejects an empty, invalid, non-http or credentialed base URL with the setting as param', () => {
    for (const bad of ['', '   ', 'not a url', 'ftp://h/v1', 'https://user:pw@h/v1']) {
      assert.throws(
        () => parseBaseUrl(bad, 'stratus.inference.baseUrl'),
        (e: unknown) => e instanceof ValidationError && e.param === 'stratus.inference.baseUrl' && !e.message.includes('pw'),
      );
    }
  });
});
