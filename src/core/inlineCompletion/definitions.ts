import { firstLine, lastLine } from './text';

/** Identifiers looked up per completion (the nearest first). */
export const MAX_IDENTIFIERS = 3;
/** Lines above the cursor line searched for identifiers. */
export const LINES_ABOVE = 3;
/** A definition snippet keeps at most this many lines from its definition line. */
export const DEFINITION_LINES = 12;
/** Shorter identifiers are too common to be worth a lookup. */
export const MIN_IDENTIFIER_CHARS = 4;

/** Keywords and very common names of the languages we complete: never worth a lookup. */
const COMMON = new Set(
  (
    'async await break case catch class const continue default delete else enum export extends false final finally for from function ' +
    'if implements import interface let new null private protected public readonly return self static super switch this throw true try ' +
    'type typeof undefined var void while with yield elif except lambda None pass raise True False def print func package struct ' +
    'string number boolean object Promise Array Object String Number Boolean Error console length value values result error event'
  ).split(' '),
);

const IDENTIFIER = /[A-Za-z_$][\w$]*/g;

/**
 * The identifiers near the cursor whose definitions may help the model: the cursor line and the
 * LINES_ABOVE lines above it, and the rest of the cursor line, the nearest first. The word being
 * typed at the cursor is left out (it is not complete), and so are keywords, short names,
 * property reads after a dot and names the document itself defines (the prompt shows them).
 */
export function identifiersNearCursor(prefix: string, suffix: string, documentText: string): string[] {
  // Only the last lines matter: cut them off without splitting a long prefix.
  let from = prefix.length;
  for (let k = 0; k <= LINES_ABOVE && from > 0; k++) from = prefix.lastIndexOf('\n', from - 1);
  const lines = prefix.slice(Math.max(0, from)).split('\n');
  const cursorLine = lastLine(prefix).replace(/[\w$]+$/, '');
  const above = lines.slice(Math.max(0, lines.length - 1 - LINES_ABOVE), -1).reverse();
  const after = firstLine(suffix).replace(/^[\w$]+/, '');
  const found: string[] = [];
  for (const text of [reverseWords(cursorLine), words(after), ...above.map(reverseWords)].flat()) {
    if (found.length >= MAX_IDENTIFIERS) break;
    if (text.length < MIN_IDENTIFIER_CHARS || COMMON.has(text) || found.includes(text)) continue;
    if (definitionPattern(text).test(documentText)) continue;
    found.push(text);
  }
  return found;
}

/** The identifiers of `text`, but not a property read after a dot (`order.items`): a call (`q.flush(`) stays. */
function words(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(IDENTIFIER)) {
    const after = text.slice(m.index + m[0].length);
    if (text[m.index - 1] === '.' && !/^\s*\(/.test(after)) continue;
    found.push(m[0]);
  }
  return found;
}

function reverseWords(text: string): string[] {
  return words(text).reverse();
}

function escape(text: string): string {
  return text.replace(/[$]/g, '\\$');
}

/** A line that defines `name` in one of the usual ways (function, class, type, variable, method...). */
export function definitionPattern(name: string): RegExp {
  const n = escape(name);
  return new RegExp(
    `^[ \\t]*(?:(?:export|default|public|private|protected|static|async|abstract|declare|pub)\\s+)*` +
      `(?:(?:function\\*?|class|interface|type|enum|const|let|var|def|fn|struct|trait|func|namespace)\\s+${n}\\b|${n}\\s*(?:<[^>]*>)?\\([^)]*\\)\\s*(?::[^{]*)?\\{)`,
    'm',
  );
}

/**
 * The definition of `name` in a piece of text found by the search index (`startLine`: its first
 * line, 1-based), cut to DEFINITION_LINES lines from the defining line; undefined when the text
 * only mentions the name.
 */
export function definitionIn(name: string, text: string, startLine: number): { text: string; line: number } | undefined {
  const match = definitionPattern(name).exec(text);
  if (!match) return undefined;
  const before = text.slice(0, match.index);
  const offset = before.length === 0 ? 0 : before.split('\n').length - 1;
  const lines = text.split('\n').slice(offset, offset + DEFINITION_LINES);
  return { text: lines.join('\n').trimEnd(), line: startLine + offset };
}
