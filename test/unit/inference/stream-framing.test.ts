import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MalformedResponseError, NetworkError } from '../../../src/core/errors';
import type { ChatResult, ChatStreamEvent } from '../../../src/core/inference';
import { iterateSse, readSse } from '../../../src/core/inference/chat/sse';
import { ChatStreamDecoder } from '../../../src/core/inference/chat/streamDecoder';
import type { HttpResponse } from '../../../src/core/http/types';
import { chunk, textStream, toolCallDelta, usageChunk } from './helpers/contract';

const LABEL = 'POST /v1/chat/completions';

/** A response whose body yields `parts` as network chunks, then ends. */
function fakeResponse(parts: readonly Uint8Array[]): HttpResponse & { cancelled: boolean } {
  const res = {
    status: 200,
    headers: {},
    requestId: undefined,
    cancelled: false,
    body: {
      [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
        let i = 0;
        return {
          next: () => Promise.resolve(i < parts.length ? { done: false, value: parts[i++] as Uint8Array } : { done: true, value: undefined }),
          return: () => {
            res.cancelled = true;
            return Promise.resolve({ done: true, value: undefined });
          },
        };
      },
    },
    text: () => Promise.reject(new Error('not used')),
    json: () => Promise.reject(new Error('not used')),
    toError: (error: unknown) => new NetworkError(String(error), 'ECONNRESET'),
    dispose: () => undefined,
  };
  return res;
}

function decoder(emit: (e: ChatStreamEvent) => void = () => undefined): ChatStreamDecoder {
  return new ChatStreamDecoder(emit, { label: LABEL, meta: { status: 200, requestId: undefined, rateLimit: undefined }, redact: (t) => t });
}

/** Splits `bytes` at the given cut points (any, even inside a UTF-8 sequence or a CRLF). */
function split(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let at = 0;
  for (const p of points) {
    out.push(bytes.subarray(at, p));
    at = p;
  }
  out.push(bytes.subarray(at));
  return out.filter((b) => b.length > 0);
}

type Framing = '\n' | '\r\n' | '\r';

/** The events as one body: each `data:` line ended by `eol`, events separated by a blank line. */
function frame(datas: readonly string[], eol: Framing, finalBlankLine: boolean): Uint8Array {
  const text = datas.map((d) => `data: ${d}${eol}`).join(eol) + (finalBlankLine ? eol : '');
  return new TextEncoder().encode(text);
}

async function viaConsume(parts: readonly Uint8Array[]): Promise<ChatResult> {
  return readSse(fakeResponse(parts), decoder());
}

async function viaIterator(parts: readonly Uint8Array[]): Promise<ChatResult> {
  const it = iterateSse<ChatStreamEvent, ChatResult>(
    () => Promise.resolve(fakeResponse(parts)),
    (_res, push) => decoder(push),
    (result) => ({ type: 'done', result }),
  );
  for await (const e of it) if (e.type === 'done') return e.result;
  throw new Error('no done event');
}

/** What the caller keeps of a result (meta aside). */
function answer(r: ChatResult): unknown {
  return { text: r.text, thinking: r.thinking, toolCalls: r.toolCalls, finishReason: r.finishReason, usage: r.usage };
}

const piece = fc.string({ unit: fc.constantFrom('a', 'é', '🌍', ' ', '\n', '\r', '"', '\\', ':', 'x'), maxLength: 6 });

/** A valid streamed answer: text pieces, maybe a tool call, the finish chunk, maybe usage, maybe [DONE]. */
const validStream = fc
  .record({
    pieces: fc.array(piece, { maxLength: 6 }),
    tool: fc.option(fc.array(piece, { minLength: 1, maxLength: 3 }), { nil: undefined }),
    usage: fc.boolean(),
    done: fc.boolean(),
  })
  .map(({ pieces, tool, usage, done }) => {
    const events: unknown[] = textStream(pieces).slice(0, -1);
    if (tool) {
      events.push(toolCallDelta(0, { id: 'call_1', name: 'f', args: '' }));
      for (const a of tool) events.push(toolCallDelta(0, { args: a }));
    }
    events.push(chunk({ content: '' }, tool ? 'tool_calls' : 'stop'));
    if (usage) events.push(usageChunk({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 }));
    const datas = events.map((e) => JSON.stringify(e));
    if (done) datas.push('[DONE]');
    return datas;
  });

