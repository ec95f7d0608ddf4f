import type { RecordedEdit } from './editHistory';

/** Lines shown per side of one edit, at most (a long edit is cut, with a note). */
export const MAX_HUNK_LINES = 8;

export interface RenderOptions {
  /** The current text of each document (the edits' offsets are in it). */
  textOf: (documentId: string) => string | undefined;
  /** Last gate on a document, by id (ignored or untrusted since the edit was recorded): false leaves it out. */
  includeDocument?: (documentId: string) => boolean;
  maxHunkLines?: number;
}

/**
 * The edits as small unified-diff hunks, oldest first: a `--- path` / `+++ path` header when the
 * document changes from the edit before (by id: two roots may hold the same relative path), then `@@ -line,count +line,count @@` and the whole lines the
 * edit touched, before (`-`) and after (`+`). Line numbers are 1-based, in the current text.
 */
export function renderEdits(edits: readonly RecordedEdit[], options: RenderOptions): string[] {
  const include = options.includeDocument ?? (() => true);
  const maxLines = options.maxHunkLines ?? MAX_HUNK_LINES;
  const hunks: string[] = [];
  let previousDocument: string | undefined;
  for (const edit of edits) {
    const text = options.textOf(edit.documentId);
    if (text === undefined || !include(edit.documentId)) continue;
    const body = hunk(edit, text, maxLines);
    if (body === undefined) continue;
    const header = edit.documentId === previousDocument ? '' : `--- ${edit.path}\n+++ ${edit.path}\n`;
    previousDocument = edit.documentId;
    hunks.push(header + body);
  }
  return hunks;
}

function hunk(edit: RecordedEdit, text: string, maxLines: number): string | undefined {
  const end = edit.start + edit.newText.length;
  const lineStart = text.lastIndexOf('\n', edit.start - 1) + 1;
  const next = text.indexOf('\n', end);
  const lineEnd = next < 0 ? text.length : next;
  const head = text.slice(lineStart, edit.start);
  const tail = text.slice(end, lineEnd);
  let oldLines = (head + edit.oldText + tail).split(/\r?\n/).map((l) => l.replace(/\r$/, ''));
  let newLines = (head + edit.newText + tail).split(/\r?\n/).map((l) => l.replace(/\r$/, ''));
  let line = text.slice(0, lineStart).split('\n').length;
  // Whole lines equal on both sides (an edit that added or removed lines) are context, not change.
  while (oldLines.length > 0 && newLines.length > 0 && oldLines[0] === newLines[0] && (oldLines.length > 1 || newLines.length > 1)) {
    oldLines = oldLines.slice(1);
    newLines = newLines.slice(1);
    line += 1;
  }
  while (oldLines.length > 0 && newLines.length > 0 && oldLines.at(-1) === newLines.at(-1) && (oldLines.length > 1 || newLines.length > 1)) {
    oldLines = oldLines.slice(0, -1);
    newLines = newLines.slice(0, -1);
  }
  if (oldLines.length === 1 && newLines.length === 1 && oldLines[0] === newLines[0]) return undefined;
  const side = (sign: string, lines: readonly string[]): string => {
    const shown = lines.slice(0, maxLines).map((l) => `${sign}${l}\n`).join('');
    return lines.length > maxLines ? `${shown}${sign}… (${lines.length - maxLines} more lines)\n` : shown;
  };
  return `@@ -${line},${oldLines.length} +${line},${newLines.length} @@\n${side('-', oldLines)}${side('+', newLines)}`;
}
