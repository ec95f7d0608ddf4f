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

/**
 * The custom_id of one file of a job: its place in the job and a digest of what was asked of it
 * (model, instruction, file and the hash of the text sent). A results line is matched by
 * custom_id alone, so a bare `file-0` matched the first file of any job: a results file of
 * another job (an output_file_id pointing elsewhere, a retry of other files) put one file's
 * answer over another. With the digest, an answer only ever matches the request it answers.
 */
export function fileCustomId(index: number, sent: { model: string; instruction: string; uri: string; sentHash: string }): string {
  const digest = createHash('sha256').update(JSON.stringify([sent.model, sent.instruction, sent.uri, sent.sentHash]), 'utf8').digest('hex');
  return `file-${index}-${digest.slice(0, 24)}`;
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

/** Why an answer is not offered as the file's new text (the item is listed as failed, with Retry). */
export type AnswerRefusal = 'empty_answer' | 'control_tokens' | 'not_file_text' | 'binary_answer';

export type FileAnswer = { ok: true; text: string } | { ok: false; code: AnswerRefusal; message: string };

/** End-of-turn tokens a model may leave at the end of an answer (harmony, Llama, ChatML, GPT). */
const END_TOKENS = ['<|end|>', '<|return|>', '<|call|>', '<|eot_id|>', '<|im_end|>', '<|endoftext|>'];
/** Chat-format control tokens: in an answer, the model's turn structure leaked into its text. */
const CONTROL_TOKENS = [...END_TOKENS, '<|start|>', '<|channel|>', '<|message|>', '<|constrain|>', '<|im_start|>', '<|start_header_id|>'];

function hasFenceLine(text: string): boolean {
  return text.startsWith('```') || text.includes('\n```') || /\n[ \t]+```/.test(text);
}

/** The answer without end tokens (and the blanks around them) at its very end: one pass back from the end. */
function withoutTrailingEndTokens(text: string): string {
  let end = text.length;
  for (;;) {
    let at = end;
    while (at > 0 && /\s/.test(text.charAt(at - 1))) at -= 1;
    const token = END_TOKENS.find((t) => at >= t.length && text.startsWith(t, at - t.length));
    if (token === undefined) return end === text.length ? text : text.slice(0, end);
    end = at - token.length;
  }
}

/**
 * The new text of the file `current` from a chat completion body, or why it cannot be that: one
 * home for what the model's answer must be before a person is offered to write it over a file.
 * - no text, or only blanks for a file that has some: refused (it would empty the file);
 * - chat-format control tokens: trailing end tokens are dropped; any other (that the file does not
 *   hold itself) refuses the answer;
 * - a fence around the whole answer is dropped; chatter around one fenced block (a file without
 *   fences of its own) keeps the block; more than one block, or a lone fence, is not the file;
 * - a unified diff for a file that is not one, or a NUL character: refused;
 * - a BOM is dropped (the file's text is read without it), and a CRLF file keeps CRLF.
 * Linear in the answer's length (literal searches and one split).
 */
export function fileAnswer(body: unknown, current: string): FileAnswer {
  const raw = answerText(body);
  if (raw === undefined) return { ok: false, code: 'empty_answer', message: 'The answer holds no text' };
  let text = withoutTrailingEndTokens(raw.startsWith('\uFEFF') ? raw.slice(1) : raw);
  if (text.trim() === '' && current.trim() !== '') return { ok: false, code: 'empty_answer', message: 'The answer is empty: the file is left as it is' };
  if (text.includes('\u0000')) return { ok: false, code: 'binary_answer', message: 'The answer holds binary data, not text' };
  const token = CONTROL_TOKENS.find((t) => text.includes(t) && !current.includes(t));
  if (token !== undefined) return { ok: false, code: 'control_tokens', message: `The answer holds the chat-format token ${token}: it is not the file's text` };
  if (!hasFenceLine(current) && hasFenceLine(text)) {
    const fences = fenceLines(text, 3);
    const [open, close] = fences;
    if (fences.length !== 2 || open === undefined || close === undefined) {
      return { ok: false, code: 'not_file_text', message: 'The answer is not the file alone (text and code fences around it)' };
    }
    const inner = text.slice(text.indexOf('\n', open) + 1, close);
    text = inner.endsWith('\n') || inner === '' ? inner : `${inner}\n`;
    if (text.trim() === '' && current.trim() !== '') return { ok: false, code: 'empty_answer', message: 'The answer is empty: the file is left as it is' };
  }
  if (looksLikeDiff(text) && !looksLikeDiff(current)) return { ok: false, code: 'not_file_text', message: 'The answer is a diff, not the new text of the file' };
  if (current.includes('\r\n') && !text.includes('\r')) text = text.replaceAll('\n', '\r\n');
  return { ok: true, text };
}

/** The start offsets of the first `most` lines that open or close a fence (one forward scan). */
function fenceLines(text: string, most: number): number[] {
  const out: number[] = [];
  for (let start = 0; start <= text.length && out.length < most; ) {
    let at = start;
    while (text.charAt(at) === ' ' || text.charAt(at) === '\t') at += 1;
    if (text.startsWith('```', at)) out.push(start);
    const nl = text.indexOf('\n', at);
    if (nl < 0) break;
    start = nl + 1;
  }
  return out;
}

function looksLikeDiff(text: string): boolean {
  const start = text.trimStart();
  if (start.startsWith('diff --git ')) return true;
  return start.startsWith('--- ') && /^--- [^\n]*\r?\n\+\+\+ /.test(start.slice(0, 2048));
}