describe('inference/chat SSE framing', () => {
  it('property: any valid stream decodes to the same answer with LF, CRLF or CR framing, with or without the final blank line, however it is cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        validStream,
        fc.constantFrom<Framing>('\n', '\r\n', '\r'),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (datas, eol, finalBlankLine, cuts) => {
          const expected = answer(await viaConsume([frame(datas, '\n', true)]));
          const parts = split(frame(datas, eol, finalBlankLine), cuts);
          assert.deepEqual(answer(await viaConsume(parts)), expected);
          assert.deepEqual(answer(await viaIterator(parts)), expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property: a non-JSON event after the finish reason never throws the answer away', async () => {
    const junk = fc.oneof(fc.constantFrom(' [DONE]', '[DONE] ', 'ping', ':', '', 'undefined'), fc.string({ maxLength: 8 }));
    await fc.assert(
      fc.asyncProperty(validStream, junk, async (datas, extra) => {
        const expected = answer(await viaConsume([frame(datas, '\n', true)]));
        // Inserted after the finish chunk: before usage and [DONE] when present.
        const at = datas.findIndex((d) => d.includes('"finish_reason":"')) + 1;
        const withJunk = [...datas.slice(0, at), extra.replace(/[\r\n]/g, ''), ...datas.slice(at)];
        const got = await viaConsume([frame(withJunk, '\n', true)]);
        // A junk event may only end the stream early (a spaced [DONE]): the usage after it is lost.
        assert.deepEqual({ ...(answer(got) as object), usage: undefined }, { ...(expected as object), usage: undefined });
      }),
      { numRuns: 200 },
    );
  });

  it('dispatches a last event that has no trailing blank line (LF framing)', async () => {
    const body = `data: ${JSON.stringify(chunk({ content: 'hi' }))}\n\ndata: ${JSON.stringify(chunk({ content: '' }, 'stop'))}\n`;
    const result = await viaConsume([new TextEncoder().encode(body)]);
    assert.equal(result.text, 'hi');
    assert.equal(result.finishReason, 'stop');
  });

  it('dispatches a last event framed with CR only', async () => {
    const body = `data: ${JSON.stringify(chunk({ content: 'hi' }))}\r\rdata: ${JSON.stringify(chunk({ content: '' }, 'stop'))}\r\r`;
    const result = await viaIterator([new TextEncoder().encode(body)]);
    assert.equal(result.text, 'hi');
    assert.equal(result.finishReason, 'stop');
  });

  it('"data:  [DONE]" (two spaces) and "data: ping" after the finish reason keep the answer', async () => {
    for (const extra of ['data:  [DONE]', 'data: ping']) {
      const body = `data: ${JSON.stringify(chunk({ content: 'whole' }, 'stop'))}\n\n${extra}\n\n`;
      assert.equal((await viaConsume([new TextEncoder().encode(body)])).text, 'whole', extra);
    }
  });

  it('a non-JSON event before any finish reason is still malformed (part of the answer may be in it)', async () => {
    const body = `data: ${JSON.stringify(chunk({ content: 'half' }))}\n\ndata: ping\n\ndata: ${JSON.stringify(chunk({ content: '' }, 'stop'))}\n\n`;
    await assert.rejects(viaConsume([new TextEncoder().encode(body)]), (e: unknown) => e instanceof MalformedResponseError);
  });

  it('stops reading at [DONE] and releases the body, through both readers', async () => {
    const parts = [frame([JSON.stringify(chunk({ content: 'x' }, 'stop')), '[DONE]'], '\n', true), new TextEncoder().encode('data: {"never":"read"}\n\n')];
    const res = fakeResponse(parts);
    await readSse(res, decoder());
    assert.equal(res.cancelled, true);
    const res2 = fakeResponse(parts);
    const it = iterateSse<ChatStreamEvent, ChatResult>(() => Promise.resolve(res2), (_r, push) => decoder(push), (result) => ({ type: 'done', result }));
    const types: string[] = [];
    for await (const e of it) types.push(e.type);
    assert.deepEqual(types, ['text', 'finish', 'done']);
    assert.equal(res2.cancelled, true);
  });
});
