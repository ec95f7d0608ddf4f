import type { ChatMessage } from '../inference/chat/types';
import { CHARS_PER_TOKEN, estimateMessageTokens, MESSAGE_OVERHEAD_TOKENS } from '../inference/models/tokens';
import { RATES } from '../usage/rates';
import { ContextTooSmallError, type ChangeSource } from '../commitMessage/prompt';
import { numberDiff, splitIntoParts, type DiffIndex } from './diffParts';
import type { ReviewChanges } from './changes';

/** The most diff one request sends, whatever the context: findings get vaguer past it, and input is billed. */
export const MAX_PART_TOKENS = 16_000;
/** Longest answer asked for per part (a JSON array of findings; reasoning models think inside it too). */
export const REVIEW_MAX_TOKENS = 2_048;
/** Below this many tokens for the diff the context is too small to review anything. */
const MIN_PART_TOKENS = 200;
/** Room kept for the user message's text around the diff (what was left out, which part). */
const FRAMING_CHARS = 1_500;

export const REVIEW_SYSTEM = [
  'You review code changes before they are committed. Look for bugs, security problems (injection, secrets, unsafe input handling, missing checks) and missing or broken tests; mention style only when it hides a bug.',
  'The diff shows each file under a "### path" header; every row starts with its line number in the new file (removed rows have none), then "+" for an added line, "-" for a removed one or a space for context.',
  'Comment on the changed lines (marked "+" or next to a "-"); use the context only to understand them.',
  'Answer with a JSON array only, in a ```json fence, one object per finding: {"file": "<path as in the header>", "line": <new-file line number from the left column>, "severity": "error" | "warning" | "info", "category": "bug" | "security" | "tests" | "performance" | "other", "message": "<one or two sentences>", "suggestion": "<how to fix it, optional>"}.',
  'Answer [] when you find nothing worth a comment. No text outside the fence.',
].join('\n');

/** One request of a review: the messages of one part. */
export interface ReviewRequest {
  readonly messages: ChatMessage[];
  readonly maxTokens: number;
  /** Estimated prompt tokens (biased high). */
  readonly promptTokens: number;
  readonly files: readonly string[];
}

export interface ReviewPlan {
  readonly requests: ReviewRequest[];
  /** The lines of each file a finding may land on. */
  readonly index: DiffIndex;
  /** Estimated tokens of all the prompts together. */
  readonly promptTokens: number;
  /** Estimated cost at the contract's rates, the answers counted at half their room. */
  readonly estimatedEur: number;
}

export interface ReviewContext {
  readonly repositoryName: string;
  readonly source: ChangeSource;
  /** The model's context length (`max_model_len`). */
  readonly maxModelLen: number;
}

function listed(paths: readonly string[], max = 15): string {
  return paths.length <= max ? paths.join(', ') : `${paths.slice(0, max).join(', ')} and ${paths.length - max} more`;
}

/** What the user message says before the diff: which changes, which part, what was left out. */
function preamble(context: ReviewContext, changes: ReviewChanges, part: number, parts: number): string {
  const which = context.source === 'staged' ? 'staged changes' : 'uncommitted changes (nothing is staged)';
  const lines = [`Review the ${which} of the repository "${context.repositoryName}"${parts > 1 ? ` (part ${part} of ${parts}: the diff was too large for one request; other parts are reviewed apart)` : ''}.`];
  const withheld = [...changes.binary, ...changes.generated];
  if (withheld.length > 0) lines.push(`Binary or generated files changed (not shown, do not comment on them): ${listed(withheld)}.`);
  const large = [...changes.tooLarge, ...changes.notRead];
  if (large.length > 0) lines.push(`Files whose diff is too large to review (not shown): ${listed(large)}.`);
  return lines.join('\n');
}

/** Characters of diff one part may hold in `maxModelLen` (after the answer's room, the system message and the framing). */
export function partBudgetChars(maxModelLen: number): number {
  const system: ChatMessage = { role: 'system', content: REVIEW_SYSTEM };
  const maxTokens = Math.min(REVIEW_MAX_TOKENS, Math.max(256, Math.floor(maxModelLen / 4)));
  const room = (maxModelLen - maxTokens - estimateMessageTokens(system) - MESSAGE_OVERHEAD_TOKENS) * CHARS_PER_TOKEN - FRAMING_CHARS;
  const chars = Math.min(MAX_PART_TOKENS * CHARS_PER_TOKEN, room);
  if (!(chars >= MIN_PART_TOKENS * CHARS_PER_TOKEN)) {
    throw new ContextTooSmallError(maxModelLen, maxTokens + estimateMessageTokens(system) + MESSAGE_OVERHEAD_TOKENS + Math.ceil(FRAMING_CHARS / CHARS_PER_TOKEN) + MIN_PART_TOKENS);
  }
  return chars;
}

/**
 * The review's requests: the diff numbered by new-file line, cut into parts that each fit the
 * context with the system message and the answer's room, one request per part.
 */
export function planReview(context: ReviewContext, changes: ReviewChanges): ReviewPlan {
  const budget = partBudgetChars(context.maxModelLen);
  const maxTokens = Math.min(REVIEW_MAX_TOKENS, Math.max(256, Math.floor(context.maxModelLen / 4)));
  const { files, index } = numberDiff(changes.files);
  const parts = splitIntoParts(files, budget);
  const system: ChatMessage = { role: 'system', content: REVIEW_SYSTEM };
  const requests = parts.map((part, k): ReviewRequest => {
    const user: ChatMessage = { role: 'user', content: `${preamble(context, changes, k + 1, parts.length)}\n\nDiff:\n${part.text}` };
    const messages = [system, user];
    return { messages, maxTokens, promptTokens: messages.reduce((sum, m) => sum + estimateMessageTokens(m), 0), files: part.files };
  });
  const promptTokens = requests.reduce((sum, r) => sum + r.promptTokens, 0);
  const answerTokens = requests.reduce((sum, r) => sum + r.maxTokens / 2, 0);
  return { requests, index, promptTokens, estimatedEur: promptTokens * RATES.input.eurPerUnit + answerTokens * RATES.output.eurPerUnit };
}
