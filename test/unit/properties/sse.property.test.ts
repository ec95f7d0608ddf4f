import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { chatStream } from '../../../src/core/inference/chat/chat';
import { ToolCallAssembler, parseToolArguments } from '../../../src/core/inference/chat/toolCalls';
import type { ChatResult, ChatStreamEvent } from '../../../src/core/inference/chat/types';
import { chunk, textStream, toolCallDelta, usageChunk } from '../inference/helpers/contract';
import { cannedTransport, checkAsync, check, mutate, typedOrValueAsync, weirdJson, weirdNumber, weirdString } from './harness';

const REQUEST = { model: 'gpt-oss:120b', messages: [{ role: 'user' as const, content: 'hi' }] };

/** Splits bytes at the given cut points (anywhere: inside a UTF-8 sequence, a CRLF, a field name). */
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

/** A result is well-typed whatever the stream held: strings where strings, finite counts. */
function assertWellTyped(result: ChatResult): void {
  assert.equal(typeof result.text, 'string');
  assert.equal(typeof result.thinking, 'string');
  for (const call of result.toolCalls) {
    assert.ok(typeof call.id === 'string' && call.id !== '', 'a tool call always has an id');
    assert.equal(typeof call.function.name, 'string');
    assert.equal(typeof call.function.arguments, 'string');
  }
  if (result.usage) {
    for (const n of [result.usage.promptTokens, result.usage.completionTokens, result.usage.totalTokens]) assert.ok(Number.isFinite(n));
  }
}

async function consume(parts: readonly Uint8Array[]): Promise<{ result: ChatResult | undefined; events: ChatStreamEvent[] }> {
  const transport = cannedTransport({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: parts });
  const events: ChatStreamEvent[] = [];
  const result = await typedOrValueAsync(chatStream(transport, REQUEST).consume((e) => events.push(e)));
  return { result, events };
}

async function iterate(parts: readonly Uint8Array[]): Promise<ChatResult | undefined> {
  const transport = cannedTransport({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: parts });
  const run = async (): Promise<ChatResult | undefined> => {
    let done: ChatResult | undefined;
    for await (const e of chatStream(transport, REQUEST)) if (e.type === 'done') done = e.result;
    return done;
  };
  return typedOrValueAsync(run());
}

/** The contract's event data for an answer with text and a tool call, to mutate. */
const VALID_EVENTS: readonly unknown[] = [
  ...textStream(['Hel', 'lo']).slice(0, -1),
  toolCallDelta(0, { id: 'call_1', name: 'read_file', args: '{"pa' }),
  toolCallDelta(0, { args: 'th":"a"}' }),
  chunk({ content: '' }, 'tool_calls'),
  usageChunk({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 }),
];

/** One event's data: a contract chunk, a mutated one, random JSON, or not JSON at all. */
const eventData = fc.oneof(
  { arbitrary: fc.constantFrom(...VALID_EVENTS).map((e) => JSON.stringify(e)), weight: 3 },
  {
    arbitrary: fc.tuple(fc.constantFrom(...VALID_EVENTS), fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), weirdJson).map(([e, steps, v]) => JSON.stringify(mutate(e, steps, v))),
    weight: 4,
  },
  { arbitrary: weirdJson.map((v) => JSON.stringify(v) ?? 'null'), weight: 1 },
  { arbitrary: fc.oneof(weirdString, fc.constantFrom('[DONE]', ' [DONE] ', '{"choices":[{"delta":{"content":"x"', '{"error":{"message":"boom","code":503}}', 'ping')), weight: 1 },
);

/** SSE framing around the data: event names, comments, ids, retry fields, odd line ends. */
const framedEvent = fc
  .tuple(eventData, fc.constantFrom('\n', '\r\n', '\r'), fc.option(fc.constantFrom('error', 'message', 'ping', ''), { nil: undefined }), fc.boolean(), fc.boolean())
  .map(([data, eol, event, comment, multiline]) => {
    const lines: string[] = [];
    if (comment) lines.push(': keep-alive');
    if (event !== undefined) lines.push(`event: ${event}`);
    // A data value with line breaks is sent as several data lines (joined back with \n).
    const values = multiline ? data.split(/\r\n|\r|\n/) : [data.replace(/\r\n|\r|\n/g, ' ')];
    for (const v of values) lines.push(`data: ${v}`);
    return lines.join(eol) + eol + eol;
  });

