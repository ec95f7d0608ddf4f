import { isRecord, isString, tryParseJson, type JsonObject } from '../core/json';
import { shortHash } from '../core/ids';
import type { ChatMessage, ChatRequest, ToolCall, ToolDef } from './chatRequest';
import { parsePlan, planReply } from './plan';
import { completionContinuation, completionTokensOf } from './completionScript';
import { editReply } from './editScript';
import { reviewReply } from './reviewScript';
import { estimateTokens } from './tokens';

/**
 * The scripted model. Every reply is a pure function of the request, so tests can assert exact
 * text. Rules, first match wins:
 *
 * 0. Plans: tools offered, `tool_choice` auto, and the last user message contains `plan:`: the
 *    rounds it scripts (call A, then B with A's result, ..., then the answer); see plan.ts.
 * 1. Tool results: when the conversation ends with `tool` message(s), the reply is one line per
 *    result: `Tool result (<function name>): <tool message content>`.
 * 2. Tool calls: when `tools` are offered and `tool_choice` is not `none`:
 *    - forced (`{"type":"function","function":{"name":N}}`): the model calls N;
 *    - `auto`: the model calls every offered tool whose name appears as a whole word
 *      (case-insensitive) in the last user message, in order of appearance; none named: rule 3.
 *    Arguments: the first `{...}` JSON object written in the user message, if there is one;
 *    otherwise each *required* parameter of the tool's JSON schema gets: string -> the user text
 *    after the tool's name (the whole text when the name is not there), string enum -> its first
 *    value, number/integer -> 1, boolean -> true, array -> [], object -> {}, other -> null.
 *    The reply is `content: null`, `tool_calls`, `finish_reason: "tool_calls"`; call ids are
 *    `call_` + a digest of the conversation.
 * 3. Code completion: the last user message text contains `<CURSOR>`: the deterministic
 *    continuation of completionScript.ts (depends on the text before the marker), streamed one
 *    token per delta; the stream is logged (CompletionStreamLog) with the tokens it streamed.
 * 3. Edit by instruction: the user text holds `Instruction: ...` and a `<range>` block: the
 *    deterministic rewrite of editScript.ts, streamed one token per delta.
 * 3. Review: the system message starts with `You review code changes`: the findings of
 *    reviewScript.ts (from the diff's added lines), as a fenced JSON array.
 * 3. Text, from the last user message text T (its text parts joined with "\n"):
 *    - T contains "markdown demo": a fixed multi-paragraph Markdown reply (MARKDOWN_DEMO) with a
 *      heading, list, table and a fenced ```ts code block;
 *    - T contains "long N" (N a number): exactly N content deltas "1 ", "2 ", ..., "N" (a long
 *      stream, e.g. for benchmarks; N is capped at 1 000 000);
 *    - otherwise the echo `Echo (<model id>): T`, followed for each image part by a line
 *      `[image <k>: <media type>, <bytes> bytes]`.
 *    - On a reasoning model (qwen3:30b), when T contains the word "think", the reply is preceded by
 *      `<think>\nThe user wrote <chars> characters; planning a scripted answer.\n</think>\n\n`.
 * 4. `max_tokens`: a text reply longer than max_tokens (tokens = ceil(chars/4)) is cut to
 *    max_tokens*4 characters and finishes with `length` instead of `stop`.
 * Streaming splits the text into word-sized deltas (whitespace attached to the preceding word).
 */

export const MARKDOWN_DEMO = [
  '# Sandbox markdown demo',
  '',
  'This reply exercises **Markdown** rendering: *emphasis*, `inline code` and a [link](https://example.com/docs).',
  '',
  '- first item',
  '- second item with `code`',
  '- third item',
  '',
  '```ts',
  'export function greet(name: string): string {',
  '  return `Hello, ${name}!`;',
  '}',
  '```',
  '',
  '| Model | Context |',
  '|---|---|',
  '| gpt-oss:120b | 131072 |',
  '',
  'That is the end of the demo.',
].join('\n');

export const MAX_LONG_CHUNKS = 1_000_000;

