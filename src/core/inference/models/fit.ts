import type { ChatMessage, ToolDefinition } from '../chat/types';
import { estimateMessageTokens, estimateToolsTokens } from './tokens';

export interface FitOptions {
  /** Wanted answer budget (max_tokens); history is dropped to leave room for it. Default 1024. */
  maxTokens?: number;
  /** Smallest answer budget worth sending; below it `fits` is false. Default 256. */
  minOutputTokens?: number;
  /** Tool definitions sent with the request: they take prompt room too. */
  tools?: readonly ToolDefinition[];
  /** Token estimate per message; default `estimateMessageTokens`. */
  estimate?: (message: ChatMessage) => number;
}

export interface FitResult {
  /** The kept messages, in their original order. */
  messages: ChatMessage[];
  /** How many messages were dropped. */
  dropped: number;
  /** Estimated prompt size of the kept messages and tools. */
  promptTokens: number;
  /** Budget to send as max_tokens: min(wanted, what is left of the context), never negative. */
  maxTokens: number;
  /** Whether at least `minOutputTokens` remain. */
  fits: boolean;
}

/**
 * Groups the droppable messages, oldest first. Before the last user message: whole turns (a user
 * message with the replies and tool rounds that follow it). After it (an agent loop on the current
 * request): each assistant tool-call message with its tool results, except the latest round.
 * System messages and the last user message are never in a group, and a tool call is never
 * separated from its results.
 */
function droppableGroups(messages: readonly ChatMessage[]): number[][] {
  let lastUser = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'user') {
      lastUser = i;
      break;
    }
  }
  if (lastUser < 0) lastUser = messages.length - 1; // no user message: keep the last one
  const history: number[][] = [];
  for (let i = 0; i < lastUser; i++) {
    const m = messages[i];
    if (!m || m.role === 'system') continue;
    const current = history[history.length - 1];
    if (m.role === 'user' || !current) history.push([i]);
    else current.push(i);
  }
  const rounds: number[][] = [];
  for (let i = lastUser + 1; i < messages.length; i++) {
    const m = messages[i];
    if (!m || m.role === 'system') continue;
    const current = rounds[rounds.length - 1];
    if (m.role === 'assistant' || !current) rounds.push([i]);
    else current.push(i);
  }
  rounds.pop(); // the latest round is what the model must answer now
  return [...history, ...rounds];
}

/**
 * Fits a conversation into a model's context (`max_model_len`) by dropping the oldest turns first,
 * and returns the budget left for `max_tokens`. Uses the estimate in tokens.ts.
 */
export function fitConversation(
  messages: readonly ChatMessage[],
  maxModelLen: number,
  options: FitOptions = {},
): FitResult {
  const wanted = options.maxTokens ?? 1024;
  const minOutput = Math.min(options.minOutputTokens ?? 256, wanted);
  const estimate = options.estimate ?? estimateMessageTokens;
  const sizes = messages.map((m) => estimate(m));
  let total = estimateToolsTokens(options.tools) + sizes.reduce((a, b) => a + b, 0);
  const dropped = new Set<number>();
  for (const group of droppableGroups(messages)) {
    if (total + wanted <= maxModelLen) break;
    for (const i of group) {
      dropped.add(i);
      total -= sizes[i] ?? 0;
    }
  }
  const remaining = maxModelLen - total;
  return {
    messages: messages.filter((_, i) => !dropped.has(i)),
    dropped: dropped.size,
    promptTokens: total,
    maxTokens: Math.max(0, Math.min(wanted, remaining)),
    fits: remaining >= minOutput,
  };
}
