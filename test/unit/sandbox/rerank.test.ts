import assert from 'node:assert/strict';
import { infer, useSandbox, type ErrorEnvelope } from './helpers';

interface RerankResponse {
  id: string;
  results: Array<{ index: number; relevance_score: number; document?: { text: string } }>;
  usage: { billed_units: { search_units: number }; total_tokens: number };
  meta: { api_version: { version: string }; billed_units: { search_units: number } };
  [extra: string]: unknown;
}

const documents = ['The cat sat on the mat.', 'Virtual machines run in the cloud datacenter.', 'Start a virtual machine from the console.', 'Bananas are yellow.'];

describe('sandbox inference: rerank (/v1/rerank and /v2/rerank)', () => {
  const sb = useSandbox();

  for (const path of ['/rerank', '/v2/rerank']) {
    it(`${path}: orders by lexical relevance, most relevant first, with documents and billed units`, async () => {
      const r = await infer(sb(), path, { model: 'qwen3-reranker:4b', query: 'start virtual machine', documents });
      assert.equal(r.status, 200);
      const body = r.json as RerankResponse;
      assert.equal(typeof body.id, 'string');
      assert.deepEqual(
        body.results.map((x) => x.index),
        [2, 1, 0, 3],
      );
      const scores = body.results.map((x) => x.relevance_score);
      assert.deepEqual([...scores].sort((a, b) => b - a), scores);
      assert.ok(scores.every((s) => s >= 0 && s <= 1));
      assert.equal(body.results[0]?.document?.text, documents[2]);
      assert.equal(body.results[3]?.relevance_score, 0);
      assert.equal(body.usage.billed_units.search_units, 1);
      assert.equal(body.meta.billed_units.search_units, 1);
      assert.equal(body.meta.api_version.version, path.startsWith('/v2') ? '2' : '1');
      assert.ok(body.usage.total_tokens > 0);
    });
  }

  it('top_n limits the results; return_documents false omits the documents', async () => {
    const r = await infer(sb(), '/rerank', { model: 'qwen3-reranker:4b', query: 'virtual machine', documents, top_n: 2, return_documents: false });
    const body = r.json as RerankResponse;
    assert.equal(body.results.length, 2);
    for (const result of body.results) assert.deepEqual(Object.keys(result).sort(), ['index', 'relevance_score']);
    const many = await infer(sb(), '/rerank', { model: 'qwen3-reranker:4b', query: 'x', documents, top_n: 50 });
    assert.equal((many.json as RerankResponse).results.length, 4);
  });

  it('ties keep the submitted order and scores are deterministic', async () => {
    const a = await infer(sb(), '/rerank', { model: 'qwen3-reranker:4b', query: 'zzz', documents: ['a', 'b', 'c'] });
    assert.deepEqual(
      (a.json as RerankResponse).results.map((x) => x.index),
      [0, 1, 2],
    );
    const b = await infer(sb(), '/rerank', { model: 'qwen3-reranker:4b', query: 'cat mat', documents });
    const c = await infer(sb(), '/rerank', { model: 'qwen3-reranker:4b', query: 'cat mat', documents });
    assert.deepEqual((b.json as RerankResponse).results, (c.json as RerankResponse).results);
  });

  it('billed search units: one per 100 documents', async () => {
    const many = Array.from({ length: 250 }, (_, i) => `doc ${i}`);
    const r = await infer(sb(), '/v2/rerank', { model: 'qwen3-reranker:4b', query: 'doc', documents: many, top_n: 3 });
    assert.equal((r.json as RerankResponse).usage.billed_units.search_units, 3);
  });

  const bad: Array<[string, Record<string, unknown>, number, string]> = [
    ['missing query', { query: undefined }, 400, 'query'],
    ['empty query', { query: '  ' }, 400, 'query'],
    ['missing documents', { documents: undefined }, 400, 'documents'],
    ['empty documents', { documents: [] }, 400, 'documents'],
    ['a number as document', { documents: ['ok', 3] }, 400, 'documents'],
    ['top_n zero', { top_n: 0 }, 400, 'top_n'],
    ['top_n fractional', { top_n: 1.5 }, 400, 'top_n'],
    ['return_documents not boolean', { return_documents: 'yes' }, 400, 'return_documents'],
    ['an embedding model', { model: 'bge-m3:567m' }, 400, 'model'],
    ['unknown model', { model: 'rerank-english-v3.0' }, 404, 'model'],
  ];
  for (const [title, overrides, status, param] of bad) {
    it(`${status} param ${param}: ${title}`, async () => {
      const body: Record<string, unknown> = { model: 'qwen3-reranker:4b', query: 'q', documents: ['d'], ...overrides };
      for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
      const r = await infer(sb(), '/v2/rerank', body);
      assert.equal(r.status, status);
      assert.equal((r.json as ErrorEnvelope).error.param, param);
    });
  }
});
