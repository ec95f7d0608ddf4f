import type { CompletionMode } from './mode';
import { indentWidth, isBlank } from './text';

/** Where a suggestion ends, given its mode; `closed` says no more text can change that. */
export interface Cut {
  text: string;
  closed: boolean;
}

const CLOSING_LINE = /^\s*[)\]}]/;

/**
 * Cuts `completion` (the text from the cursor on) where the suggestion ends:
 * - single-line: at the first line break (closed once one arrived);
 * - multi-line block: at the first non-blank line, after the cursor line for `opensBlock`,
 *   indented at or below the opening line. A line starting with a closer (`}`, `)`, `]`) closes
 *   the block and is kept (closed once its line break arrived); any other such line (Python's
 *   dedent) is outside and dropped (closed as soon as its first character arrived);
 * - doc comment: after the line that holds the closer (`*\/`, `"""`).
 * `linePrefix` is the cursor line before the cursor; it counts for the first line's indentation.
 */
export function cutAtBlockEnd(completion: string, mode: CompletionMode, linePrefix: string): Cut {
  if (mode.kind === 'single') {
    const at = completion.indexOf('\n');
    return at < 0 ? { text: completion, closed: false } : { text: completion.slice(0, at), closed: true };
  }
  const lines = completion.split('\n');
  let offset = 0;
  for (let i = 0; i < lines.length; i++) {
    const own = lines[i] ?? '';
    const line = i === 0 ? linePrefix + own : own;
    const complete = i < lines.length - 1;
    const end = offset + own.length;
    const considered = mode.reason !== 'opensBlock' || i > 0;
    if (considered && !isBlank(line)) {
      if (mode.reason === 'docComment') {
        const closer = mode.closer ?? '*/';
        const from = i === 0 ? linePrefix.length : 0;
        if (line.indexOf(closer, from) >= 0) return { text: completion.slice(0, end), closed: complete };
      } else if (indentWidth(line) <= mode.openIndent) {
        if (CLOSING_LINE.test(line)) return { text: completion.slice(0, end), closed: complete };
        return { text: completion.slice(0, Math.max(0, offset - 1)), closed: true };
      }
    }
    offset = end + 1;
  }
  return { text: completion, closed: false };
}
