import type { RowEdit, RowSpan } from '../../../src/core/edit';

/** Applies row edits to a list of lines, as the editor applies them to the document's range. */
export function applyRowEdits(rows: string[], edits: readonly RowEdit[]): void {
  for (const e of edits) {
    switch (e.kind) {
      case 'insert':
        if (e.row < 0 || e.row > rows.length) throw new Error(`insert at row ${e.row} outside 0..${rows.length}`);
        rows.splice(e.row, 0, ...e.lines);
        break;
      case 'delete':
        if (e.row < 0 || e.row + e.count > rows.length) throw new Error(`delete ${e.count} at row ${e.row} outside 0..${rows.length}`);
        rows.splice(e.row, e.count);
        break;
      case 'replace':
        if (e.row < 0 || e.row >= rows.length) throw new Error(`replace at row ${e.row} outside 0..${rows.length - 1}`);
        rows[e.row] = e.text;
        break;
    }
  }
}

/** The rows outside the spans (e.g. the document without the added lines: the original). */
export function without(rows: readonly string[], spans: readonly RowSpan[]): string[] {
  const skip = new Set<number>();
  for (const s of spans) for (let k = 0; k < s.count; k++) skip.add(s.row + k);
  return rows.filter((_, i) => !skip.has(i));
}

/** Cuts a text into deltas of token size (words, spaces, newlines, symbols), like a model's stream. */
export function tokens(text: string): string[] {
  return text.match(/\n|[^\S\n]+|[A-Za-z0-9_]+|[^A-Za-z0-9_\s]/g) ?? [];
}
