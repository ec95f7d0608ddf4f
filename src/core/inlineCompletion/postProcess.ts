import { FenceStripper } from '../inference/completions/fenceStripper';
import { balanceBrackets } from './brackets';
import { cutAtBlockEnd } from './blockEnd';
import { stripChatter, stripTrailingChatter } from './chatter';
import type { CompletionMode } from './mode';
import { dropSuffixOverlap } from './suffixOverlap';
import { isBlank, lastLine, leadingWhitespace } from './text';

export interface PostProcessInput {
  /** The model's text (whole, or what was read before the early stop). */
  raw: string;
  prefix: string;
  suffix: string;
  mode: CompletionMode;
  /** The marker the prompt used, removed if the model echoes it. */
  marker?: string;
}

/** Removes Markdown fences the same way the stream does. */
export function stripFences(text: string): string {
  const stripper = new FenceStripper();
  return stripper.push(text) + stripper.end();
}

/** A typed line prefix shorter than this is not looked for at the start of the answer. */
export const MIN_REPEATED_PREFIX = 6;

/** The model repeated the cursor line's text before the cursor: keep what follows it. */
function dropRepeatedLinePrefix(text: string, linePrefix: string): string {
  const typed = linePrefix.trim();
  if (typed.length < MIN_REPEATED_PREFIX) return text;
  const start = text.trimStart();
  return start.startsWith(typed) ? start.slice(typed.length) : text;
}

/** Fewer non-blank characters than this are never called a repetition (a closing `}` often is one). */
export const MIN_REPEATED_TEXT = 6;

/** The suggestion's lines are the last lines before the cursor again (compared trimmed, blank lines aside). */
function repeatsTextBeforeCursor(text: string, prefix: string): boolean {
  const meaningful = (s: string): string[] => s.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const offered = meaningful(text);
  if (offered.join('').length < MIN_REPEATED_TEXT) return false;
  const before = meaningful(prefix.slice(-4 * text.length - 200));
  if (before.length < offered.length) return false;
  return offered.every((line, k) => line === before[before.length - offered.length + k]);
}

/**
 * On a blank cursor line the user already typed the indentation: the first line loses its own
 * leading whitespace, and when the model wrote the whole snippet at column 0 the following lines
 * get the cursor line's indentation (so the block keeps the line's indentation).
 */
function fitIndentation(text: string, linePrefix: string): string {
  if (!isBlank(linePrefix) || linePrefix === '') return text;
  const lines = text.split('\n');
  const first = lines[0] ?? '';
  const own = leadingWhitespace(first);
  lines[0] = first.slice(own.length);
  if (own === '' && lines.length > 1) {
    const rest = lines.slice(1).filter((l) => !isBlank(l));
    const atColumnZero = rest.length > 0 && rest.every((l) => !/^\s/.test(l) || /^\s*[)\]}]/.test(l));
    if (atColumnZero && rest.some((l) => !/^[)\]}]/.test(l))) {
      for (let i = 1; i < lines.length; i++) if (!isBlank(lines[i] ?? '') && !/^[)\]}]/.test(lines[i] ?? '')) lines[i] = linePrefix + (lines[i] ?? '');
    }
  }
  return lines.join('\n');
}

/**
 * Turns a model's answer into the text to show at the cursor, or undefined when nothing useful is
 * left. In order: fences and chatter out, an echoed marker out, a repeated line prefix out, the
 * cursor line's indentation kept, cut where the mode says the suggestion ends, the part that
 * repeats the suffix dropped, brackets balanced against prefix and suffix, trailing whitespace
 * trimmed; a suggestion that is only whitespace, or only the lines just before the cursor again
 * (a model echoing its last answer), is refused.
 */
export function postProcess(input: PostProcessInput): string | undefined {
  const linePrefix = lastLine(input.prefix);
  let text = stripTrailingChatter(stripChatter(stripFences(stripChatter(input.raw))));
  if (input.marker) text = text.split(input.marker).join('');
  // Checked on the whole answer (the mode's cut may leave a line that is no repetition by itself) and on what is left.
  if (repeatsTextBeforeCursor(text, input.prefix)) return undefined;
  text = dropRepeatedLinePrefix(text, linePrefix);
  if (input.mode.kind === 'multi' && input.mode.reason === 'opensBlock') text = text.replace(/^[^\S\n]+(?=\n)/, '');
  text = fitIndentation(text, linePrefix);
  // Trailing whitespace is never shown: trimmed before the suffix is compared, so an answer ending
  // with a line break ends on its last real line (else its empty last line hides the overlap).
  text = cutAtBlockEnd(text, input.mode, linePrefix).text.replace(/\s+$/, '');
  text = dropSuffixOverlap(text, input.suffix);
  text = balanceBrackets(text, input.prefix, input.suffix).replace(/\s+$/, '');
  if (text.trim() === '' || repeatsTextBeforeCursor(text, input.prefix)) return undefined;
  return text;
}
