import assert from 'node:assert/strict';
import { MalformedResponseError, ValidationError } from '../../../src/core/errors';
import { sendJson, sendSse } from '../http/helpers/server';
import { completion, textStream } from './helpers/contract';
import { requestJson, startRig, type Rig } from './helpers/client';

describe('inference endpoints', () => {
  let rig: Rig;
  before(async () => {
    rig = await startRig();
  });
  after(() => rig.close());
  afterEach(() => rig.reset());

  describe('completions', () => {
    it('sends the prompt as a user message (with an optional system message) to /v1/completions', async () => {
      rig.handler = (_q, res) => sendJson(res, 200, completion({ content: 'return a + b;' }));
      const result = await rig.client().complete({ model: 'gpt-oss:120b', prompt: 'function add(a, b) {', system: 'Complete code.', max_tokens: 32 });
      assert.equal(rig.server.requests[0]?.url, '/v1/completions');
      assert.deepEqual(requestJson(rig), {
        model: 'gpt-oss:120b',
        messages: [
          { role: 'system', content: 'Complete code.' },
          { role: 'user', content: 'function add(a, b) {' },
        ],
        max_tokens: 32,
      });
      assert.equal(result.text, 'return a + b;');
    });

    it('streams from /v1/completions with the same events as chat', async () => {
      rig.handler = (_q, res) => sendSse(res, textStream(['a', 'b']));
      const result = await rig.client().completeStream({ model: 'm', messages: [{ role: 'user', content: 'x' }] }).consume();
      assert.equal(result.text, 'ab');
      assert.equal(rig.server.requests[0]?.url, '/v1/completions');
      assert.equal(requestJson(rig).stream, true);
    });

    it('rejects an empty prompt', () => {
      assert.throws(() => rig.client().completeStream({ model: 'm', prompt: '' }), (e: unknown) => e instanceof ValidationError && e.param === 'prompt');
    });
  });

  describe('embeddings', () => {
    it('orders vectors by index and reads usage', async () => {
      rig.handler = (_q, res) =>
        sendJson(res, 200, {
          object: 'list',
          data: [
            { object: 'embedding', index: 1, embedding: [0.3, 0.4] },
            { object: 'embedding', index: 0, embedding: [0.1, 0.2] },
          ],
          model: 'bge-m3:567m',
          usage: { prompt_tokens: 6, total_tokens: 6 },
        });
      const result = await rig.client().embed({ model: 'bge-m3:567m', input: ['first', 'second'] });
      assert.equal(rig.server.requests[0]?.url, '/v1/embeddings');
      assert.deepEqual(requestJson(rig), { model: 'bge-m3:567m', input: ['first', 'second'] });
      assert.deepEqual(result.embeddings, [[0.1, 0.2], [0.3, 0.4]]);
      assert.deepEqual(result.usage, { promptTokens: 6, totalTokens: 6 });
      assert.equal(result.model, 'bge-m3:567m');
    });

    it('accepts a single string input', async () => {
      rig.handler = (_q, res) => sendJson(res, 200, { object: 'list', data: [{ object: 'embedding', index: 0, embedding: [1] }], model: 'e', usage: { prompt_tokens: 1, total_tokens: 1 } });
      const result = await rig.client().embed({ model: 'e', input: 'one' });
      assert.deepEqual(result.embeddings, [[1]]);
      assert.deepEqual(requestJson(rig).input, 'one');
    });

    it('fails on a missing vector and validates input', async () => {
      rig.handler = (_q, res) => sendJson(res, 200, { object: 'list', data: [{ object: 'embedding', index: 0, embedding: [1] }] });
      await assert.rejects(rig.client().embed({ model: 'e', input: ['a', 'b'] }), MalformedResponseError);
      await assert.rejects(rig.client().embed({ model: 'e', input: [] }), (e: unknown) => e instanceof ValidationError && e.param === 'input');
      await assert.rejects(rig.client().embed({ model: 'e', input: [1, 2] as unknown as string[] }), (e: unknown) => e instanceof ValidationError && e.param === 'input[0]');
    });
  });

  describe('rerank', () => {
    const documents = ['Paris is in France.', 'Bananas are yellow.', 'The Eiffel Tower is in Paris.'];

    it('posts to /v1/rerank with top_n and return_documents, most relevant first, search units from usage', async () => {
      rig.handler = (_q, res) =>
        sendJson(res, 200, {
          id: 'rr-1',
          results: [
            { index: 0, relevance_score: 0.71, document: { text: documents[0] } },
            { index: 2, relevance_score: 0.93, document: { text: documents[2] } },
          ],
          usage: { billed_units: { search_units: 1 } },
        });
      const result = await rig.client().rerank({ model: 'qwen3-reranker:4b', query: 'Where is the Eiffel Tower?', documents, top_n: 2, return_documents: true });
      assert.equal(rig.server.requests[0]?.url, '/v1/rerank');
      assert.deepEqual(requestJson(rig), { model: 'qwen3-reranker:4b', query: 'Where is the Eiffel Tower?', documents, top_n: 2, return_documents: true });
      assert.deepEqual(result.results, [
        { index: 2, relevanceScore: 0.93, document: documents[2] },
        { index: 0, relevanceScore: 0.71, document: documents[0] },
      ]);
      assert.equal(result.searchUnits, 1);
      assert.equal(result.id, 'rr-1');
    });

    it('posts to /v2/rerank and reads meta.billed_units', async () => {
      rig.handler = (_q, res) =>
        sendJson(res, 200, { id: 'rr-2', results: [{ index: 1, relevance_score: 0.2 }], meta: { billed_units: { search_units: 3 } } });
      const result = await rig.client({ baseUrl: rig.server.url }).rerank({ model: 'r', query: 'q', documents, version: 'v2' });
      assert.equal(rig.server.requests[0]?.url, '/v2/rerank');
      assert.deepEqual(requestJson(rig), { model: 'r', query: 'q', documents });
      assert.equal(result.searchUnits, 3);
      assert.deepEqual(result.results, [{ index: 1, relevanceScore: 0.2 }]);
    });

    it('validates the request', async () => {
      for (const [param, patch] of [
        ['query', { query: '' }],
        ['documents', { documents: [] }],
        ['top_n', { top_n: 0 }],
        ['return_documents', { return_documents: 'yes' }],
      ] as const) {
        await assert.rejects(
          rig.client().rerank({ model: 'r', query: 'q', documents, ...(patch as object) }),
          (e: unknown) => e instanceof ValidationError && e.param === param,
        );
      }
      assert.equal(rig.server.requests.length, 0);
    });
  });

  describe('transcription', () => {
    const segment = { id: 0, seek: 0, start: 0, end: 61.5, text: ' Bonjour.', tokens: [50364, 25, 1], temperature: 0, avg_logprob: -0.2, compression_ratio: 1.1, no_speech_prob: 0.01 };

    it('posts multipart/form-data with the file bytes and every field, and reads segments', async () => {
      rig.handler = (_q, res) => sendJson(res, 200, { text: 'Bonjour.', language: 'fr', segments: [segment] });
      const audio = new Uint8Array([82, 73, 70, 70, 0, 1, 2, 3]);
      const result = await rig.client().transcribe({
        file: audio,
        filename: 'memo.wav',
        model: 'whisper-large-v3',
        language: 'fr',
        initial_prompt: 'Stratus, VM',
        task: 'transcribe',
      });
      const seen = rig.server.requests[0];
      assert.equal(seen?.url, '/v1/audio/transcriptions');
      const type = String(seen?.headers['content-type']);
      assert.match(type, /^multipart\/form-data; boundary=/);
      const form = await new Response(seen?.body, { headers: { 'content-type': type } }).formData();
      const file = form.get('file');
      assert.ok(file instanceof File);
      assert.equal(file.name, 'memo.wav');
      assert.equal(file.type, 'audio/wav');
      assert.deepEqual([...new Uint8Array(await file.arrayBuffer())], [...audio]);
      assert.equal(form.get('model'), 'whisper-large-v3');
      assert.equal(form.get('language'), 'fr');
      assert.equal(form.get('initial_prompt'), 'Stratus, VM');
      assert.equal(form.get('task'), 'transcribe');
      assert.equal(form.get('response_format'), 'json');
      assert.equal(result.text, 'Bonjour.');
      assert.equal(result.language, 'fr');
      assert.equal(result.segments[0]?.avgLogprob, -0.2);
      assert.deepEqual(result.segments[0]?.tokens, [50364, 25, 1]);
      assert.equal(result.durationSeconds, 61.5);
    });

    it('omits optional fields and validates language, task and file', async () => {
      rig.handler = (_q, res) => sendJson(res, 200, { text: '', language: 'en', segments: [] });
      await rig.client().transcribe({ file: new Uint8Array([1]), filename: 'a.mp3' });
      const seen = rig.server.requests[0];
      const form = await new Response(seen?.body, { headers: { 'content-type': String(seen?.headers['content-type']) } }).formData();
      assert.deepEqual([...form.keys()].sort(), ['file', 'response_format']);
      for (const [param, patch] of [
        ['language', { language: 'french' }],
        ['task', { task: 'summarize' }],
        ['file', { file: new Uint8Array() }],
      ] as const) {
        await assert.rejects(
          rig.client().transcribe({ file: new Uint8Array([1]), filename: 'a.wav', ...(patch as object) }),
          (e: unknown) => e instanceof ValidationError && e.param === param,
        );
      }
    });
  });
});
