import assert from 'node:assert/strict';
import fc from 'fast-check';
import { chat, chatStream } from '../../../src/core/inference/chat/chat';
import { ContentDecoder } from '../../../src/core/inference/chat/contentDecoder';
import { OfferedTools } from '../../../src/core/inference/chat/offeredTools';
import type { ChatRequest, ChatStreamEvent, ToolDefinition } from '../../../src/core/inference/chat/types';
import { complete, completeStream } from '../../../src/core/inference/completions/completions';
import { chunk } from './helpers/contract';
import { cannedTransport, check } from '../properties/harness';
import { cut } from './helpers/cut';

/**
 * Issue 40: what a model writes is data. Special tokens and call markers are read only where the
 * model's format puts them; code that holds them (chat templates, tokenizers) is shown as written.
 */
const TOOLS: ToolDefinition[] = [
  { type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } },
  { type: 'function', function: { name: 'list_vms', parameters: { type: 'object', properties: { limit: { type: 'integer' } } } } },
];

/** A chat template and a tokenizer's special tokens: every marker a decoder knows, as code and in prose. */
const TEMPLATE_CODE = [
  'The template ends a turn with `<|eot_id|>` (or `<|eom_id|>` after a tool call), and gpt-oss uses <|end|>, <|return|> and <|call|>:',
  '```python',
  'SPECIAL = ["<|start|>", "<|channel|>", "<|message|>", "<|end|>", "<|return|>", "<|call|>", "<|endoftext|>"]',
  'def render(turn):',
  '    return f"<|start|>{turn.role}<|channel|>final<|message|>{turn.text}<|end|>"',
  'LLAMA_END = "<|eot_id|>"  # and "<|eom_id|>"',
  '```',
  'Done.',
].join('\n');

const CODE_ONLY = 'EOS = "<|endoftext|>"\nstop = ["<|end|>", "<|return|>", "<|call|>", "<|eot_id|>", "<|eom_id|>"]\nheader = "<|start|>assistant<|channel|>final<|message|>"\n';

function sse(contents: readonly string[], model = 'qwen2.5-coder:7b'): string {
  return (
    contents.map((c) => `data: ${JSON.stringify({ ...chunk({ content: c }), model })}\n\n`).join('') +
    `data: ${JSON.stringify({ ...chunk({ content: '' }, 'stop'), model })}\n\ndata: [DONE]\n\n`
  );
}

function streamTransport(contents: readonly string[]): ReturnType<typeof cannedTransport> {
  return cannedTransport({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: sse(contents) });
}

function jsonTransport(content: string): ReturnType<typeof cannedTransport> {
  const body = JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model: 'qwen2.5-coder:7b', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });
  return cannedTransport({ status: 200, headers: { 'content-type': 'application/json' }, body });
}

function decode(deltas: readonly string[], harmony = false, tools: ToolDefinition[] | undefined = TOOLS): { text: string; thinking: string; calls: string[] } {
  const out = { text: '', thinking: '', calls: [] as string[] };
  const decoder = new ContentDecoder(
    { onText: (t) => (out.text += t), onThinking: (t) => (out.thinking += t), onCall: (c) => out.calls.push(`${c.name} ${c.arguments}`) },
    { tools: tools ? new OfferedTools(tools) : undefined, harmony },
  );
  for (const d of deltas) decoder.push(d);
  decoder.flush();
  return out;
}