/** `reasoning`: sent apart from the content, as `reasoning_content` (a model with a reasoning parser: familyModels.ts). */
export type ScriptedReply =
  | { kind: 'text'; pieces: string[]; content: string; reasoningTokens: number; finishReason: 'stop' | 'length'; completion?: boolean; reasoning?: string }
  | { kind: 'tool_calls'; calls: ToolCall[]; reasoning?: string };

function splitWords(text: string): string[] {
  return text.match(/\s+|\S+\s*/g) ?? [];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function nameIndex(text: string, name: string): number {
  const match = new RegExp(`(^|[^A-Za-z0-9_-])${escapeRegExp(name)}($|[^A-Za-z0-9_-])`, 'i').exec(text);
  return match ? match.index + (match[1] ?? '').length : -1;
}

function jsonObjectIn(text: string): JsonObject | undefined {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return undefined;
  const parsed = tryParseJson(text.slice(start, end + 1));
  return parsed.ok && isRecord(parsed.value) ? parsed.value : undefined;
}

function defaultValue(schema: unknown, remainder: string): unknown {
  if (!isRecord(schema)) return null;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  switch (type) {
    case 'string':
      return remainder;
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return null;
  }
}

function argumentsFor(tool: ToolDef, text: string): string {
  const literal = jsonObjectIn(text);
  if (literal) return JSON.stringify(literal);
  const at = nameIndex(text, tool.name);
  const remainder = (at >= 0 ? text.slice(at + tool.name.length) : text).replace(/^[\s:,-]+/, '').trim();
  const params = tool.parameters;
  const properties = params && isRecord(params.properties) ? params.properties : {};
  const required = params && Array.isArray(params.required) ? params.required.filter(isString) : [];
  const args: JsonObject = {};
  for (const key of required) args[key] = defaultValue(properties[key], remainder);
  return JSON.stringify(args);
}

function lastUser(messages: ChatMessage[]): ChatMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === 'user') return m;
  }
  return undefined;
}

function toolResults(messages: ChatMessage[]): string | undefined {
  const results: ChatMessage[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i]?.role === 'tool'; i--) {
    const m = messages[i];
    if (m) results.unshift(m);
  }
  if (results.length === 0) return undefined;
  const names = new Map<string, string>();
  for (const m of messages) for (const call of m.toolCalls) names.set(call.id, call.name);
  return results.map((m) => `Tool result (${names.get(m.toolCallId ?? '') ?? 'unknown'}): ${m.text}`).join('\n');
}

export function textReply(content: string, think: string, maxTokens: number, fixedPieces?: string[]): Extract<ScriptedReply, { kind: 'text' }> {
  let pieces = [...splitWords(think), ...(fixedPieces ?? splitWords(content))];
  let full = think + content;
  let finishReason: 'stop' | 'length' = 'stop';
  if (estimateTokens(full) > maxTokens) {
    finishReason = 'length';
    const limit = maxTokens * 4;
    const kept: string[] = [];
    let used = 0;
    for (const piece of pieces) {
      if (used >= limit) break;
      const part = piece.slice(0, limit - used);
      kept.push(part);
      used += part.length;
    }
    pieces = kept;
    full = kept.join('');
  }
  return { kind: 'text', pieces, content: full, reasoningTokens: estimateTokens(think), finishReason };
}

/** How Stratus' compaction asks for a summary (its fixed system message starts so). */
const SUMMARY_REQUEST = /^You compact the earlier part of a conversation/;

/**
 * A summary request is answered as a model would: a concise summary naming the user lines it
 * covers (at most 12, 60 characters each). `verbose summary` in the transcript makes the model
 * echo it instead, so a test can meet a summary cut at its max_tokens.
 */
function summaryReply(messages: ChatMessage[]): string | undefined {
  if (!SUMMARY_REQUEST.test(messages[0]?.role === 'system' ? messages[0].text : '')) return undefined;
  const transcript = lastUser(messages)?.text ?? '';
  if (/\bverbose summary\b/i.test(transcript)) return `Echo: ${transcript}`;
  const asked = transcript.split('\n').filter((line) => line.startsWith('[user] ')).map((line) => line.slice(7, 67));
  return [`Summary of the conversation so far (${asked.length} user messages).`, ...asked.slice(-12).map((line) => `- The user asked: ${line}`)].join('\n');
}

