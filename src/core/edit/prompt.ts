import type { ChatMessage } from '../inference/chat/types';
import { estimateTextTokens, MESSAGE_OVERHEAD_TOKENS } from '../inference/models/tokens';
import { ValidationError } from '../errors';
import { RATES } from '../usage/rates';

/**
 * The request of an edit by instruction: the range to rewrite with the lines around it, the
 * file's language and path, the diagnostics in the range and the repository instructions, sized
 * from the model's context (`max_model_len`). A range the context cannot hold with room for its
 * rewrite is refused with its size and the limit.
 */

export interface EditDiagnostic {
  /** 0-based line in the document. */
  readonly line: number;
  readonly severity: 'error' | 'warning' | 'info' | 'hint';
  readonly message: string;
  readonly source?: string | undefined;
}

export interface EditPromptInput {
  readonly instruction: string;
  readonly languageId: string;
  readonly relativePath: string;
  /** The document's lines before the range (all of them; the prompt keeps what fits). */
  readonly before: readonly string[];
  readonly range: readonly string[];
  readonly after: readonly string[];
  /** 0-based document line of the range's first line. */
  readonly startLine: number;
  readonly diagnostics: readonly EditDiagnostic[];
  /** The repository instructions section ('' when none). */
  readonly instructions: string;
  /** The model's context length; undefined when the service did not say. */
  readonly maxModelLen: number | undefined;
}

export interface EditPrompt {
  readonly messages: ChatMessage[];
  readonly maxTokens: number;
  readonly promptTokens: number;
  /** Lines of context kept before and after the range. */
  readonly contextLines: { readonly before: number; readonly after: number };
}

/** Assumed when the service does not report `max_model_len`. */
export const DEFAULT_CONTEXT_TOKENS = 8_192;
/** Lines of context before and after the range, at most. */
export const MAX_CONTEXT_LINES = 40;
/** A rewrite may grow: the answer budget is this much of the range, plus a margin. */
const GROWTH = 1.5;
const MARGIN_TOKENS = 128;

export const SYSTEM_PROMPT = [
  'You rewrite one range of a source file as the user instructs.',
  'Reply with the rewritten range only: the complete new text of the lines between <range> and </range>, nothing before or after them.',
  'No Markdown fences, no explanation, no line numbers. Keep the indentation of the range and the style of the file.',
  'If the instruction asks for nothing to change in the range, reply with the range unchanged.',
].join('\n');

function block(tag: string, lines: readonly string[]): string {
  return `<${tag}>\n${lines.join('\n')}\n</${tag}>`;
}

function diagnosticsText(diagnostics: readonly EditDiagnostic[], startLine: number): string {
  if (diagnostics.length === 0) return '';
  const lines = diagnostics.slice(0, 50).map((d) => `- line ${d.line - startLine + 1} of the range: ${d.severity}: ${d.message.replace(/\s+/g, ' ').trim()}${d.source ? ` (${d.source})` : ''}`);
  return `\nProblems reported in the range:\n${lines.join('\n')}\n`;
}

/** The answer budget a range needs. */
export function rewriteBudget(rangeTokens: number): number {
  return Math.ceil(rangeTokens * GROWTH) + MARGIN_TOKENS;
}

function userText(input: EditPromptInput, before: readonly string[], after: readonly string[]): string {
  const end = input.startLine + input.range.length;
  return [
    `File: ${input.relativePath} (${input.languageId})`,
    `Instruction: ${input.instruction.replace(/\s+/g, ' ').trim()}`,
    '',
    `Lines before the range:\n${block('before', before)}`,
    `The range to rewrite (lines ${input.startLine + 1}-${end}):\n${block('range', input.range)}`,
    `Lines after the range:\n${block('after', after)}`,
    diagnosticsText(input.diagnostics, input.startLine),
  ].join('\n');
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** Builds the request, or throws ValidationError (param `range`) when the range cannot fit. */
export function buildEditPrompt(input: EditPromptInput): EditPrompt {
  const context = input.maxModelLen ?? DEFAULT_CONTEXT_TOKENS;
  const system = input.instructions ? `${SYSTEM_PROMPT}\n\n${input.instructions}` : SYSTEM_PROMPT;
  const rangeTokens = estimateTextTokens(input.range.join('\n'));
  const maxTokens = rewriteBudget(rangeTokens);
  const fixed = 2 * MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(system) + estimateTextTokens(userText(input, [], []));
  if (fixed + maxTokens > context) {
    const perLine = (rangeTokens + maxTokens) / Math.max(1, input.range.length);
    const room = Math.max(0, Math.floor((context - (fixed - rangeTokens)) / Math.max(perLine, 1)));
    throw new ValidationError(
      `The range is ${fmt(input.range.length)} lines: with its rewrite it needs about ${fmt(fixed + maxTokens)} tokens, more than the model's context of ${fmt(context)} tokens (max_model_len). Select at most about ${fmt(room)} lines.`,
      'range',
    );
  }
  // Context lines, nearest first, alternately before and after, while they fit.
  let room = context - fixed - maxTokens;
  let nBefore = 0;
  let nAfter = 0;
  for (let k = 0; k < MAX_CONTEXT_LINES; k++) {
    const b = input.before[input.before.length - 1 - k];
    if (b !== undefined && estimateTextTokens(`${b}\n`) <= room) {
      room -= estimateTextTokens(`${b}\n`);
      nBefore++;
    }
    const a = input.after[k];
    if (a !== undefined && estimateTextTokens(`${a}\n`) <= room) {
      room -= estimateTextTokens(`${a}\n`);
      nAfter++;
    }
  }
  const before = input.before.slice(input.before.length - nBefore);
  const after = input.after.slice(0, nAfter);
  const user = userText(input, before, after);
  const messages: ChatMessage[] = [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
  const promptTokens = 2 * MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(system) + estimateTextTokens(user);
  return { messages, maxTokens, promptTokens, contextLines: { before: nBefore, after: nAfter } };
}

/** What an edit may cost in EUR at the contract's rates: its prompt, and a rewrite as long as its budget's expected use. */
export function estimateEditCostEur(prompt: Pick<EditPrompt, 'promptTokens' | 'maxTokens'>): number {
  const expectedOutput = Math.max(0, prompt.maxTokens - MARGIN_TOKENS) / GROWTH;
  return prompt.promptTokens * RATES.input.eurPerUnit + expectedOutput * RATES.output.eurPerUnit;
}