describe('inference: model text is data (issue 40)', () => {
  const request: ChatRequest = { model: 'qwen2.5-coder:7b', messages: [{ role: 'user', content: 'explain the template' }], tools: TOOLS };

  it('chat (streamed and whole, with and without tools): code and prose holding special tokens come back as written', async () => {
    for (const req of [request, { ...request, tools: undefined }]) {
      const streamed = await chatStream(streamTransport([TEMPLATE_CODE.slice(0, 40), TEMPLATE_CODE.slice(40)]), req).consume();
      assert.equal(streamed.text, TEMPLATE_CODE);
      assert.equal(streamed.thinking, '');
      assert.deepEqual(streamed.toolCalls, []);
      const whole = await chat(jsonTransport(TEMPLATE_CODE), req);
      assert.equal(whole.text, TEMPLATE_CODE);
    }
  });

  it('/v1/completions (ghost text, next edit): code holding special tokens comes back as written', async () => {
    const prompt = { model: 'qwen2.5-coder:7b', prompt: 'complete the tokenizer' };
    const streamed = await completeStream(streamTransport([...CODE_ONLY]), prompt).consume();
    assert.equal(streamed.text, CODE_ONLY);
    assert.equal((await complete(jsonTransport(CODE_ONLY), prompt)).text, CODE_ONLY);
  });

  it('the same in any split of the stream (fast-check)', () => {
    for (const text of [TEMPLATE_CODE, CODE_ONLY]) {
      check(fc.property(fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), (points, tools) => {
        assert.deepEqual(decode(cut(text, points), false, tools ? TOOLS : undefined), { text, thinking: '', calls: [] });
      }), 150);
    }
  });

  it('plain text streams delta for delta: a first delta led by spaces is not cut in two while the format is decided', () => {
    const deltas = [' the0', ' stream', ' of', '\n', ' <|end|> in prose'];
    const seen: string[] = [];
    const decoder = new ContentDecoder({ onText: (t) => seen.push(t), onThinking: () => undefined, onCall: () => undefined }, { tools: undefined, harmony: false });
    for (const d of deltas) decoder.push(d);
    decoder.flush();
    assert.deepEqual(seen, deltas);
  });

  it('end tokens are dropped only at the answer\'s end', () => {
    assert.deepEqual(decode(['return x\n<|eot_id|>']), { text: 'return x\n', thinking: '', calls: [] });
    assert.deepEqual(decode(['done.<|end|>', '<|endof', 'text|>'], false, undefined), { text: 'done.', thinking: '', calls: [] });
    assert.deepEqual(decode(['a <|eot_id|> b']), { text: 'a <|eot_id|> b', thinking: '', calls: [] });
    assert.deepEqual(decode(['x = "<|end', '|>"']), { text: 'x = "<|end|>"', thinking: '', calls: [] });
  });

  it('harmony is read for a harmony model, and for another model only when the answer starts with its marker', () => {
    const leaked = '<|channel|>analysis<|message|>Think.<|end|><|start|>assistant<|channel|>final<|message|>Hi<|return|>';
    assert.deepEqual(decode([leaked]), { text: 'Hi', thinking: 'Think.', calls: [] });
    assert.deepEqual(decode(['  ', '<|chan', leaked.slice(6)]), { text: '  Hi', thinking: 'Think.', calls: [] });
    assert.deepEqual(decode([`Quoted: ${leaked} (a leak)`]), { text: `Quoted: ${leaked} (a leak)`, thinking: '', calls: [] });
    assert.deepEqual(decode(['Plain <|end|> text'], true), { text: 'Plain  text', thinking: '', calls: [] }, 'a harmony model: its markers are structure');
  });

  it('a call read from text is flagged on the result; a server call at index 0 after it stays a call of its own', async () => {
    const events: ChatStreamEvent[] = [];
    const body =
      `data: ${JSON.stringify(chunk({ content: '<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path":"a.ts"}<|call|>' }))}\n\n` +
      `data: ${JSON.stringify(chunk({ tool_calls: [{ index: 0, id: 'call_native', type: 'function', function: { name: 'list_vms', arguments: '' } }] }))}\n\n` +
      `data: ${JSON.stringify(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"limit": 5}' } }] }))}\n\n` +
      `data: ${JSON.stringify(chunk({ content: '' }, 'tool_calls'))}\n\ndata: [DONE]\n\n`;
    const transport = cannedTransport({ status: 200, headers: { 'content-type': 'text/event-stream' }, body });
    const result = await chatStream(transport, { ...request, model: 'gpt-oss:20b' }).consume((e) => events.push(e));
    assert.deepEqual(result.toolCalls.map((c) => [c.function.name, c.function.arguments]), [['read_file', '{"path":"a.ts"}'], ['list_vms', '{"limit": 5}']]);
    assert.equal(result.toolCalls[1]?.id, 'call_native');
    assert.deepEqual(result.recoveredCallIds, [result.toolCalls[0]?.id]);
    const deltas = events.filter((e) => e.type === 'tool_call_delta').map((e) => e.type === 'tool_call_delta' && e.index);
    assert.deepEqual(deltas, [0, 1, 1], 'the native call\'s fragments go to an index of their own');
  });

  it('a native call alone is not flagged', async () => {
    const body =
      `data: ${JSON.stringify(chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'list_vms', arguments: '{}' } }] }))}\n\n` +
      `data: ${JSON.stringify(chunk({ content: '' }, 'tool_calls'))}\n\ndata: [DONE]\n\n`;
    const result = await chatStream(cannedTransport({ status: 200, headers: { 'content-type': 'text/event-stream' }, body }), request).consume();
    assert.equal(result.toolCalls.length, 1);
    assert.equal(result.recoveredCallIds, undefined);
  });
});
