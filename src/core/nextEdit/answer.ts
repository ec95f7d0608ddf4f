import { stripChatter, stripTrailingChatter } from '../inlineCompletion/chatter';
import { CURSOR_MARKER, type EditWindow } from './window';

/** The tags the prompt puts around the window (see prompt.ts). */
export const WINDOW_OPEN = '<window>';
export const WINDOW_CLOSE = '</window>';

export interface AnswerOptions {
  /** Columns of a tab in the editor (to turn a model's spaces into the file's tabs). */
  tabSize?: number;
}

/**
 * The window as the model rewrote it, in the document's line ends, or undefined when the answer
 * holds no code. In order: line ends to `\n`; the part between the window tags, else inside the
 * first fence (any text before and after it dropped; see insideFence), else the answer less a
 * leading and a trailing chatter line (chatter.ts, shared with ghost text); the cursor marker out; blank lines at either
 * end replaced by the window's own; the file's indentation (tabs or spaces) and, when the
 * model dropped it, the window's indentation restored.
 */
export function parseAnswer(raw: string, window: EditWindow, options: AnswerOptions = {}): string | undefined {
  let text = raw.replace(/\r\n?/g, '\n');
  const original = window.text.replace(/\r\n/g, '\n').split('\n');
  text = insideTags(text) ?? insideFence(text, original) ?? stripTrailingChatter(stripChatter(text));
  text = text.split(CURSOR_MARKER).join('');
  let lines = text.split('\n');
  if (lines.every((l) => l.trim() === '') && original.some((l) => l.trim() !== '')) return undefined;
  lines = blankEndsOf(lines, original);
  lines = fitIndentStyle(lines, original, options.tabSize);
  lines = restoreDroppedIndent(lines, original);
  return lines.join(window.eol);
}

function insideTags(text: string): string | undefined {
  const open = text.indexOf(WINDOW_OPEN);
  if (open < 0) return undefined;
  const from = open + WINDOW_OPEN.length;
  const close = text.indexOf(WINDOW_CLOSE, from);
  const inner = text.slice(from, close < 0 ? undefined : close);
  return inner.replace(/^[^\S\n]*\n/, '');
}

/** A fence line: up to any indentation, a run of three or more backticks or tildes; its marker and the rest of the line. */
function fenceOf(line: string): { marker: string; length: number; rest: string } | undefined {
  let k = 0;
  while (k < line.length && (line[k] === ' ' || line[k] === '\t')) k++;
  const marker = line[k];
  if (marker !== '`' && marker !== '~') return undefined;
  let end = k;
  while (line[end] === marker) end++;
  return end - k >= 3 ? { marker, length: end - k, rest: line.slice(end) } : undefined;
}

/**
 * The inside of the answer's first fenced block (to the end when it is not closed), whatever the
 * text before it says ("Updated window:", an explanation): a window without fences cannot be
 * rewritten with one, so a fence is the model's framing. A window that holds fences (Markdown)
 * takes a fence as framing only after blank or chatter lines: a fence after code is the code's
 * own. The closing fence is a bare run of the opening marker, at least as long. One scan per line.
 */
function insideFence(text: string, window: readonly string[]): string | undefined {
  const lines = text.split('\n');
  const open = lines.findIndex((l) => fenceOf(l) !== undefined);
  const opening = open < 0 ? undefined : fenceOf(lines[open] ?? '');
  if (!opening) return undefined;
  if (window.some((l) => fenceOf(l) !== undefined) && lines.slice(0, open).some((l) => l.trim() !== '' && stripChatter(`${l}\n`) !== '')) return undefined;
  const close = lines.findIndex((l, k) => {
    if (k <= open) return false;
    const fence = fenceOf(l);
    return fence !== undefined && fence.marker === opening.marker && fence.length >= opening.length && fence.rest.trim() === '';
  });
  return lines.slice(open + 1, close < 0 ? undefined : close).join('\n');
}

/** How many blank lines `lines` starts with (all but the last, when every line is blank). */
function leadingBlanks(lines: readonly string[]): number {
  let n = 0;
  while (n < lines.length - 1 && (lines[n] ?? '').trim() === '') n++;
  return n;
}

/**
 * The answer's blank lines at either end are the model's framing, not an edit: they are replaced
 * by the window's own (so a window that ends with an empty line keeps it, whatever the model did).
 */
function blankEndsOf(lines: readonly string[], original: readonly string[]): string[] {
  const head = leadingBlanks(lines);
  const tail = leadingBlanks([...lines].reverse().slice(0, lines.length - head));
  const ownHead = leadingBlanks(original);
  const ownTail = leadingBlanks([...original].reverse().slice(0, original.length - ownHead));
  return [...original.slice(0, ownHead), ...lines.slice(head, lines.length - tail), ...original.slice(original.length - ownTail)];
}

function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? '';
}

/**
 * The window indents with tabs only (or spaces only) and the model used the other: the answer's
 * leading whitespace is converted (a tab is `tabSize` columns, by default the smallest space
 * indentation seen).
 */
function fitIndentStyle(lines: string[], original: readonly string[], tabSize: number | undefined): string[] {
  const indents = original.filter((l) => l.trim() !== '').map(indentOf).filter((i) => i !== '');
  const tabs = indents.length > 0 && indents.every((i) => /^\t+ ?$/.test(i));
  const spaces = indents.length > 0 && indents.every((i) => /^ +$/.test(i));
  if (!tabs && !spaces) return lines;
  const answerSpaces = lines.map(indentOf).filter((i) => /^ +$/.test(i)).map((i) => i.length);
  if (tabs) {
    const width = tabSize ?? Math.min(...answerSpaces, 8);
    if (answerSpaces.length === 0 || width < 1) return lines;
    return lines.map((l) => {
      const indent = indentOf(l);
      if (!/^ +$/.test(indent)) return l;
      return '\t'.repeat(Math.floor(indent.length / width)) + ' '.repeat(indent.length % width) + l.slice(indent.length);
    });
  }
  const width = tabSize ?? Math.min(...indents.map((i) => i.length));
  return lines.map((l) => {
    const indent = indentOf(l);
    return indent.includes('\t') ? indent.replace(/\t/g, ' '.repeat(width)) + l.slice(indent.length) : l;
  });
}

/** The model wrote the window at a shallower indentation than the window's first line: shift it back. */
function restoreDroppedIndent(lines: string[], original: readonly string[]): string[] {
  const first = original.find((l) => l.trim() !== '');
  const answered = lines.find((l) => l.trim() !== '');
  if (first === undefined || answered === undefined) return lines;
  const to = indentOf(first);
  const from = indentOf(answered);
  if (from.length >= to.length || !to.startsWith(from)) return lines;
  return lines.map((l) => (l.trim() !== '' && l.startsWith(from) ? to + l.slice(from.length) : l));
}
