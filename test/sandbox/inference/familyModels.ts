import type { ChatRequest, ReasoningEffort, ToolCall } from './chatRequest';
import type { ModelSpec } from './models';
import { textReply, type ScriptedReply } from './script';
import { estimateTokens } from './tokens';

/**
 * Models that behave like real families the contract does not describe (issue 32): one leaks
 * gpt-oss's harmony channels into `content` (reasoning on the analysis channel, the answer on
 * final, tool calls as commentary `to=functions.x`), and three print their tool calls as text
 * instead of `tool_calls`: Hermes/Qwen `<tool_call>`, Mistral `[TOOL_CALLS]`, Llama bare JSON
 * (one call) or `<|python_tag|>` (several). One more reasons apart from its content, as a server
 * with a reasoning parser sends it: `reasoning_content` deltas before the answer or the calls.
 * Otherwise they follow the scripted model (script.ts). Streamed in uneven slices, so markers are
 * cut at every place.
 *
 * Both reasoning models follow what they are told: the harmony model thinks longer at
 * `reasoning_effort: high` and shorter at `low`; the Qwen3-style one not at all when
 * `chat_template_kwargs.enable_thinking` is false.
 */
type TextFamily = 'harmony' | 'hermes' | 'mistral' | 'llama';
type Family = TextFamily | 'reasoningParser';

const FAMILIES: ReadonlyArray<{ family: Family; spec: ModelSpec }> = [
  { family: 'harmony', spec: { id: 'gpt-oss:20b-harmony', kind: 'chat', maxModelLen: 131072, root: 'openai/gpt-oss-20b', aliases: [], vision: false, tools: true, reasoning: true } },
  { family: 'hermes', spec: { id: 'qwen2.5:7b', kind: 'chat', maxModelLen: 32768, root: 'Qwen/Qwen2.5-7B-Instruct', aliases: [], vision: false, tools: true, reasoning: false } },
  { family: 'mistral', spec: { id: 'mistral-nemo:12b', kind: 'chat', maxModelLen: 131072, root: 'mistralai/Mistral-Nemo-Instruct-2407', aliases: [], vision: false, tools: true, reasoning: false } },
  { family: 'llama', spec: { id: 'llama3.1:8b', kind: 'chat', maxModelLen: 131072, root: 'meta-llama/Llama-3.1-8B-Instruct', aliases: [], vision: false, tools: true, reasoning: false } },
  { family: 'reasoningParser', spec: { id: 'qwen3:8b', kind: 'chat', maxModelLen: 40960, root: 'Qwen/Qwen3-8B', aliases: [], vision: false, tools: true, reasoning: true } },
];

export const FAMILY_MODELS: readonly ModelSpec[] = FAMILIES.map((f) => f.spec);

const SLICES = [1, 4, 2, 7, 3, 5, 11];

/** `text` in uneven slices. */
function slices(text: string): string[] {
  const out: string[] = [];
  for (let at = 0, k = 0; at < text.length; k++) {
    const n = SLICES[k % SLICES.length] ?? 3;
    out.push(text.slice(at, at + n));
    at += n;
  }
  return out;
}

function args(call: ToolCall): unknown {
  try {
    return JSON.parse(call.arguments) as unknown;
  } catch {
    return {};
  }
}

/** What the harmony model thinks before it answers, longer as the effort grows (the default: medium). */
const ANALYSIS: Readonly<Record<ReasoningEffort, string>> = {
  low: 'Answering.',
  medium: 'Answering from the script.',
  high: 'Answering from the script. Checking the request once more, step by step, before the final answer.',
};

function printedCalls(family: TextFamily, calls: readonly ToolCall[], analysis: string): string {
  switch (family) {
    case 'harmony':
      return `<|channel|>analysis<|message|>${analysis} The user needs ${calls.map((c) => c.name).join(' and ')}.<|end|>` +
        calls.map((c) => `<|start|>assistant<|channel|>commentary to=functions.${c.name} <|constrain|>json<|message|>${c.arguments}<|call|>`).join('');
    case 'hermes':
      return calls.map((c) => `<tool_call>\n${JSON.stringify({ name: c.name, arguments: args(c) })}\n</tool_call>`).join('\n');
    case 'mistral':
      return `[TOOL_CALLS]${JSON.stringify(calls.map((c) => ({ name: c.name, arguments: args(c) })))}`;
    case 'llama': {
      const objects = calls.map((c) => JSON.stringify({ name: c.name, parameters: args(c) }));
      return objects.length === 1 ? (objects[0] ?? '') : objects.map((o) => `<|python_tag|>${o}`).join('');
    }
  }
}

/** The reasoning the Qwen3-style model sends apart, or '' when told not to think. */
function parsedReasoning(request: ChatRequest, reply: ScriptedReply): string {
  if (request.enableThinking === false) return '';
  return reply.kind === 'tool_calls'
    ? `The user needs ${reply.calls.map((c) => c.name).join(' and ')}; calling it with the arguments given.`
    : 'The tool results are in; answering with them.';
}

/** The scripted reply as the model's family would send it; other models' replies unchanged. */
export function familyReply(request: ChatRequest, reply: ScriptedReply): ScriptedReply {
  const family = FAMILIES.find((f) => f.spec.id === request.model.id)?.family;
  if (!family) return reply;
  const maxTokens = request.effectiveMaxTokens;
  // A server with a reasoning parser sends tool calls as `tool_calls`, and the reasoning apart.
  if (family === 'reasoningParser') {
    const reasoning = parsedReasoning(request, reply);
    return reasoning ? { ...reply, reasoning } : reply;
  }
  const analysis = ANALYSIS[request.reasoningEffort ?? 'medium'];
  if (reply.kind === 'tool_calls') {
    const text = printedCalls(family, reply.calls, analysis);
    return textReply(text, '', maxTokens, slices(text));
  }
  if (family !== 'harmony') return reply;
  const text = `<|channel|>analysis<|message|>${analysis}<|end|><|start|>assistant<|channel|>final<|message|>${reply.content}<|return|>`;
  return { ...textReply(text, '', maxTokens, slices(text)), finishReason: reply.finishReason, reasoningTokens: estimateTokens(analysis) };
}
