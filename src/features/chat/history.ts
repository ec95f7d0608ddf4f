import * as vscode from 'vscode';
import type { ChatMessage } from '../../core/inference/chat/types';
import { splitThinking } from '../../core/inference/chat/think';
import type { TodoItem } from '../../core/agent/todoList';
import { withoutReasoning } from '../../core/agent/turnReasoning';

/**
 * Why an answer is incomplete: the stream was cut (reset, stalled, ended early), another error
 * stopped it, or the user cancelled. Its `messages` then hold the part that arrived.
 */
export type Incompleteness = 'reset' | 'stalled' | 'ended' | 'error' | 'cancelled';

/** What a Stratus answer keeps in its result metadata so later turns can be rebuilt exactly. */
export interface TurnMetadata {
  readonly model?: string;
  /** Assistant and tool messages of the turn, in order (tool rounds included), thinking and `reasoning_content` removed. */
  readonly messages?: readonly ChatMessage[];
  readonly finishReason?: string;
  /** Set when `messages` hold only the part of the answer that arrived. */
  readonly incomplete?: Incompleteness;
  readonly error?: true;
  readonly notConfigured?: 'apiKey' | 'baseUrl';
  /** Identifies the conversation across its turns (its stored summaries); see agentDepth.ts. */
  readonly conversationId?: string;
  /** The answer of `/compact`: not part of the conversation sent to the model. */
  readonly compacted?: true;
  /** The prompt as sent, when a turn shape replaced the user's (a prompt file's body). */
  readonly prompt?: string;
  /** The turn's to-do list (stratus_todo), carried on by the next turn of the conversation. */
  readonly todo?: readonly TodoItem[];
  /** The turn stopped at its cost cap: Continue raises the next turn's caps (capActions.ts). */
  readonly capStop?: { readonly id: string; readonly factor: number; readonly spent?: unknown };
}

/** `/compact`: summarises the conversation on demand. */
export const COMPACT_COMMAND = 'compact';

/** Previous `@stratus` turns of this chat as wire messages: the request, then what was answered. */
export function historyMessages(context: vscode.ChatContext, participantId: string): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const turn of context.history) {
    if (turn.participant !== participantId) continue;
    if (turn instanceof vscode.ChatRequestTurn) {
      if (turn.command === COMPACT_COMMAND) continue;
      out.push({ role: 'user', content: turn.prompt });
    } else if (turn instanceof vscode.ChatResponseTurn) {
      const metadata = turn.result.metadata as TurnMetadata | undefined;
      if (metadata?.compacted) continue;
      const asked = out[out.length - 1];
      if (typeof metadata?.prompt === 'string' && asked?.role === 'user') out[out.length - 1] = { role: 'user', content: metadata.prompt };
      if (metadata?.messages && metadata.messages.length > 0) {
        // A turn stored before its reasoning was dropped (an older session) must not send it again.
        out.push(...withoutReasoning(metadata.messages));
        continue;
      }
      const text = turn.response
        .map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : ''))
        .join('');
      if (text.trim() && !metadata?.error && !metadata?.notConfigured) out.push({ role: 'assistant', content: splitThinking(text).text });
    }
  }
  // A request whose answer failed leaves a dangling user turn; the API wants alternation.
  return out.filter((message, i) => !(message.role === 'user' && out[i + 1]?.role === 'user'));
}

/** The conversation's newest `@stratus` answer's metadata. */
export function newestAnswer(context: vscode.ChatContext, participantId: string): TurnMetadata | undefined {
  for (let i = context.history.length - 1; i >= 0; i--) {
    const turn = context.history[i];
    if (turn instanceof vscode.ChatResponseTurn && turn.participant === participantId) return turn.result.metadata as TurnMetadata | undefined;
  }
  return undefined;
}

/** The unfinished to-do list the conversation's newest answers kept, carried on by the next turn. */
export function carriedTodo(context: vscode.ChatContext, participantId: string): readonly TodoItem[] | undefined {
  const answers = context.history.filter((t): t is vscode.ChatResponseTurn => t instanceof vscode.ChatResponseTurn && t.participant === participantId).map((t) => t.result.metadata as TurnMetadata | undefined);
  const withTodo = [...answers].reverse().find((m) => Array.isArray(m?.todo));
  // A finished list is not carried into the next task.
  return withTodo?.todo?.some((i) => i.status !== 'done') ? withTodo.todo : undefined;
}
