/**
 * "Run a prompt over files" as batch requests: one chat request per file (the instruction, the
 * file's path and its text), and the new file text read back from an answer. Pure: the feature
 * reads the files and applies what the person accepts.
 */
import { createHash } from 'node:crypto';
import { arr, isRecord, str } from '../../json';
import type { BatchRequest } from './types';

export const PROMPT_OVER_FILES_SYSTEM =
  'You rewrite one file following the instruction. Answer with the complete new content of the file and nothing else: no explanation, no Markdown fence.';

/** Longest answer asked for one file (generated tokens). */
export const MAX_FILE_ANSWER_TOKENS = 8_192;

export function fileRequest(input: { customId: string; instruction: string; path: string; text: string; model: string; maxTokens?: number }): BatchRequest {
  return {
    customId: input.customId,
    body: {
      model: input.model,
      max_tokens: input.maxTokens ?? MAX_FILE_ANSWER_TOKENS,
      messages: [
        { role: 'system', content: PROMPT_OVER_FILES_SYSTEM },
        { role: 'user', content: `Instruction:\n${input.instruction}\n\nFile: ${input.path}\n\n${input.text}` },
      ],
    },
  };
}

/** sha256 of a text (what was sent, to tell a file changed since). */
export function textHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The new file text of a chat completion body: the first choice's content, without a fence that
 * wraps the whole answer (one scan of the first and last lines). Undefined when there is none.
 */
export function answerText(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const first = arr(body.choices)[0];
  const message = isRecord(first) ? first.message : undefined;
  const content = isRecord(message) ? str(message.content) : undefined;
  if (content === undefined) return undefined;
  const trimmed = content.trim();
  if (!trimmed.startsWith('```') || !trimmed.endsWith('```') || trimmed.length < 6) return content;
  const open = trimmed.indexOf('\n');
  const close = trimmed.lastIndexOf('\n');
  if (open < 0 || close <= open) return content;
  return `${trimmed.slice(open + 1, close)}\n`;
}