export function scriptReply(request: ChatRequest, seed: string): ScriptedReply {
  if (request.toolChoice.mode === 'auto' && request.tools.length > 0) {
    const plan = parsePlan(lastUser(request.messages)?.text ?? '');
    if (plan) {
      const reply = planReply(plan, request.messages, seed);
      if (reply.kind === 'calls') return { kind: 'tool_calls', calls: reply.calls };
      return textReply(reply.text, '', request.effectiveMaxTokens);
    }
  }
  const results = toolResults(request.messages);
  if (results !== undefined) return textReply(results, '', request.effectiveMaxTokens);
  const summary = summaryReply(request.messages);
  if (summary !== undefined) return textReply(summary, '', request.effectiveMaxTokens);

  const user = lastUser(request.messages);
  const text = user?.text ?? '';
  const choice = request.toolChoice;
  if (choice.mode !== 'none' && request.tools.length > 0) {
    let chosen: ToolDef[] = [];
    if (choice.mode === 'forced') {
      chosen = request.tools.filter((t) => t.name === choice.name);
    } else {
      chosen = request.tools
        .map((tool) => ({ tool, at: nameIndex(text, tool.name) }))
        .filter((x) => x.at >= 0)
        .sort((a, b) => a.at - b.at)
        .map((x) => x.tool);
    }
    if (chosen.length > 0) {
      const calls = chosen.map((tool, k) => ({ id: `call_${shortHash(`${seed}:${k}`, 24)}`, name: tool.name, arguments: argumentsFor(tool, text) }));
      return { kind: 'tool_calls', calls };
    }
  }

  const continuation = completionContinuation(text);
  if (continuation !== undefined) {
    return { ...textReply(continuation, '', request.effectiveMaxTokens, completionTokensOf(continuation)), completion: true };
  }
  const edit = editReply(text);
  if (edit !== undefined) return textReply(edit, '', request.effectiveMaxTokens, completionTokensOf(edit));
  const review = reviewReply(request.messages[0]?.role === 'system' ? request.messages[0].text : '', text);
  if (review !== undefined) return textReply(review, '', request.effectiveMaxTokens);
  const think = request.model.reasoning && /\bthink\b/i.test(text) ? `<think>\nThe user wrote ${text.length} characters; planning a scripted answer.\n</think>\n\n` : '';
  if (text.toLowerCase().includes('markdown demo')) return textReply(MARKDOWN_DEMO, think, request.effectiveMaxTokens);
  const long = /\blong\s+(\d+)\b/i.exec(text);
  if (long) {
    const n = Math.max(1, Math.min(MAX_LONG_CHUNKS, Number(long[1])));
    const pieces: string[] = [];
    for (let k = 1; k <= n; k++) pieces.push(k < n ? `${k} ` : `${k}`);
    return textReply(pieces.join(''), think, request.effectiveMaxTokens, pieces);
  }
  const images = (user?.images ?? []).map((img, k) => `\n[image ${k + 1}: ${img.mime}, ${img.bytes} bytes]`).join('');
  return textReply(`Echo (${request.model.id}): ${text}${images}`, think, request.effectiveMaxTokens);
}

export function completionTokens(reply: ScriptedReply): number {
  const reasoning = reply.reasoning ? estimateTokens(reply.reasoning) : 0;
  if (reply.kind === 'text') return estimateTokens(reply.content) + reasoning;
  return reply.calls.reduce((sum, call) => sum + estimateTokens(call.name + call.arguments), reasoning);
}

/** Reasoning tokens of a reply: thinking in its content, and reasoning sent apart. */
export function reasoningTokensOf(reply: ScriptedReply): number {
  return (reply.kind === 'text' ? reply.reasoningTokens : 0) + (reply.reasoning ? estimateTokens(reply.reasoning) : 0);
}
