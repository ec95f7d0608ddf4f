import { CLOSERS, OPENERS } from './text';

/** How far back the prefix is scanned for brackets still open at the cursor. */
export const BRACKET_SCAN_CHARS = 4000;

/**
 * Walks code, skipping string literals ('...', "...", `...`) and line comments (`//`, and `#`
 * followed by a space or `!`, so TypeScript's `#private` and C's `#define` are code), and
 * calls `visit` for each bracket with its index. Strings do not span lines except template ones.
 */
function scanBrackets(text: string, visit: (char: string, index: number) => boolean | void): void {
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote || (c === '\n' && quote !== '`')) quote = '';
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if ((c === '/' && text[i + 1] === '/') || (c === '#' && /[\s!]/.test(text[i + 1] ?? ' '))) {
      const end = text.indexOf('\n', i);
      if (end < 0) return;
      i = end;
    } else if ((OPENERS[c] || CLOSERS[c]) && visit(c, i) === true) return;
  }
}

/** Openers of `prefix` (its last BRACKET_SCAN_CHARS) not closed before the cursor, innermost last. */
export function openBrackets(prefix: string): string[] {
  const stack: string[] = [];
  scanBrackets(prefix.slice(-BRACKET_SCAN_CHARS), (c) => {
    if (OPENERS[c]) stack.push(c);
    else if (stack[stack.length - 1] === CLOSERS[c]) stack.pop();
  });
  return stack;
}

/**
 * Keeps a suggestion's brackets consistent with the document: a closer that closes nothing opened
 * in the suggestion must close the innermost bracket open at the cursor, and only if the rest of
 * the cursor line does not start with it already (on whatever line of the suggestion); otherwise the suggestion is cut
 * right before that closer (an unmatched closer, or one the suffix already has). A closing line
 * the suffix already has on a later line is dropped by dropSuffixOverlap.
 */
export function balanceBrackets(suggestion: string, prefix: string, suffix: string): string {
  const open = openBrackets(prefix);
  const local: string[] = [];
  const sameLineNext = suffix.slice(0, (suffix + '\n').indexOf('\n')).trimStart().charAt(0);
  let cut = -1;
  scanBrackets(suggestion, (c, index) => {
    if (OPENERS[c]) {
      local.push(c);
      return false;
    }
    if (local.length > 0) {
      if (local[local.length - 1] !== CLOSERS[c]) {
        cut = index;
        return true;
      }
      local.pop();
      return false;
    }
    // The rest of the cursor line follows the suggestion's LAST line once accepted, so its closer
    // (the one the editor auto-inserted in `f(|)`) closes the same bracket whatever line this is on.
    const innermost = open.pop();
    if (innermost !== CLOSERS[c] || sameLineNext === c) {
      cut = index;
      return true;
    }
    return false;
  });
  return cut < 0 ? suggestion : suggestion.slice(0, cut);
}
