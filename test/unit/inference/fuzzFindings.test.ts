// Counterexamples found by the property suite (test/unit/properties), kept as plain examples.
import assert from 'node:assert/strict';
import { CancelledError, InterruptedError, MalformedResponseError } from '../../../src/core/errors';
import type { ChatStreamEvent } from '../../../src/core/inference';
import { supportsToolCalling } from '../../../src/core/inference/models/capabilities';
import { sendJson } from '../http/helpers/server';
import { chunk } from './helpers/contract';
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

  it('embeddings: vectors of different lengths are malformed, not handed on', async () => {
    rig.handler = (_q, res) => sendJson(res, 200, { data: [{ index: 0, embedding: [0.1, 0.2, 0.3, 0.4] }, { index: 1, embedding: [0.5] }] });
    await assert.rejects(rig.client().embed({ model: 'bge-m3:567m', input: ['a', 'b'] }), (e: unknown) => e instanceof MalformedResponseError && /length/.test(e.message));
  });

  it('embeddings: an empty vector is malformed', async () => {
    rig.handler = (_q, res) => sendJson(res, 200, { data: [{ index: 0, embedding: [] }] });
    await assert.rejects(rig.client().embed({ model: 'bge-m3:567m', input: 'a' }), MalformedResponseError);
  });

  it('transcription: a segment whose end is not a number ends where it starts, and absurd times are dropped', async () => {
    rig.handler = (_q, res) =>
      sendJson(res, 200, { text: 'Hello there', duration: 1e300, segments: [{ id: 0, start: 0, end: 1.5, text: 'Hello' }, { id: 1, start: 1.5, end: '', text: 'there' }, { id: 2, start: -4, end: 1e12, text: 'x' }] });
    const result = await rig.client().transcribe({ file: new Uint8Array([1, 2, 3]), filename: 'a.wav' });
    assert.deepEqual(result.segments.map((s) => [s.start, s.end]), [[0, 1.5], [1.5, 1.5], [0, 0]]);
    assert.equal(result.durationSeconds, 1.5, 'a duration of 1e300 s is not billed: the last segment end is used');
  });
});

describe('chat streams found by fuzzing', () => {
  let rig: Rig;
  before(async () => {
    rig = await startRig();
  });
  after(() => rig.close());
  afterEach(() => rig.reset());

  /** Streams `pieces` as content deltas, then `tail` (raw SSE text), then ends the body. */
  const streamThen = (pieces: readonly string[], tail = ''): void => {
    rig.handler = (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const p of pieces) res.write(`data: ${JSON.stringify(chunk({ content: p }))}\n\n`);
      res.end(tail);
    };
  };

  const read = async (): Promise<{ text: string; error: unknown }> => {
    let text = '';
    const stream = rig.client().chatStream({ model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'Hi' }] });
    const error = await stream.consume((e: ChatStreamEvent) => {
      if (e.type === 'text') text += e.text;
    }).then(() => undefined, (e: unknown) => e);
    return { text, error };
  };

  it('a stream that ends early right after a delta ending in "<" delivers that "<" before the interruption', async () => {
    streamThen(['a <']);
    const { text, error } = await read();
    assert.equal(text, 'a <');
    assert.ok(error instanceof InterruptedError, String(error));
  });

  it('a "<" held back alone is delivered before an unreadable event, and counts as delivered text', async () => {
    streamThen(['<'], 'data: {not json\n\n');
    const { text, error } = await read();
    assert.equal(text, '<');
    assert.ok(error instanceof MalformedResponseError, String(error));
  });

  it('a "<thi" held back is delivered before an error event in the stream', async () => {
    streamThen(['x <thi'], `data: ${JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } })}\n\n`);
    const { text, error } = await read();
    assert.equal(text, 'x <thi');
    assert.ok(error instanceof Error);
  });

  it('a "<" held back is delivered before a cancel', async () => {
    rig.handler = (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify(chunk({ content: 'a <' }))}\n\n`);
    };
    const controller = new AbortController();
    let text = '';
    const stream = rig.client().chatStream({ model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'Hi' }] }, { signal: controller.signal });
    await assert.rejects(
      stream.consume((e) => {
        if (e.type !== 'text') return;
        text += e.text;
        controller.abort();
      }),
      CancelledError,
    );
    assert.equal(text, 'a <');
  });

  it('for await: the held "<" comes before the interruption', async () => {
    streamThen(['a <']);
    let text = '';
    const stream = rig.client().chatStream({ model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'Hi' }] });
    await assert.rejects(async () => {
      for await (const e of stream) if (e.type === 'text') text += e.text;
    }, InterruptedError);
    assert.equal(text, 'a <');
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
