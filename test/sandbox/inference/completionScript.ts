import { shortHash } from '../core/ids';
import { nextEditAnswer } from './nextEditScript';

/**
 * The scripted continuation of a code-completion prompt: a user message holding CURSOR_MARKER.
 * It depends only on B, the text of that message before the first marker (see README.md):
 *
 * - h = the first 6 hex digits of sha256(B); L = B's last line; P = B's last non-blank line;
 *   I = the indentation of P.
 * - L blank and P ends with `{` or `:` (cursor on the empty first line of a block):
 *   `body_h()\n` + L + `return 0\n` + (P ends with `{` ? I + `}\n` : '') + I + `after_h()\n` + filler.
 * - L ends with `{` or `:` (cursor at the end of a line that opens a block): `\n` + I + 4 spaces
 *   + `body_h()\n` + the same lines as above (return, closer, after) + filler.
 * - L (trimmed) starts with `/**` (a doc comment opener): `\n` + I + ` * Doc h.\n` + I + ` *\/\n`
 *   + I + `after_h()\n` + filler.
 * - otherwise (single line): `value_h()\n` + I + `next_h()\n` + filler.
 * - filler: FILLER_LINES lines `<I>filler_<k>()\n` (k = 1..FILLER_LINES), so a client that stops at
 *   the decision point leaves many tokens unstreamed.
 */
export const CURSOR_MARKER = '<CURSOR>';
export const FILLER_LINES = 40;

const TOKEN = /\n|[^\S\n]+|[A-Za-z0-9_]+|[^A-Za-z0-9_\s]/g;

/** Splits a continuation into token-sized pieces (a word, a run of spaces, a newline, a symbol). */
export function completionTokensOf(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? '';
}

/**
 * A model that knows the answer, for the completion benchmark only: given the user text before
 * and after the first marker, it returns its own continuation, or undefined for the scripted one.
 * Tests never set it, so their continuations stay the deterministic ones above.
 */
export type CompletionOracle = (before: string, after: string) => string | undefined;

let oracle: CompletionOracle | undefined;

/** Installs (or, with undefined, removes) the benchmark's oracle for every sandbox in this process. */
export function setCompletionOracle(next: CompletionOracle | undefined): void {
  oracle = next;
}

/** The continuation for a prompt whose user text is `text`, or undefined when it has no marker. */
export function completionContinuation(text: string): string | undefined {
  const at = text.indexOf(CURSOR_MARKER);
  if (at < 0) return undefined;
  const before = text.slice(0, at);
  const known = oracle?.(before, text.slice(at + CURSOR_MARKER.length));
  if (known !== undefined) return known;
  // A next-edit prompt (a window between tags) is answered with the window rewritten (nextEditScript.ts).
  const nextEdit = nextEditAnswer(text, CURSOR_MARKER);
  if (nextEdit !== undefined) return nextEdit;
  const h = shortHash(before, 6);
  const lines = before.split('\n');
  const last = lines[lines.length - 1] ?? '';
  const previous = [...lines].reverse().find((l) => l.trim() !== '') ?? '';
  const indent = indentOf(previous);
  const filler = Array.from({ length: FILLER_LINES }, (_, k) => `${indent}filler_${k + 1}()\n`).join('');
  const opens = (line: string): boolean => /[{:]\s*$/.test(line);
  const tail = (opener: string, bodyIndent: string): string =>
    `${bodyIndent}return 0\n${/\{\s*$/.test(opener) ? `${indent}}\n` : ''}${indent}after_${h}()\n${filler}`;
  if (last.trim() === '' && opens(previous)) return `body_${h}()\n${tail(previous, last)}`;
  if (opens(last)) return `\n${indent}    body_${h}()\n${tail(last, `${indent}    `)}`;
  if (last.trim().startsWith('/**')) return `\n${indent} * Doc ${h}.\n${indent} */\n${indent}after_${h}()\n${filler}`;
  return `value_${h}()\n${indent}next_${h}()\n${filler}`;
}