describe('properties: SSE framing and delta decoding', function () {
  this.timeout(60_000);

  it('a stream of contract, mutated, random and non-JSON events, cut anywhere, ends in a well-typed answer or a typed error, never a hang', async () => {
    await checkAsync(
      fc.asyncProperty(fc.array(framedEvent, { maxLength: 10 }), fc.array(fc.nat(), { maxLength: 8 }), fc.boolean(), async (events, cuts, drop) => {
        let text = events.join('');
        // Sometimes the body ends mid-event (a cut connection that still closed cleanly).
        if (drop && text.length > 0) text = text.slice(0, (cuts[0] ?? 0) % text.length);
        const parts = split(new TextEncoder().encode(text), cuts);
        const { result } = await consume(parts);
        if (result) assertWellTyped(result);
        const iterated = await iterate(parts);
        assert.equal(iterated === undefined, result === undefined, 'both readers agree on success or failure');
        if (iterated) assert.deepEqual({ text: iterated.text, calls: iterated.toolCalls }, { text: result?.text, calls: result?.toolCalls });
      }),
      150,
    );
  });

  it('arbitrary bytes as a stream body give a typed error or a well-typed answer', async () => {
    await checkAsync(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 6 }), async (parts) => {
        const { result } = await consume(parts);
        if (result) assertWellTyped(result);
      }),
      100,
    );
  });
});

/** A `delta.tool_calls` entry as servers send it, or bent. */
const fragment = fc.record(
  {
    index: fc.oneof(fc.nat(3), weirdNumber, weirdString, fc.constant(undefined)),
    id: fc.oneof(fc.constantFrom('call_a', 'call_b', ''), weirdString, weirdNumber),
    function: fc.oneof(
      fc.record({ name: fc.oneof(fc.constantFrom('read_file', 'run'), weirdString), arguments: fc.oneof(fc.string({ maxLength: 6 }), weirdJson) }, { requiredKeys: [] }),
      weirdJson,
    ),
  },
  { requiredKeys: [] },
);

describe('properties: tool-call assembly', () => {
  it('any fragments fold without throwing into calls in index order, one per index, each with an id and string arguments', () => {
    check(
      fc.property(fc.array(fc.array(fc.oneof(fragment, weirdJson), { maxLength: 3 }), { maxLength: 8 }), (deltas) => {
        const assembler = new ToolCallAssembler();
        for (const delta of deltas) delta.forEach((raw, position) => assembler.add(raw, position));
        const calls = assembler.result();
        assert.equal(calls.length, assembler.size);
        assert.equal(new Set(calls.map((c) => c.index)).size, calls.length);
        for (let i = 1; i < calls.length; i++) assert.ok((calls[i - 1]?.index ?? 0) <= (calls[i]?.index ?? 0));
        for (const { call } of calls) {
          assert.ok(call.id !== '');
          assert.equal(typeof call.function.arguments, 'string');
          parseToolArguments(call);
        }
      }),
      300,
    );
  });

  it('with indices, each call\'s arguments are its fragments\' arguments joined in arrival order', () => {
    check(
      fc.property(fc.array(fc.record({ index: fc.nat(3), args: fc.string({ maxLength: 5 }) }), { maxLength: 12 }), (frags) => {
        const assembler = new ToolCallAssembler();
        frags.forEach((f) => assembler.add({ index: f.index, function: { arguments: f.args } }, 0));
        for (const { index, call } of assembler.result()) {
          const expected = frags.filter((f) => f.index === index).map((f) => f.args).join('');
          assert.equal(call.function.arguments, expected);
        }
      }),
      200,
    );
  });
});
