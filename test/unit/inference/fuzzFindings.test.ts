// Counterexamples found by the property suite (test/unit/properties), kept as plain examples.
import assert from 'node:assert/strict';
import { MalformedResponseError } from '../../../src/core/errors';
import { supportsToolCalling } from '../../../src/core/inference/models/capabilities';
import { sendJson } from '../http/helpers/server';
import { startRig, type Rig } from './helpers/client';

describe('inference bodies found by fuzzing', () => {
  let rig: Rig;
  before(async () => {
    rig = await startRig();
  });
  after(() => rig.close());
  afterEach(() => rig.reset());

  it('embeddings: a vector holding null is malformed, not handed on as numbers', async () => {
    rig.handler = (_q, res) =>
      sendJson(res, 200, { object: 'list', data: [{ object: 'embedding', index: 1, embedding: [null, -0.25] }, { object: 'embedding', index: 0, embedding: [0.1, 0.2] }], usage: { prompt_tokens: 4, total_tokens: 4 } });
    await assert.rejects(rig.client().embed({ model: 'bge-m3:567m', input: ['a', 'b'] }), (e: unknown) => e instanceof MalformedResponseError && /input 1/.test(e.message));
  });

  it('embeddings: a fractional index names no input', async () => {
    rig.handler = (_q, res) => sendJson(res, 200, { data: [{ index: 0.5, embedding: [1] }, { index: 1, embedding: [2] }] });
    await assert.rejects(rig.client().embed({ model: 'bge-m3:567m', input: ['a', 'b'] }), MalformedResponseError);
  });

  it('transcription: a segment whose end is not a number ends where it starts, and absurd times are dropped', async () => {
    rig.handler = (_q, res) =>
      sendJson(res, 200, { text: 'Hello there', duration: 1e300, segments: [{ id: 0, start: 0, end: 1.5, text: 'Hello' }, { id: 1, start: 1.5, end: '', text: 'there' }, { id: 2, start: -4, end: 1e12, text: 'x' }] });
    const result = await rig.client().transcribe({ file: new Uint8Array([1, 2, 3]), filename: 'a.wav' });
    assert.deepEqual(result.segments.map((s) => [s.start, s.end]), [[0, 1.5], [1.5, 1.5], [0, 0]]);
    assert.equal(result.durationSeconds, 1.5, 'a duration of 1e300 s is not billed: the last segment end is used');
  });
});

describe('rerank hits found by fuzzing', () => {
  let rig: Rig;
  before(async () => {
    rig = await startRig();
  });
  after(() => rig.close());
  afterEach(() => rig.reset());

  it('a hit whose index names no sent document (3 of 3, -1, 0.5) is dropped', async () => {
    rig.handler = (_q, res) => sendJson(res, 200, { results: [{ index: 3, relevance_score: 0 }, { index: -1, relevance_score: 0.5 }, { index: 0.5, relevance_score: 0.7 }, { index: 1, relevance_score: 0.2 }] });
    const result = await rig.client().rerank({ model: 'qwen3-reranker:4b', query: 'q', documents: ['a', 'b', 'c'] });
    assert.deepEqual(result.results.map((h) => h.index), [1]);
  });
});

describe('model capabilities found by fuzzing', () => {
  it('a model named "constructor" is not "forced" by Object.prototype: the guess is a boolean', () => {
    assert.equal(supportsToolCalling({ id: 'constructor', kind: 'chat' }), false);
    assert.equal(supportsToolCalling({ id: 'toString', kind: 'chat' }, {}), false);
    assert.equal(supportsToolCalling({ id: 'constructor', kind: 'chat' }, { constructor: true } as Record<string, boolean>), true);
  });
});
