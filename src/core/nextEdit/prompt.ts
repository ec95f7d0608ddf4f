import { estimateTextTokens, MESSAGE_OVERHEAD_TOKENS, type ChatMessage } from '../inference';
import { keepStart, SAFETY_TOKENS, snippetBlock, DEFAULT_CONTEXT_TOKENS, type ContextSnippet } from '../inlineCompletion/prompt';
import { WINDOW_CLOSE, WINDOW_OPEN } from './answer';
import { CURSOR_MARKER, linesAround, markedWindow, type EditWindow } from './window';

export interface NextEditPromptInput {
  languageId: string;
  relativePath: string;
  /** The document's text (for the lines around the window). */
  text: string;
  window: EditWindow;
  /** The recent edits rendered as hunks (renderEdits), oldest first. */
  edits: readonly string[];
  /** Definitions the ghost-text context found (already filtered by the adapter). */
  snippets?: readonly ContextSnippet[];
  /** Last gate on a snippet (a file that became ignored since it was collected). */
  includeSnippet?: (snippet: ContextSnippet) => boolean;
  budget: { maxModelLen: number | undefined; maxPromptTokens?: number };
}

export interface NextEditPrompt {
  messages: ChatMessage[];
  maxTokens: number;
  promptTokens: number;
  /** Cache key: everything that decides the answer. */
  key: string;
  trimmed: { editsDropped: number; snippetsDropped: number; linesAbove: number; linesBelow: number };
}

/** The prompt stays small for latency, whatever the model admits (the window's rewrite is the answer). */
export const MAX_PROMPT_TOKENS = 4_096;
/** Lines of the file shown above and below the window, at most (nearest first). */
export const CONTEXT_LINES = 20;
/** One snippet may take at most this share of the room. */
export const SNIPPET_SHARE = 0.25;
/** The answer is the window rewritten: its size, some growth and the tags. */
const GROWTH = 1.3;
const ANSWER_MARGIN_TOKENS = 48;

export const NEXT_EDIT_SYSTEM = [
  'You predict the next edit a developer will make in a source file, from the edits they just made.',
  `The user message shows their recent edits as unified diffs, then a window of the file around the cursor between ${WINDOW_OPEN} and ${WINDOW_CLOSE}, with ${CURSOR_MARKER} at the cursor.`,
  `Reply with the complete new text of the window only, between ${WINDOW_OPEN} and ${WINDOW_CLOSE}: with the edit the recent edits call for`,
  '(the other uses of a renamed name, the other places a new field or parameter must go, the calls of a changed function), or unchanged if none is needed.',
  `Do not change anything outside the window, do not undo the user's edits, keep the indentation; no explanation, no Markdown fence, no ${CURSOR_MARKER}.`,
].join(' ');

function block(tag: string, lines: readonly string[]): string {
  return `<${tag}>\n${lines.join('\n')}${lines.length > 0 ? '\n' : ''}</${tag}>`;
}

function userText(input: NextEditPromptInput, edits: readonly string[], snippets: readonly string[], above: readonly string[], below: readonly string[]): string {
  const parts = [`Language: ${input.languageId}`, `File: ${input.relativePath}`, ''];
  if (edits.length > 0) parts.push(`Recent edits (oldest first):\n<edits>\n${edits.join('')}</edits>`, '');
  if (snippets.length > 0) parts.push(`Definitions from other files:\n${snippets.join('')}`);
  parts.push(`Lines before the window:\n${block('before', above)}`);
  parts.push(`The window (lines ${input.window.startLine + 1}-${input.window.endLine}):\n${WINDOW_OPEN}\n${markedWindow(input.window)}\n${WINDOW_CLOSE}`);
  parts.push(`Lines after the window:\n${block('after', below)}`);
  return parts.join('\n');
}

/**
 * The chat-format prompt for `/v1/completions`, in the ghost-text prompt's conventions (one system
 * and one user message, its budget helpers and safety margin). Room = min(max_model_len,
 * MAX_PROMPT_TOKENS) - max_tokens - SAFETY_TOKENS - the frame and the window, which are never
 * cut. It is filled, first to last: the recent edits (the newest first; an older one that does
 * not fit is dropped), the lines around the window (nearest first, above and below in turn), the
 * definitions by priority (each cut to SNIPPET_SHARE of the room). Undefined when the window
 * itself does not fit.
 */
export function buildNextEditPrompt(input: NextEditPromptInput): NextEditPrompt | undefined {
  const context = Math.min(input.budget.maxModelLen ?? DEFAULT_CONTEXT_TOKENS, input.budget.maxPromptTokens ?? MAX_PROMPT_TOKENS);
  const maxTokens = Math.ceil(estimateTextTokens(input.window.text) * GROWTH) + ANSWER_MARGIN_TOKENS;
  // The frame with its optional headers (edits, definitions) counted in, so filling never overshoots.
  const fixed = 2 * MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(NEXT_EDIT_SYSTEM) + estimateTextTokens(userText(input, [''], [''], [], []));
  let left = context - maxTokens - SAFETY_TOKENS - fixed;
  if (left < 0) return undefined;
  const room = left;

  const edits: string[] = [];
  for (const hunk of [...input.edits].reverse()) {
    const cost = estimateTextTokens(hunk);
    if (cost > left) break;
    edits.unshift(hunk);
    left -= cost;
  }

  const around = linesAround(input.text, input.window, CONTEXT_LINES);
  const above: string[] = [];
  const below: string[] = [];
  for (let k = 0; k < CONTEXT_LINES; k++) {
    for (const [source, target, nearest] of [[around.above, above, around.above.length - 1 - k], [around.below, below, k]] as const) {
      const line = source[nearest];
      if (line === undefined || target.length !== k) continue;
      const cost = estimateTextTokens(`${line}\n`);
      if (cost > left) continue;
      if (source === around.above) target.unshift(line);
      else target.push(line);
      left -= cost;
    }
  }

  const include = input.includeSnippet ?? (() => true);
  const candidates = (input.snippets ?? [])
    .map((s, order) => ({ s, order }))
    .filter(({ s }) => s.text.trim() !== '' && include(s))
    .sort((a, b) => b.s.priority - a.s.priority || a.order - b.order);
  let snippetsDropped = (input.snippets?.length ?? 0) - candidates.length;
  const snippets: string[] = [];
  for (const { s } of candidates) {
    const text = snippetBlock({ ...s, text: keepStart(s.text, Math.floor(room * SNIPPET_SHARE)) });
    const cost = estimateTextTokens(text);
    if (cost > left) snippetsDropped++;
    else {
      snippets.push(text);
      left -= cost;
    }
  }

  const user = userText(input, edits, snippets, above, below);
  return {
    messages: [
      { role: 'system', content: NEXT_EDIT_SYSTEM },
      { role: 'user', content: user },
    ],
    maxTokens,
    promptTokens: 2 * MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(NEXT_EDIT_SYSTEM) + estimateTextTokens(user),
    key: JSON.stringify([maxTokens, user]),
    trimmed: { editsDropped: input.edits.length - edits.length, snippetsDropped, linesAbove: above.length, linesBelow: below.length },
  };
}
