import { diffText } from './diff';
import { positionAt, type LinePosition, type OffsetEdit } from './text';
import type { EditWindow } from './window';

/** One replacement of a suggestion, in the document it was computed for. */
export interface SuggestedEdit {
  /** Offsets in the document's text. */
  start: number;
  end: number;
  /** The same range as VS Code positions. */
  range: { start: LinePosition; end: LinePosition };
  /** The text the range holds now, and its replacement. */
  oldText: string;
  newText: string;
}

/**
 * A next edit to show: its replacements (in document order, within the window), the document
 * version they apply to, and where it is relative to the cursor. `atCursor` with `ghostText`: one
 * pure insertion at the cursor, which the editor can show as ghost text; `elsewhere`: shown as a
 * diff, Tab jumps to `jumpTo` and Tab again accepts.
 */
export interface NextEditSuggestion {
  documentId: string;
  version: number;
  window: Pick<EditWindow, 'start' | 'end' | 'startLine' | 'endLine' | 'text'>;
  edits: readonly SuggestedEdit[];
  location: 'atCursor' | 'elsewhere';
  /** The first replacement's start: where the cursor jumps. */
  jumpTo: LinePosition;
  ghostText?: string;
}

/** The document as the adapter saw it when the suggestion was asked for. */
export interface NextEditDocument {
  id: string;
  version: number;
  languageId: string;
  /** Workspace-relative path (shown to the model). */
  relativePath: string;
  text: string;
  /** Cursor offset in `text`. */
  cursor: number;
}

/** The edits (document offsets) that turn the window's text into `rewritten`. */
export function windowEdits(window: EditWindow, rewritten: string): OffsetEdit[] {
  return diffText(window.text, rewritten).map((e) => ({ start: window.start + e.start, end: window.start + e.end, newText: e.newText }));
}

/** The suggestion for `edits` (document offsets, non-overlapping) in `doc`. */
export function toSuggestion(doc: NextEditDocument, window: EditWindow, edits: readonly OffsetEdit[]): NextEditSuggestion {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  const suggested = sorted.map((e) => ({
    start: e.start,
    end: e.end,
    range: { start: positionAt(doc.text, e.start), end: positionAt(doc.text, e.end) },
    oldText: doc.text.slice(e.start, e.end),
    newText: e.newText,
  }));
  const [first] = suggested;
  const ghost = suggested.length === 1 && first !== undefined && first.start === first.end && first.start === doc.cursor ? first.newText : undefined;
  return {
    documentId: doc.id,
    version: doc.version,
    window: { start: window.start, end: window.end, startLine: window.startLine, endLine: window.endLine, text: window.text },
    edits: suggested,
    location: ghost !== undefined ? 'atCursor' : 'elsewhere',
    jumpTo: first?.range.start ?? positionAt(doc.text, doc.cursor),
    ...(ghost !== undefined ? { ghostText: ghost } : {}),
  };
}
