import type { ChatMessage, ToolMessage } from '../../inference/index';
import type { Unit } from './units';

/**
 * The cheap step of compaction, tried before any summary request: old tool results (outside the
 * latest round, not yet summarised) are shortened to their beginning and a note. The model keeps
 * the call and what it started with, and can call the tool again; nothing is asked of the model.
 * Applied to the request's view only: the conversation (and the fingerprints summaries are matched
 * by) keeps the whole results.
 */

/** Characters of an elided result kept (its beginning: file headers, first lines, counts). */
export const ELIDED_HEAD_CHARS = 240;
/** Results up to this size are never elided: shortening them would save little. */
export const ELIDE_MIN_CHARS = 1_200;

export function elideResult(message: ToolMessage): ToolMessage {
  const { content } = message;
  if (content.length <= ELIDE_MIN_CHARS) return message;
  const rest = content.length - ELIDED_HEAD_CHARS;
  return {
    ...message,
    content: `${content.slice(0, ELIDED_HEAD_CHARS)}\n[Shortened to save context: ${rest.toLocaleString('en')} more characters not shown; call the tool again if needed.]`,
  };
}

/** Indices of the tool results that elision may shorten, oldest first (tool units only). */
export function elisionCandidates(messages: readonly ChatMessage[], units: readonly Unit[]): number[] {
  const out: number[] = [];
  for (const unit of units) {
    if (unit.kind !== 'tools') continue;
    for (const i of unit.indices) {
      const m = messages[i];
      if (m?.role === 'tool' && m.content.length > ELIDE_MIN_CHARS) out.push(i);
    }
  }
  return out.sort((a, b) => a - b);
}
