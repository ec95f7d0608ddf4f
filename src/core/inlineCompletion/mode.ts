import { firstLine, indentWidth, isBlank, lastLine } from './text';

/**
 * Single-line or multi-line, decided from the text around the cursor (no model involved):
 *
 * - multi-line when the cursor line, before the cursor, ends with a block opener (`{`, `(`, `[`,
 *   or `:` as in Python) and nothing but closers follows the cursor on that line: the block is
 *   the cursor line's (`opensBlock`);
 * - multi-line on a blank cursor line whose nearest non-blank line above, less indented than the
 *   cursor, opens a block: that line's block (`emptyLineInBlock`); a blank line directly under an
 *   opener is the common "pressed Enter after `{`" case;
 * - multi-line after a doc-comment opener (`/**`, `"""`, `'''`) on the cursor line or the line
 *   above a blank cursor line (`docComment`);
 * - single-line otherwise (mid-line, or the rest of the line holds code).
 */
export type CompletionMode =
  | { kind: 'single' }
  | {
      kind: 'multi';
      reason: 'opensBlock' | 'emptyLineInBlock' | 'docComment';
      /** Indentation (columns) of the line that opens the block or the doc comment. */
      openIndent: number;
      /** The closer that ends the block (`}`, `)`, `]`, `*\/`, `"""`), if the opener has one. */
      closer?: string;
    };

const BLOCK_OPENER = /([{([]|:)\s*$/;
const DOC_OPENER = /^\s*(\/\*\*|"""|''')/;
/** What may follow the cursor on its line without making the completion single-line. */
const ONLY_CLOSERS = /^[\s)\]};,]*$/;
/** How far up a blank line looks for the block it belongs to. */
export const MAX_LINES_UP = 200;

function blockOf(line: string, reason: 'opensBlock' | 'emptyLineInBlock'): CompletionMode | undefined {
  const opener = BLOCK_OPENER.exec(line.replace(/\s*(\/\/.*|#.*)$/, ''))?.[1];
  if (!opener) return undefined;
  const closer = opener === '{' ? '}' : opener === '(' ? ')' : opener === '[' ? ']' : undefined;
  return { kind: 'multi', reason, openIndent: indentWidth(line), ...(closer ? { closer } : {}) };
}

function docOf(line: string): CompletionMode | undefined {
  const opener = DOC_OPENER.exec(line)?.[1];
  if (!opener) return undefined;
  const rest = line.slice(line.indexOf(opener) + opener.length);
  const closer = opener === '/**' ? '*/' : opener;
  if (rest.includes(closer)) return undefined; // a one-line doc comment is already closed
  return { kind: 'multi', reason: 'docComment', openIndent: indentWidth(line), closer };
}

export function decideMode(prefix: string, suffix: string): CompletionMode {
  if (!ONLY_CLOSERS.test(firstLine(suffix))) return { kind: 'single' };
  const before = lastLine(prefix);
  if (!isBlank(before)) return docOf(before) ?? blockOf(before, 'opensBlock') ?? { kind: 'single' };
  const lines = prefix.split('\n');
  lines.pop();
  const cursorIndent = indentWidth(before);
  let nearest = true;
  for (let i = lines.length - 1; i >= 0 && i >= lines.length - MAX_LINES_UP; i--) {
    const line = lines[i] ?? '';
    if (isBlank(line)) continue;
    if (nearest) {
      const doc = docOf(line);
      if (doc) return doc;
      const block = blockOf(line, 'emptyLineInBlock');
      if (block) return block;
      nearest = false;
    }
    if (indentWidth(line) < cursorIndent) return blockOf(line, 'emptyLineInBlock') ?? { kind: 'single' };
  }
  return { kind: 'single' };
}
