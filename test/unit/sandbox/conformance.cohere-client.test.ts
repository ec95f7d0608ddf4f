import assert from 'node:assert/strict';
import { CohereClientV2 } from 'cohere-ai';
import { useSandbox } from './helpers';

/** `/v2/rerank` through the official `cohere-ai` v2 client: if it cannot parse the sandbox, the sandbox is wrong. */
for (const profile of ['contract', 'production'] as const) {
  describe(`conformance: cohere-ai CohereClientV2.rerank (${profile})`, () => {
    const sb = useSandbox({ profile });
    const client = (): CohereClientV2 => new CohereClientV2({ token: sb().credentials.apiKey, baseUrl: sb().inferenceUrl.replace(/\/v1$/, ''), maxRetries: 0 });

    it('reranks with topN and parses the response into its typed result', async () => {
      const response = await client().rerank({
        model: 'qwen3-reranker:4b',
        query: 'capital of the United States',
        documents: [
          'Carson City is the capital city of the American state of Nevada.',
          'Washington, D.C. is the capital of the United States.',
          'Capital punishment has existed in the United States since before it was a country.',
        ],
        topN: 2,
      });
      assert.equal(response.results.length, 2);
      assert.equal(response.results[0]?.index, 1, 'the most relevant document first');
      assert.ok((response.results[0]?.relevanceScore ?? 0) >= (response.results[1]?.relevanceScore ?? 0));
      assert.ok(Number.isInteger(response.meta?.billedUnits?.searchUnits));
    });

    it('surfaces the sandbox 401 as the client\'s own error type', async () => {
      const bad = new CohereClientV2({ token: 'not-the-key', baseUrl: sb().inferenceUrl.replace(/\/v1$/, ''), maxRetries: 0 });
      await assert.rejects(bad.rerank({ model: 'qwen3-reranker:4b', query: 'q', documents: ['d'] }), (error: { statusCode?: number }) => error.statusCode === 401);
    });
  });
}
