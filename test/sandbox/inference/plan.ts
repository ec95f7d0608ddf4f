import { shortHash } from '../core/ids';
import type { ChatMessage, ToolCall } from './chatRequest';

/**
 * Multi-round tool plans for the scripted model. A last user message containing `plan:` scripts
 * the rounds of one request (everything after `plan:` is the plan):
 *
 *   plan: read_file {"path": "a.txt"} ; run_task {"task": "build", "note": "{{result}}"}
 *
 * - Rounds are separated by `;`, parallel calls of one round by `&`.
 * - A call is a tool name, then optionally its arguments: a brace-balanced `{...}` text sent as is
 *   (so `{path: a}` scripts malformed JSON), else `{}`. `<empty>` as the name scripts an empty name.
 * - `{{result}}` in the arguments is replaced by the previous round's tool results (joined with
 *   "\n", escaped for use inside a JSON string).
 * - `@x` after a call sets its id to `call_x` (two calls with the same `@x` script duplicate ids).
 * - `*N` after a round repeats it N times (N <= 100).
 * Round k of the plan is answered when the conversation holds k assistant tool-call messages after
 * the last user message. Once every round is done, the reply is one line per tool result since the
 * last user message: `Tool result (<name>): <content>`. Plans run only when tools are offered and
 * `tool_choice` is `auto`; call names need not be among the offered tools (to script unknown tools).
 */

export interface PlannedCall {
  name: string;
  arguments: string;
  id?: string;
}

export const MAX_PLAN_REPEAT = 100;

/** Index just past the balanced `{...}` starting at `start`, or -1. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Splits on `sep` outside of brace-balanced argument texts. */
function splitTop(text: string, sep: string): string[] {
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{') {
      const end = balancedEnd(text, i);
      if (end > 0) {
        i = end - 1;
        continue;
      }
    }
    if (c === sep) {
      parts.push(text.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(text.slice(from));
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

function parseCall(text: string): PlannedCall | undefined {
  const name = /^(<empty>|[A-Za-z0-9_.-]+)/.exec(text);
  if (!name?.[1]) return undefined;
  let rest = text.slice(name[1].length).trim();
  let args = '{}';
  if (rest.startsWith('{')) {
    const end = balancedEnd(rest, 0);
    const cut = end > 0 ? end : rest.length;
    args = rest.slice(0, cut);
    rest = rest.slice(cut).trim();
  }
  const id = /^@([A-Za-z0-9_-]+)/.exec(rest)?.[1];
  return { name: name[1] === '<empty>' ? '' : name[1], arguments: args, ...(id ? { id } : {}) };
}

/** The plan written in `text` (after `plan:`), one array of calls per round; undefined if none. */
export function parsePlan(text: string): PlannedCall[][] | undefined {
  const at = text.search(/\bplan:/i);
  if (at < 0) return undefined;
  const rounds: PlannedCall[][] = [];
  for (const step of splitTop(text.slice(at + 'plan:'.length), ';')) {
    const repeat = /\*\s*(\d+)\s*$/.exec(step);
    const body = repeat ? step.slice(0, repeat.index) : step;
    const calls = splitTop(body, '&').map(parseCall).filter((c): c is PlannedCall => c !== undefined);
    if (calls.length === 0) continue;
    const times = repeat ? Math.max(1, Math.min(MAX_PLAN_REPEAT, Number(repeat[1]))) : 1;
    for (let k = 0; k < times; k++) rounds.push(calls);
  }
  return rounds.length > 0 ? rounds : undefined;
}

function afterLastUser(messages: ChatMessage[]): ChatMessage[] {
  let at = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'user') {
      at = i;
      break;
    }
  }
  return messages.slice(at + 1);
}

function escapeForJsonString(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

export type PlanReply = { kind: 'calls'; calls: ToolCall[] } | { kind: 'answer'; text: string };

/** The reply a plan gives at this point of the conversation. */
export function planReply(plan: PlannedCall[][], messages: ChatMessage[], seed: string): PlanReply {
  const since = afterLastUser(messages);
  const round = since.filter((m) => m.role === 'assistant' && m.toolCalls.length > 0).length;
  const names = new Map<string, string>();
  for (const m of messages) for (const call of m.toolCalls) names.set(call.id, call.name);
  const step = plan[round];
  if (!step) {
    const lines = since.filter((m) => m.role === 'tool').map((m) => `Tool result (${names.get(m.toolCallId ?? '') ?? 'unknown'}): ${m.text}`);
    return { kind: 'answer', text: lines.join('\n') };
  }
  const previous: string[] = [];
  for (let i = since.length - 1; i >= 0 && since[i]?.role === 'tool'; i--) previous.unshift(since[i]?.text ?? '');
  const result = escapeForJsonString(previous.join('\n'));
  const calls = step.map((call, k) => ({
    id: call.id !== undefined ? `call_${call.id}` : `call_${shortHash(`${seed}:${k}`, 24)}`,
    name: call.name,
    arguments: call.arguments.split('{{result}}').join(result),
  }));
  return { kind: 'calls', calls };
}
