import { createHash } from 'node:crypto';
import type { ChatMessage } from '../../inference/index';

/**
 * How a conversation divides for compaction. Pinned (never summarised): every system message, the
 * latest user message (its attachments are parts of it), and the latest round after it (the
 * assistant's tool calls the model must now see answered, with their results). Everything else
 * falls in units, in the order they are summarised:
 *  1. tool units, oldest first: an assistant message with tool calls and the tool results that
 *     follow it, from earlier turns and from the earlier rounds of the current turn;
 *  2. turn units, oldest first: the rest of an earlier turn (its user message and text answers).
 * A tool call is never separated from its results, so what remains is always a valid request.
 */

export interface Unit {
  readonly kind: 'tools' | 'turn';
  /** Indices into the conversation, ascending. */
  readonly indices: readonly number[];
  readonly tokens: number;
  /** Content hash of the unit's messages: the key a cached summary is matched by. */
  readonly fingerprint: string;
}

export interface Layout {
  readonly units: readonly Unit[];
  /** Index of the latest user message, -1 if none. */
  readonly lastUser: number;
  /** Indices of the pinned latest round (tool results the model must answer now). */
  readonly latestRound: readonly number[];
}

/** Each message's hash, computed once per message object (a turn plans before every round). */
const messageHashes = new WeakMap<ChatMessage, string>();

function messageHash(message: ChatMessage): string {
  let hash = messageHashes.get(message);
  if (hash === undefined) {
    hash = createHash('sha256').update(JSON.stringify(message)).digest('hex');
    messageHashes.set(message, hash);
  }
  return hash;
}

/** A hash of the messages' contents (equal messages, even other objects, give the same one). */
export function fingerprint(messages: readonly ChatMessage[]): string {
  return createHash('sha256').update(messages.map(messageHash).join('\n')).digest('hex').slice(0, 32);
}

function hasToolCalls(m: ChatMessage | undefined): boolean {
  return m?.role === 'assistant' && (m.tool_calls?.length ?? 0) > 0;
}

export function layout(messages: readonly ChatMessage[], sizes: readonly number[]): Layout {
  let lastUser = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'user') {
      lastUser = i;
      break;
    }
  }
  const unit = (kind: Unit['kind'], indices: number[]): Unit => ({
    kind,
    indices,
    tokens: indices.reduce((a, i) => a + (sizes[i] ?? 0), 0),
    fingerprint: fingerprint(indices.map((i) => messages[i] as ChatMessage)),
  });
  const tools: Unit[] = [];
  const turns: Unit[] = [];
  // Earlier turns: each tool-call group is a tool unit; the turn's other messages one turn unit.
  let turn: number[] = [];
  let group: number[] = [];
  const closeGroup = (): void => {
    if (group.length > 0) tools.push(unit('tools', group));
    group = [];
  };
  const closeTurn = (): void => {
    closeGroup();
    if (turn.length > 0) turns.push(unit('turn', turn));
    turn = [];
  };
  const historyEnd = lastUser < 0 ? 0 : lastUser;
  for (let i = 0; i < historyEnd; i++) {
    const m = messages[i];
    if (!m || m.role === 'system') continue;
    if (m.role === 'user') closeTurn();
    if (hasToolCalls(m)) {
      closeGroup();
      group.push(i);
    } else if (m.role === 'tool' && group.length > 0) group.push(i);
    else {
      closeGroup();
      turn.push(i);
    }
  }
  closeTurn();
  // The current turn: rounds after the latest user message; all but the last are tool units.
  const rounds: number[][] = [];
  for (let i = Math.max(0, lastUser + 1); i < messages.length; i++) {
    const m = messages[i];
    if (!m || m.role === 'system') continue;
    const current = rounds[rounds.length - 1];
    if (m.role === 'assistant' || !current) rounds.push([i]);
    else current.push(i);
  }
  const latestRound = rounds.pop() ?? [];
  for (const round of rounds) tools.push(unit('tools', round));
  return { units: [...tools, ...turns], lastUser, latestRound };
}
