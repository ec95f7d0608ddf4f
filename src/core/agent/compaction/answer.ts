/**
 * Whether a summary request's answer may be stored. A summary replaces the messages it covers for
 * the rest of the conversation, so an answer cut by its max_tokens (finish reason `length`), one
 * that stopped inside a `<think>` block, or an empty one is never stored: what it would replace
 * is lost otherwise.
 */

/** The parts of a chat answer that decide it (a ChatResult is one). */
export interface SummaryAnswer {
  readonly text: string;
  readonly finishReason?: string | undefined;
  /** A `<think>` block was never closed. */
  readonly thinkingOpen?: boolean | undefined;
}

/** Why an answer is no summary: `cut` (length, or an unclosed `<think>`) or `empty`. */
export type SummaryProblem = 'cut' | 'empty';

export function summaryProblem(answer: SummaryAnswer): SummaryProblem | undefined {
  if (answer.finishReason === 'length' || answer.thinkingOpen === true) return 'cut';
  if (answer.text.trim() === '') return 'empty';
  return undefined;
}
