import assert from 'node:assert/strict';
import { useSandbox } from './helpers';

/**
 * `/v2/rerank` against the documented wire format of Cohere's v2 rerank client, written by hand
 * (same host without /v1, JSON body {model, query, documents: string[], top_n}, bearer key) so the
 * exact bytes are asserted; conformance.cohere-client.test.ts runs the real `cohere-ai` client.
 */

interface CohereV2RerankResponse {
  id: string;
  results: Array<{ index: number; relevance_score: number; document?: { text: string } }>;
  meta: { api_version: { version: string }; billed_units: { search_units: number } };
  usage: { billed_units: { search_units: number } };
}

function assertCohereShape(value: unknown): asserts value is CohereV2RerankResponse {
  assert.ok(typeof value === 'object' && value !== null);
  const body = value as Record<string, unknown>;
  assert.equal(typeof body.id, 'string');
  assert.ok(Array.isArray(body.results));
  for (const result of body.results as Array<Record<string, unknown>>) {
    assert.ok(Number.isInteger(result.index));
    assert.equal(typeof result.relevance_score, 'number');
  }
  const meta = body.meta as { api_version?: { version?: unknown }; billed_units?: { search_units?: unknown } };
  assert.equal(meta.api_version?.version, '2');
  assert.ok(Number.isInteger(meta.billed_units?.search_units));
  const usage = body.usage as { billed_units?: { search_units?: unknown } };
  assert.equal(usage.billed_units?.search_units, meta.billed_units?.search_units, 'contract shape too');
}

describe('conformance: Cohere-style v2 rerank client wire format', () => {
  const sb = useSandbox({ profile: 'production' });

  it('a Cohere v2 request (host root + /v2/rerank) gets a Cohere v2 response', async () => {
    const base = sb().inferenceUrl.replace(/\/v1$/, '');
    const response = await fetch(`${base}/v2/rerank`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${sb().credentials.apiKey}`,
        'Content-Type': 'application/json',
        Accept: 'application/json',
        'X-Fern-Language': 'JavaScript',
        'X-Client-Name': 'stratus-conformance',
      },
      body: JSON.stringify({
        model: 'qwen3-reranker:4b',
        query: 'What is the capital of the United States?',
        documents: [
          'Carson City is the capital city of the American state of Nevada.',
          'Washington, D.C. is the capital of the United States.',
          'Capital punishment has existed in the United States since before it was a country.',
        ],
        top_n: 2,
        return_documents: true,
      }),
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const body: unknown = await response.json();
    assertCohereShape(body);
    assert.equal(body.results.length, 2);
    assert.equal(body.results[0]?.index, 1);
    assert.equal(body.results[0]?.document?.text, 'Washington, D.C. is the capital of the United States.');
    assert.equal(body.meta.billed_units.search_units, 1);
  });

  it('errors keep the inference envelope (a Cohere client reads the status and message)', async () => {
    const base = sb().inferenceUrl.replace(/\/v1$/, '');
    const response = await fetch(`${base}/v2/rerank`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${sb().credentials.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'qwen3-reranker:4b', query: 'q', documents: [] }),
    });
    assert.equal(response.status, 400);
    const body = (await response.json()) as { error: { message: string; param: string } };
    assert.equal(body.error.param, 'documents');
  });
});
