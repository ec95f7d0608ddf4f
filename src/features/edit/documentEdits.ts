import * as vscode from 'vscode';
import type { RowEdit } from '../../core/edit';

/**
 * The range and text of one row edit in a document whose edited region starts at `firstLine`.
 * Rows past the document's last line are reached from the end of that line (a document's last
 * line has no line break to insert before).
 */
export function toTextEdit(document: vscode.TextDocument, firstLine: number, edit: RowEdit): vscode.TextEdit {
  const line = firstLine + edit.row;
  const last = document.lineCount - 1;
  const endOf = (l: number): vscode.Position => document.lineAt(l).range.end;
  switch (edit.kind) {
    case 'insert': {
      const text = edit.lines.join('\n');
      if (line <= last) return vscode.TextEdit.insert(new vscode.Position(line, 0), `${text}\n`);
      return vscode.TextEdit.insert(endOf(last), `\n${text}`);
    }
    case 'delete': {
      const end = line + edit.count;
      if (end <= last) return vscode.TextEdit.delete(new vscode.Range(line, 0, end, 0));
      if (line > 0) return vscode.TextEdit.delete(new vscode.Range(endOf(line - 1), endOf(last)));
      return vscode.TextEdit.delete(new vscode.Range(new vscode.Position(0, 0), endOf(last)));
    }
    case 'replace':
      return vscode.TextEdit.replace(document.lineAt(line).range, edit.text);
  }
}

/** Drops replaces of a row that another replace of the same row overwrites right after (a fast stream, a slow editor). */
export function coalesce(edits: readonly RowEdit[]): RowEdit[] {
  const out: RowEdit[] = [];
  for (const edit of edits) {
    const previous = out[out.length - 1];
    if (edit.kind === 'replace' && previous?.kind === 'replace' && previous.row === edit.row) out[out.length - 1] = edit;
    else out.push(edit);
  }
  return out;
}

/** The text of `lineCount` lines from `firstLine`, as lines. */
export function linesOf(document: vscode.TextDocument, firstLine: number, lineCount: number): string[] {
  const out: string[] = [];
  for (let l = firstLine; l < firstLine + lineCount && l < document.lineCount; l++) out.push(document.lineAt(l).text);
  return out;
}

/** The range covering `lineCount` whole lines from `firstLine` (without the last line's break). */
export function rowsRange(document: vscode.TextDocument, firstLine: number, lineCount: number): vscode.Range {
  if (lineCount <= 0) return new vscode.Range(firstLine, 0, firstLine, 0);
  const last = Math.min(document.lineCount - 1, firstLine + lineCount - 1);
  return new vscode.Range(new vscode.Position(firstLine, 0), document.lineAt(last).range.end);
}

/** One edit that turns the `currentCount` rows from `firstLine` into `lines`; undefined when there is nothing to do. */
export function replaceRows(document: vscode.TextDocument, firstLine: number, currentCount: number, lines: readonly string[]): vscode.TextEdit | undefined {
  if (currentCount > 0 && lines.length > 0) return vscode.TextEdit.replace(rowsRange(document, firstLine, currentCount), lines.join('\n'));
  if (lines.length > 0) return toTextEdit(document, firstLine, { kind: 'insert', row: 0, lines });
  if (currentCount > 0) return toTextEdit(document, firstLine, { kind: 'delete', row: 0, count: currentCount });
  return undefined;
}
