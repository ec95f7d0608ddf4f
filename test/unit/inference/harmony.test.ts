import assert from 'node:assert/strict';
import fc from 'fast-check';
import { chatStream } from '../../../src/core/inference/chat/chat';
import { HarmonySplitter } from '../../../src/core/inference/chat/harmony';
import type { ChatRequest, ChatStreamEvent } from '../../../src/core/inference/chat/types';
import { chunk } from './helpers/contract';
import { cannedTransport, check } from '../properties/harness';
import { cut } from './helpers/cut';

function split(deltas: readonly string[]): { text: string; thinking: string; calls: string[] } {
  const out = { text: '', thinking: '', calls: [] as string[] };
  const s = new HarmonySplitter({
    onText: (kind, t) => {
      if (kind === 'text') out.text += t;
      else out.thinking += t;
    },
    onCall: (name, args) => out.calls.push(`${name} ${args}`),
  });
  for (const d of deltas) s.push(d);
  s.flush();
  return out;
}

const LEAKED = '<|channel|>analysis<|message|>The user greets; answer briefly.<|end|><|start|>assistant<|channel|>final<|message|>Hello! a <b> c<|return|>';

describe('inference/chat harmony channels leaked as text', () => {
  it('reads analysis as reasoning and final as the answer, without a marker', () => {
    assert.deepEqual(split([LEAKED]), { text: 'Hello! a <b> c', thinking: 'The user greets; answer briefly.', calls: [] });
  });

  it('gives the same result in any split (fast-check)', () => {
    const expected = split([LEAKED]);
    check(fc.property(fc.array(fc.nat(), { maxLength: 16 }), (points) => {
      assert.deepEqual(split(cut(LEAKED, points)), expected);
    }), 400);
    assert.deepEqual(split([...LEAKED]), expected, 'one character at a time');
  });

  it('reads a call to functions.x in the commentary channel, the recipient in the header either side of the channel', () => {
    assert.deepEqual(split(['<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city":"Paris"}<|call|>']).calls, ['get_weather {"city":"Paris"}']);
    assert.deepEqual(split(['<|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{"city":"Paris"}<|call|>']).calls, ['get_weather {"city":"Paris"}']);
  });

  it('shows commentary without a recipient (a preamble) and text outside any message', () => {
    assert.deepEqual(split(['Plain answer <|x|> kept.']), { text: 'Plain answer <|x|> kept.', thinking: '', calls: [] });
    assert.equal(split(['<|channel|>commentary<|message|>I will check.<|end|>']).text, 'I will check.');
  });

  it('shows a runaway header as text without its markers', () => {
    const out = split([`<|channel|>${'word '.repeat(80)}`]);
    assert.doesNotMatch(out.text, /<\|/);
    assert.ok(out.text.startsWith('word'));
  });

  describe('in a chat stream', () => {
    const request: ChatRequest = {
      model: 'gpt-oss:20b',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } }],
    };
    const body = (contents: readonly string[], tail: string): string =>
      contents.map((c) => `data: ${JSON.stringify(chunk({ content: c }))}\n\n`).join('') + tail;

    it('turns a leaked call into a tool call with finish reason tool_calls, and logs it', async () => {
      const lines: string[] = [];
      const events: ChatStreamEvent[] = [];
      const transport = cannedTransport({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: body(['<|channel|>analysis<|message|>Read it.<|end|><|start|>assistant<|channel|>commentary to=functions.re', 'ad_file <|constrain|>json<|message|>{"path":"a.ts"}<|call|>'], `data: ${JSON.stringify(chunk({ content: '' }, 'stop'))}\n\ndata: [DONE]\n\n`) });
      const result = await chatStream(transport, request, { onTextToolCall: (l) => lines.push(l) }).consume((e) => events.push(e));
      assert.equal(result.thinking, 'Read it.');
      assert.equal(result.text, '');
      assert.equal(result.finishReason, 'tool_calls');
      assert.equal(result.toolCalls.length, 1);
      assert.equal(result.toolCalls[0]?.function.name, 'read_file');
      assert.equal(result.toolCalls[0]?.function.arguments, '{"path":"a.ts"}');
      assert.match(result.toolCalls[0]?.id ?? '', /^[A-Za-z0-9]{9}$/);
      assert.deepEqual(result.message.tool_calls, result.toolCalls);
      assert.ok(events.some((e) => e.type === 'tool_call' && e.call.function.name === 'read_file'));
      assert.equal(lines.length, 1);
      assert.match(lines[0] ?? '', /read_file.*harmony/);
    });

    it('recovers nothing with recovery off for the model: the arguments are shown, never the markers', async () => {
      const transport = cannedTransport({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: body(['<|channel|>commentary to=functions.read_file<|message|>{"path":"a.ts"}<|call|>'], `data: ${JSON.stringify(chunk({ content: '' }, 'stop'))}\n\ndata: [DONE]\n\n`) });
      const result = await chatStream(transport, request, { textToolCalls: false }).consume();
      assert.deepEqual(result.toolCalls, []);
      assert.equal(result.text, '{"path":"a.ts"}');
      assert.equal(result.finishReason, 'stop');
    });

    it('delivers a held-back marker fragment and a held candidate call before an error in the stream', async () => {
      for (const held of ['x <|chan', 'x <tool_call>{"name": "read_file"']) {
        let text = '';
        const transport = cannedTransport({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: body([held], `data: ${JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } })}\n\n`) });
        await assert.rejects(chatStream(transport, request).consume((e) => {
          if (e.type === 'text') text += e.text;
        }));
        assert.equal(text, held);
      }
    });
  });
});
