import type { ToolCall } from './chatRequest';
import type { ModelSpec } from './models';
import { textReply, type ScriptedReply } from './script';

/**
 * Models that behave like real families the contract does not describe (issue 32): one leaks
 * gpt-oss's harmony channels into `content` (reasoning on the analysis channel, the answer on
 * final, tool calls as commentary `to=functions.x`), and three print their tool calls as text
 * instead of `tool_calls`: Hermes/Qwen `<tool_call>`, Mistral `[TOOL_CALLS]`, Llama bare JSON
 * (one call) or `<|python_tag|>` (several). Otherwise they follow the scripted model (script.ts).
 * Streamed in uneven slices, so markers are cut at every place.
 */
type Family = 'harmony' | 'hermes' | 'mistral' | 'llama';

const FAMILIES: ReadonlyArray<{ family: Family; spec: ModelSpec }> = [
  { family: 'harmony', spec: { id: 'gpt-oss:20b-harmony', kind: 'chat', maxModelLen: 131072, root: 'openai/gpt-oss-20b', aliases: [], vision: false, tools: true, reasoning: true } },
  { family: 'hermes', spec: { id: 'qwen2.5:7b', kind: 'chat', maxModelLen: 32768, root: 'Qwen/Qwen2.5-7B-Instruct', aliases: [], vision: false, tools: true, reasoning: false } },
  { family: 'mistral', spec: { id: 'mistral-nemo:12b', kind: 'chat', maxModelLen: 131072, root: 'mistralai/Mistral-Nemo-Instruct-2407', aliases: [], vision: false, tools: true, reasoning: false } },
  { family: 'llama', spec: { id: 'llama3.1:8b', kind: 'chat', maxModelLen: 131072, root: 'meta-llama/Llama-3.1-8B-Instruct', aliases: [], vision: false, tools: true, reasoning: false } },
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

function printedCalls(family: Family, calls: readonly ToolCall[]): string {
  switch (family) {
    case 'harmony':
      return `<|channel|>analysis<|message|>The user needs ${calls.map((c) => c.name).join(' and ')}.<|end|>` +
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

/** The scripted reply as the model's family would send it; other models' replies unchanged. */
export function familyReply(model: ModelSpec, reply: ScriptedReply, maxTokens: number): ScriptedReply {
  const family = FAMILIES.find((f) => f.spec.id === model.id)?.family;
  if (!family) return reply;
  if (reply.kind === 'tool_calls') {
    const text = printedCalls(family, reply.calls);
    return textReply(text, '', maxTokens, slices(text));
  }
  if (family !== 'harmony') return reply;
  const text = `<|channel|>analysis<|message|>Answering from the script.<|end|><|start|>assistant<|channel|>final<|message|>${reply.content}<|return|>`;
  return { ...textReply(text, '', maxTokens, slices(text)), finishReason: reply.finishReason };
}
