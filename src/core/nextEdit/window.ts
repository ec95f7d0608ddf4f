import { CURSOR_MARKER } from '../inlineCompletion/prompt';
import { dominantEol, lineStarts } from './text';

/** Where the model may rewrite: whole lines around the cursor. */
export interface EditWindow {
  /** Offset in the document of the window's first character (a line start). */
  start: number;
  /** Offset of the window's end: the end of its last line, before that line's line end. */
  end: number;
  /** 0-based lines: the first one, and the one after the last. */
  startLine: number;
  endLine: number;
  /** The document text of the window, as is (its own line ends). */
  text: string;
  /** The cursor's offset inside `text`. */
  cursor: number;
  /** The document's line end, used for the model's answer. */
  eol: '\n' | '\r\n';
}

export interface WindowLimits {
  /** Lines kept above and below the cursor line, at most. */
  linesAbove: number;
  linesBelow: number;
  /** Characters the window may hold, at most (lines farthest from the cursor go first). */
  maxChars: number;
}

/** A small rewrite is fast: about a screenful around the cursor. */
export const DEFAULT_WINDOW: WindowLimits = { linesAbove: 8, linesBelow: 12, maxChars: 3_000 };

/** The cursor in the window shown to the model: the ghost-text prompt's marker, one convention. */
export { CURSOR_MARKER };

/**
 * The window of `text` around `cursor` (an offset): the cursor line, and up to `linesAbove` lines
 * above and `linesBelow` below, clamped at the start and end of the file; while it holds more than
 * `maxChars`, the line farthest from the cursor is left out (above first at equal distance: the
 * edit the user needs is more often under the cursor). Undefined when the cursor line alone is
 * over the limit (a minified file: no suggestion).
 */
export function editWindow(text: string, cursor: number, limits: WindowLimits = DEFAULT_WINDOW): EditWindow | undefined {
  const starts = lineStarts(text);
  const at = Math.max(0, Math.min(cursor, text.length));
  let cursorLine = 0;
  while (cursorLine + 1 < starts.length && (starts[cursorLine + 1] ?? Infinity) <= at) cursorLine++;
  const lineEnd = (line: number): number => {
    const next = starts[line + 1];
    if (next === undefined) return text.length;
    return text[next - 2] === '\r' ? next - 2 : next - 1;
  };
  let first = Math.max(0, cursorLine - Math.max(0, limits.linesAbove));
  let last = Math.min(starts.length - 1, cursorLine + Math.max(0, limits.linesBelow));
  const size = (): number => lineEnd(last) - (starts[first] ?? 0);
  while (size() > limits.maxChars && (first < cursorLine || last > cursorLine)) {
    if (last - cursorLine > cursorLine - first) last--;
    else first++;
  }
  if (size() > limits.maxChars) return undefined;
  const start = starts[first] ?? 0;
  const end = lineEnd(last);
  return { start, end, startLine: first, endLine: last + 1, text: text.slice(start, end), cursor: at - start, eol: dominantEol(text) };
}

/** The window's text with the cursor marker, line ends as `\n` (what the model reads). */
export function markedWindow(window: EditWindow): string {
  const text = window.text.slice(0, window.cursor) + CURSOR_MARKER + window.text.slice(window.cursor);
  return text.replace(/\r\n/g, '\n');
}

/** Up to `count` lines of `text` just above and just below the window (line ends as `\n`), nearest last above, nearest first below. */
export function linesAround(text: string, window: EditWindow, count: number): { above: string[]; below: string[] } {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  return { above: lines.slice(Math.max(0, window.startLine - count), window.startLine), below: lines.slice(window.endLine, window.endLine + count) };
}
