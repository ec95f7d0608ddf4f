import { CHARS_PER_TOKEN, estimateTextTokens, MESSAGE_OVERHEAD_TOKENS, type ChatMessage } from '../inference';
import type { CompletionMode } from './mode';

export const CURSOR_MARKER = '<CURSOR>';

/** A piece of context from elsewhere; the adapter collects them (already filtered). */
export interface ContextSnippet {
  kind: 'recentEdit' | 'openEditor' | 'definition';
  /** Workspace-relative path, shown to the model. */
  path: string;
  text: string;
  /** Higher first; ties keep the given order. */
  priority: number;
}

export interface PromptBudget {
  /** The model's `max_model_len` (undefined: DEFAULT_CONTEXT_TOKENS). */
  maxModelLen: number | undefined;
  /** `max_tokens` of the request (the latency budget); defaults by mode. */
  maxTokens?: number;
  /** Latency cap on the prompt whatever the model admits (default MAX_PROMPT_TOKENS). */
  maxPromptTokens?: number;
}

export interface PromptInput {
  prefix: string;
  suffix: string;
  languageId: string;
  relativePath: string;
  mode: CompletionMode;
  snippets?: readonly ContextSnippet[];
  budget: PromptBudget;
  /**
   * Last gate on context: a snippet for which it returns false is left out. The adapter passes
   * snippets already filtered (files ignored by .gitignore / files.exclude, untrusted workspaces);
   * this hook lets it re-check (e.g. a path that became ignored since the snippet was collected).
   */
  includeSnippet?: (snippet: ContextSnippet) => boolean;
}

export interface BuiltPrompt {
  messages: ChatMessage[];
  maxTokens: number;
  /** Cache key: everything that decides the answer. */
  key: string;
  /** Estimated prompt tokens, and what was left out to fit. */
  promptTokens: number;
  trimmed: { prefixChars: number; suffixChars: number; snippetsDropped: number };
}

/** Default `max_tokens`: a line is short; a block is bounded to keep the latency low. */
export const SINGLE_LINE_MAX_TOKENS = 48;
export const MULTI_LINE_MAX_TOKENS = 192;
/** Prompts above this are slow to process (time to first token grows with the prompt). */
export const MAX_PROMPT_TOKENS = 3072;
/** Used when the catalogue does not give `max_model_len`. */
export const DEFAULT_CONTEXT_TOKENS = 4096;
/** Kept free for the estimate's error and the chat template's own tokens. */
export const SAFETY_TOKENS = 64;
/** Shares of the room reserved for the text nearest the cursor before snippets compete. */
export const PREFIX_SHARE = 0.5;
export const SUFFIX_SHARE = 0.15;
/** One snippet may take at most this share of the room (longer ones are cut to their start). */
export const SNIPPET_SHARE = 0.25;

export const SYSTEM_INSTRUCTION = [
  'You are a code completion engine inside an editor.',
  `The user message holds a file with the marker ${CURSOR_MARKER} at the cursor.`,
  `Reply with only the text to insert at ${CURSOR_MARKER}: no explanation, no Markdown fence, no repetition of the code before or after it.`,
  'Match the indentation and style of the file.',
].join(' ');

function modeLine(mode: CompletionMode): string {
  if (mode.kind === 'single') return 'Complete the current line only.';
  return mode.reason === 'docComment' ? 'Write the documentation comment and close it.' : 'Complete the block and stop where it ends.';
}

/** Keeps the last `tokens` worth of `text`, cut at a line start when one is close. */
export function keepEnd(text: string, tokens: number): string {
  const chars = Math.max(0, tokens) * CHARS_PER_TOKEN;
  if (text.length <= chars) return text;
  const cut = text.slice(text.length - chars);
  const line = cut.indexOf('\n');
  return line >= 0 && line < cut.length - 1 ? cut.slice(line + 1) : cut;
}

/** Keeps the first `tokens` worth of `text`, cut at a line end when one is close. */
export function keepStart(text: string, tokens: number): string {
  const chars = Math.max(0, tokens) * CHARS_PER_TOKEN;
  if (text.length <= chars) return text;
  const cut = text.slice(0, chars);
  const line = cut.lastIndexOf('\n');
  return line > 0 ? cut.slice(0, line + 1) : cut;
}

