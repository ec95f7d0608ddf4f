import { firstLine, isBlank } from './text';

/** A same-line overlap shorter than this is only dropped when it is made of closers/punctuation. */
export const MIN_WORD_OVERLAP = 3;

/**
 * Drops the end of a suggestion that repeats what already follows the cursor:
 * - same line: the longest tail of the suggestion's last line that is a start of the rest of the
 *   cursor line (`foo(a|)` + `b)` -> `b`); short tails only when they are punctuation;
 * - following lines: trailing suggestion lines equal (trimmed) to the first non-blank lines of the
 *   suffix after the cursor line, indentation included (the closing `}` the editor inserted).
 */
export function dropSuffixOverlap(suggestion: string, suffix: string): string {
  let text = dropRepeatedLines(suggestion, suffix);
  const rest = firstLine(suffix).trim();
  if (rest === '' || text.includes('\n')) return text;
  const trimmed = text.trimEnd();
  for (let n = Math.min(rest.length, trimmed.length); n > 0; n--) {
    const tail = trimmed.slice(trimmed.length - n);
    if (!rest.startsWith(tail)) continue;
    if (n < MIN_WORD_OVERLAP && /\w/.test(tail)) continue;
    text = trimmed.slice(0, trimmed.length - n);
    break;
  }
  return text;
}

function dropRepeatedLines(suggestion: string, suffix: string): string {
  const lines = suggestion.split('\n');
  if (lines.length < 2) return suggestion;
  const after = suffix.split('\n').slice(1).filter((l) => !isBlank(l)).map((l) => l.trimEnd());
  if (after.length === 0) return suggestion;
  // The longest run of trailing suggestion lines equal to the suffix's next lines.
  for (let n = Math.min(after.length, lines.length - 1); n > 0; n--) {
    const tail = lines.slice(lines.length - n).map((l) => l.trimEnd());
    if (tail.every((l, k) => l === after[k])) return lines.slice(0, lines.length - n).join('\n');
  }
  return suggestion;
}
