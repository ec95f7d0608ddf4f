import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { chat } from '../../../src/core/inference/chat/chat';
import { complete } from '../../../src/core/inference/completions/completions';
import { embed } from '../../../src/core/inference/embeddings/embeddings';
import { parseToolCallingOverrides, supportsToolCalling } from '../../../src/core/inference/models/capabilities';
import { inferModelKind, isModelKind } from '../../../src/core/inference/models/kind';
import { listModels } from '../../../src/core/inference/models/models';
import type { ModelKindOverrides } from '../../../src/core/inference/models/types';
import { rerank } from '../../../src/core/inference/rerank/rerank';
import { transcribe } from '../../../src/core/inference/transcription/transcription';
import { completion } from '../inference/helpers/contract';
import { bodyAround, cannedTransport, check, checkAsync, settle, assertTyped, typedOrValueAsync, weirdJson, weirdNumber, weirdString } from './harness';

// Every JSON body the inference clients parse, through the real transport over an in-memory
// engine: contract bodies mutated at random paths, truncated, replaced, or not JSON at all.

const RUNS = 300;
const json = { 'content-type': 'application/json' };

function finite(n: unknown): boolean {
  return typeof n === 'number' && Number.isFinite(n);
}

describe('properties: inference JSON envelopes', function () {
  this.timeout(60_000);

  it('chat and completions: a well-typed result or a typed error', async () => {
    const valid = completion({ content: '<think>hm</think>Hello', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] }, 'tool_calls');
    await checkAsync(
      fc.asyncProperty(bodyAround(valid), fc.boolean(), async (body, viaCompletions) => {
        const transport = cannedTransport({ status: 200, headers: json, body });
        const result = await typedOrValueAsync(
          viaCompletions ? complete(transport, { model: 'm', prompt: 'p' }) : chat(transport, { model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
        );
        if (!result) return;
        assert.equal(typeof result.text, 'string');
        for (const call of result.toolCalls) {
          assert.ok(call.id !== '');
          assert.equal(typeof call.function.name, 'string');
          assert.equal(typeof call.function.arguments, 'string');
        }
        if (result.usage) assert.ok([result.usage.promptTokens, result.usage.completionTokens, result.usage.totalTokens].every(finite));
      }),
      RUNS,
    );
  });

  it('embeddings: one vector of finite numbers per input, in order, or a typed error', async () => {
    const valid = { object: 'list', model: 'bge-m3:567m', data: [{ object: 'embedding', index: 1, embedding: [0.5, -0.25] }, { object: 'embedding', index: 0, embedding: [0.1, 0.2] }], usage: { prompt_tokens: 4, total_tokens: 4 } };
    await checkAsync(
      fc.asyncProperty(bodyAround(valid), async (body) => {
        const result = await typedOrValueAsync(embed(cannedTransport({ status: 200, headers: json, body }), { model: 'm', input: ['a', 'b'] }));
        if (!result) return;
        assert.equal(result.embeddings.length, 2);
        for (const v of result.embeddings) assert.ok(Array.isArray(v) && v.every(finite), `a vector of finite numbers: ${JSON.stringify(v)}`);
        if (result.usage) assert.ok(finite(result.usage.promptTokens) && finite(result.usage.totalTokens));
      }),
      RUNS,
    );
  });

  it('rerank (v1 and v2): hits point at a sent document, best first, or a typed error', async () => {
    const hits = fc
      .array(fc.record({ index: fc.oneof(fc.nat(4), weirdNumber, weirdString), relevance_score: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), weirdNumber) }), { maxLength: 4 })
      .map((results) => JSON.stringify({ results }));
    const valid = { id: 'rr-1', results: [{ index: 1, relevance_score: 0.9, document: { text: 'b' } }, { index: 0, relevance_score: 0.1 }], meta: { billed_units: { search_units: 1 } } };
    await checkAsync(
      fc.asyncProperty(fc.oneof(bodyAround(valid), hits), fc.constantFrom<'v1' | 'v2'>('v1', 'v2'), async (body, version) => {
        const documents = ['a', 'b', 'c'];
        const result = await typedOrValueAsync(rerank(cannedTransport({ status: 200, headers: json, body }), { model: 'm', query: 'q', documents, version }));
        if (!result) return;
        for (const hit of result.results) {
          assert.ok(Number.isInteger(hit.index) && hit.index >= 0 && hit.index < documents.length, `hit index ${hit.index} names a sent document`);
          assert.ok(finite(hit.relevanceScore));
        }
        for (let i = 1; i < result.results.length; i++) assert.ok((result.results[i - 1]?.relevanceScore ?? 0) >= (result.results[i]?.relevanceScore ?? 0));
        if (result.searchUnits !== undefined) assert.ok(finite(result.searchUnits));
      }),
      RUNS,
    );
  });

  it('models: ids are non-empty strings and contexts positive, or a typed error', async () => {
    const valid = { object: 'list', data: [{ id: 'gpt-oss:120b', object: 'model', created: 1, owned_by: 'x', max_model_len: 131072, aliases: ['gpt'] }, { id: 'bge-m3:567m', max_model_len: 8192 }] };
    await checkAsync(
      fc.asyncProperty(bodyAround(valid), async (body) => {
        const models = await typedOrValueAsync(listModels(cannedTransport({ status: 200, headers: json, body })));
        if (!models) return;
        for (const m of models) {
          assert.ok(typeof m.id === 'string' && m.id !== '');
          if (m.maxModelLen !== undefined) assert.ok(finite(m.maxModelLen) && m.maxModelLen > 0);
          assert.ok(m.aliases.every((a) => typeof a === 'string'));
        }
      }),
      RUNS,
    );
  });

  it('models: the kind and tool-calling guesses of any id (prototype names included) are a kind and a boolean', () => {
    const id = fc.oneof(weirdString, fc.constantFrom('constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'gpt-oss:120b'));
    check(
      fc.property(id, fc.dictionary(fc.oneof(weirdString, fc.constant('gpt-oss:120b')), weirdJson, { maxKeys: 3 }), (modelId, raw) => {
        const kind = inferModelKind(modelId, raw as ModelKindOverrides);
        assert.ok(isModelKind(kind));
        assert.equal(typeof supportsToolCalling({ id: modelId, kind }, parseToolCallingOverrides(raw)), 'boolean');
        assert.equal(typeof supportsToolCalling({ id: modelId, kind }), 'boolean');
      }),
      300,
    );
  });

  it('transcription: segment times and the billed duration are finite and not negative, or a typed error', async () => {
    const valid = { text: 'Hello there', language: 'en', duration: 3.2, segments: [{ id: 0, seek: 0, start: 0, end: 1.5, text: 'Hello', tokens: [1, 2] }, { id: 1, start: 1.5, end: 3.2, text: 'there' }] };
    await checkAsync(
      fc.asyncProperty(bodyAround(valid), async (body) => {
        const result = await typedOrValueAsync(transcribe(cannedTransport({ status: 200, headers: json, body }), { file: new Uint8Array([1, 2, 3]), filename: 'a.wav' }));
        if (!result) return;
        assert.equal(typeof result.text, 'string');
        for (const s of result.segments) {
          assert.ok(finite(s.start) && s.start >= 0 && finite(s.end) && s.end >= s.start, `segment ${s.start} -> ${s.end}`);
        }
        if (result.durationSeconds !== undefined) assert.ok(finite(result.durationSeconds) && result.durationSeconds >= 0, `duration ${result.durationSeconds}`);
      }),
      RUNS,
    );
  });

  it('error answers: any status, body and headers give a typed error that says the status and never quotes a secret', async () => {
    const secret = 'sk-property-FAKE-0123456789';
    const status = fc.oneof(fc.constantFrom(400, 401, 403, 404, 408, 409, 413, 422, 429, 500, 502, 503, 504), fc.integer({ min: 300, max: 599 }));
    const envelope = fc.oneof(
      bodyAround({ error: { message: `bad key ${secret}`, type: 'invalid_request_error', param: 'model', code: 'model_not_found' } }),
      bodyAround({ error: { status: '429 Too Many Requests', message: 'Too Many Requests' } }),
      weirdString,
    );
    const headers = fc.dictionary(fc.constantFrom('retry-after', 'x-ratelimit-reset-requests', 'x-request-id', 'x-ratelimit-remaining-requests', 'content-type'), fc.oneof(weirdString, fc.constantFrom('5', '86400', '1e9', '-1', 'Wed, 21 Oct 2015 07:28:00 GMT', '6m0s', '2000000000')), { maxKeys: 3 });
    await checkAsync(
      fc.asyncProperty(status, envelope, headers, async (code, body, hdrs) => {
        const transport = cannedTransport({ status: code, headers: hdrs, body });
        const outcome = await settle(chat(transport, { model: 'm', messages: [{ role: 'user', content: 'hi' }] }));
        assert.equal(outcome.ok, false, `HTTP ${code} is a failure`);
        if (outcome.ok) return;
        assertTyped(outcome.error);
        const message = (outcome.error as Error).message;
        assert.ok(!message.includes(secret), 'the key never appears in the message');
        if ('retryAfterMs' in (outcome.error as object)) {
          const wait = (outcome.error as { retryAfterMs?: number }).retryAfterMs;
          if (wait !== undefined) assert.ok(Number.isInteger(wait) && wait >= 0, `retryAfterMs ${wait}`);
        }
      }),
      RUNS,
    );
  });

  it('random JSON in place of any body: typed errors only', async () => {
    await checkAsync(
      fc.asyncProperty(weirdJson, fc.constantFrom('chat', 'embed', 'rerank', 'models', 'transcribe'), async (value, which) => {
        const transport = cannedTransport({ status: 200, headers: json, body: JSON.stringify(value) ?? '' });
        const call =
          which === 'chat' ? chat(transport, { model: 'm', messages: [{ role: 'user', content: 'x' }] })
          : which === 'embed' ? embed(transport, { model: 'm', input: 'x' })
          : which === 'rerank' ? rerank(transport, { model: 'm', query: 'q', documents: ['d'] })
          : which === 'models' ? listModels(transport)
          : transcribe(transport, { file: new Uint8Array([1]), filename: 'a.mp3' });
        await typedOrValueAsync(call as Promise<unknown>);
      }),
      RUNS,
    );
  });
});