export function snippetBlock(s: ContextSnippet): string {
  const label = s.kind === 'recentEdit' ? 'recently edited' : s.kind === 'openEditor' ? 'open editor' : 'definition';
  return `--- ${s.path} (${label}) ---\n${s.text}\n`;
}

function frame(input: PromptInput, context: string, prefix: string, suffix: string): string {
  const head = `Language: ${input.languageId}\nFile: ${input.relativePath}\n`;
  const ctx = context === '' ? '' : `Context from other files:\n${context}\n`;
  return `${head}${ctx}${modeLine(input.mode)}\nFile content:\n${prefix}${CURSOR_MARKER}${suffix}`;
}

/**
 * Builds the chat-format prompt inside the budget. Room = min(max_model_len, maxPromptTokens)
 * - max_tokens - SAFETY_TOKENS - the fixed frame. Trimming order (first to go first):
 * 1. the prefix beyond PREFIX_SHARE of the room and the suffix beyond SUFFIX_SHARE are set
 *    aside (far prefix/suffix; the text nearest the cursor is kept, cut at line boundaries);
 * 2. snippets fill what is left by priority; the lowest-priority ones that do not fit are
 *    dropped, a snippet over SNIPPET_SHARE is cut to its first lines;
 * 3. room still left gives back the far prefix first, then the far suffix.
 */
export function buildPrompt(input: PromptInput): BuiltPrompt {
  const maxTokens = input.budget.maxTokens ?? (input.mode.kind === 'single' ? SINGLE_LINE_MAX_TOKENS : MULTI_LINE_MAX_TOKENS);
  const context = Math.min(input.budget.maxModelLen ?? DEFAULT_CONTEXT_TOKENS, input.budget.maxPromptTokens ?? MAX_PROMPT_TOKENS);
  const fixed = 2 * MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(SYSTEM_INSTRUCTION) + estimateTextTokens(frame(input, '', '', ''));
  const room = Math.max(0, context - maxTokens - SAFETY_TOKENS - fixed);

  let prefix = keepEnd(input.prefix, Math.floor(room * PREFIX_SHARE));
  let suffix = keepStart(input.suffix, Math.floor(room * SUFFIX_SHARE));
  let left = room - estimateTextTokens(prefix) - estimateTextTokens(suffix);

  const include = input.includeSnippet ?? (() => true);
  const candidates = (input.snippets ?? [])
    .map((s, order) => ({ s, order }))
    .filter(({ s }) => s.text.trim() !== '' && include(s))
    .sort((a, b) => b.s.priority - a.s.priority || a.order - b.order);
  const chosen: { block: string; order: number }[] = [];
  const cap = Math.floor(room * SNIPPET_SHARE);
  let dropped = (input.snippets?.length ?? 0) - candidates.length;
  for (const { s, order } of candidates) {
    const text = keepStart(s.text, cap);
    const block = snippetBlock({ ...s, text });
    const cost = estimateTextTokens(block);
    if (cost <= left) {
      chosen.push({ block, order });
      left -= cost;
    } else dropped += 1;
  }
  if (left > 0 && prefix.length < input.prefix.length) {
    const before = estimateTextTokens(prefix);
    prefix = keepEnd(input.prefix, before + left);
    left -= estimateTextTokens(prefix) - before;
  }
  if (left > 0 && suffix.length < input.suffix.length) suffix = keepStart(input.suffix, estimateTextTokens(suffix) + left);

  const contextText = chosen.map((c) => c.block).join('');
  const user = frame(input, contextText, prefix, suffix);
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM_INSTRUCTION },
    { role: 'user', content: user },
  ];
  return {
    messages,
    maxTokens,
    key: JSON.stringify([maxTokens, input.mode.kind, user]),
    promptTokens: 2 * MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(SYSTEM_INSTRUCTION) + estimateTextTokens(user),
    trimmed: { prefixChars: input.prefix.length - prefix.length, suffixChars: input.suffix.length - suffix.length, snippetsDropped: dropped },
  };
}
