/**
 * The user's recent edits, per document, for the next-edit prompt. Fed with the document's text
 * when it opens and with each change as VS Code reports it (offset, length replaced, new text,
 * applied in the order given); it keeps its own copy of each tracked document so it knows the
 * text a change removed. Time comes from an injected clock.
 *
 * - A change that touches the latest edit of its document (overlaps it, is adjacent to it, or
 *   lies on one of its lines) is merged into it: typing a word, or fixing it, is one edit. Except
 *   a replacement of text inside what that edit inserted, short of its end (a word selected and
 *   retyped in a block just typed: a rename): it is a new edit, else the model would see the
 *   block typed with the new name and never the rename.
 *   A suggestion accepted in the typing still merges: a replacement that extends the text it
 *   replaces (`ba` → `bar`), or that ends where the previous change ended (the word being typed,
 *   even with an auto-closed `)` after it, or a fuzzy match such as `gEBI` → `getElementById`).
 * - A change that overlaps an older edit forgets that one (its text is gone); edits after a
 *   change move with it. An edit that ends where it began (typed, then deleted) disappears.
 * - Bounded: at most `maxEdits` edits and `maxTotalChars` characters (the oldest go first), none
 *   older than `maxAgeMs`; an edit over `maxEditChars` (a large paste, a reformat) is not kept,
 *   and a document over `maxDocumentChars` is not tracked.
 * - `close()` forgets a document and its edits.
 */

/** One change as the editor reports it. */
export interface DocumentChange {
  offset: number;
  /** Characters replaced from `offset`. */
  length: number;
  text: string;
}

export interface RecordedEdit {
  documentId: string;
  /** Workspace-relative path (shown to the model). */
  path: string;
  /** Offset of the edit in the document's current text. */
  start: number;
  oldText: string;
  newText: string;
  /** When the last change merged into it happened (the clock's milliseconds). */
  at: number;
}

export interface HistoryLimits {
  maxEdits: number;
  maxEditChars: number;
  maxTotalChars: number;
  maxAgeMs: number;
  maxDocumentChars: number;
}

export const DEFAULT_HISTORY_LIMITS: HistoryLimits = { maxEdits: 12, maxEditChars: 2_000, maxTotalChars: 8_000, maxAgeMs: 10 * 60_000, maxDocumentChars: 2_000_000 };

interface Tracked {
  path: string;
  text: string;
  /** Where the latest change ended (the caret after typing), if any. */
  changeEnd?: number;
}

export class EditHistory {
  private readonly documents = new Map<string, Tracked>();
  /** Oldest first. */
  private list: RecordedEdit[] = [];
  private readonly limits: HistoryLimits;

  constructor(
    private readonly now: () => number,
    limits: Partial<HistoryLimits> = {},
  ) {
    this.limits = { ...DEFAULT_HISTORY_LIMITS, ...limits };
  }

  /** Starts tracking a document (opened, or seen for the first time) with its current text. */
  open(documentId: string, path: string, text: string): void {
    if (text.length > this.limits.maxDocumentChars) {
      this.close(documentId);
      return;
    }
    const known = this.documents.get(documentId);
    if (known && known.text !== text) this.list = this.list.filter((e) => e.documentId !== documentId);
    this.documents.set(documentId, { path, text });
  }

  /** Forgets a document and its edits (it was closed). */
  close(documentId: string): void {
    this.documents.delete(documentId);
    this.list = this.list.filter((e) => e.documentId !== documentId);
  }

  /** Whether `documentId` is tracked. */
  tracks(documentId: string): boolean {
    return this.documents.has(documentId);
  }

  /** The text of a tracked document as the changes made it. */
  text(documentId: string): string | undefined {
    return this.documents.get(documentId)?.text;
  }

  /** Records the changes of one editor event, in the order given. */
  change(documentId: string, changes: readonly DocumentChange[]): void {
    const doc = this.documents.get(documentId);
    if (!doc) return;
    for (const change of changes) this.apply(documentId, doc, change);
    if (doc.text.length > this.limits.maxDocumentChars) this.close(documentId);
    this.bound();
  }

  /** The edits kept, oldest first (of one document, or of all). */
  edits(documentId?: string): readonly RecordedEdit[] {
    this.expire();
    return documentId === undefined ? [...this.list] : this.list.filter((e) => e.documentId === documentId);
  }

  /** The user's latest edit in `documentId`. */
  lastEdit(documentId: string): RecordedEdit | undefined {
    return this.edits(documentId).at(-1);
  }

  private apply(documentId: string, doc: Tracked, change: DocumentChange): void {
    const before = doc.text;
    const offset = Math.max(0, Math.min(change.offset, before.length));
    const end = Math.max(offset, Math.min(offset + Math.max(0, change.length), before.length));
    const after = before.slice(0, offset) + change.text + before.slice(end);
    doc.text = after;
    const caret = doc.changeEnd;
    doc.changeEnd = offset + change.text.length;
    const delta = change.text.length - (end - offset);
    const latest = this.list.findLast((e) => e.documentId === documentId);
    let merged = false;
    const kept: RecordedEdit[] = [];
    for (const e of this.list) {
      if (e.documentId !== documentId) {
        kept.push(e);
        continue;
      }
      const regionEnd = e.start + e.newText.length;
      if (e === latest && touches(before, offset, end, e.start, regionEnd) && !renamesInside(offset, end, change.text, before, e.start, regionEnd, caret)) {
        const from = Math.min(e.start, offset);
        const to = Math.max(regionEnd, end);
        e.oldText = before.slice(from, e.start) + e.oldText + before.slice(regionEnd, to);
        e.newText = after.slice(from, to + delta);
        e.start = from;
        e.at = this.now();
        merged = true;
        continue; // appended last below: it is the most recent edit now
      }
      if (e.start >= end) {
        e.start += delta;
        kept.push(e);
      } else if (regionEnd <= offset) kept.push(e);
      // Otherwise the change rewrote part of that older edit: it is forgotten.
    }
    this.list = kept;
    if (merged && latest) {
      if (latest.oldText !== latest.newText && size(latest) <= this.limits.maxEditChars) this.list.push(latest);
      return;
    }
    const removed = before.slice(offset, end);
    const edit: RecordedEdit = { documentId, path: doc.path, start: offset, oldText: removed, newText: change.text, at: this.now() };
    if (removed !== change.text && size(edit) <= this.limits.maxEditChars) this.list.push(edit);
  }

  private expire(): void {
    const oldest = this.now() - this.limits.maxAgeMs;
    if (this.list.some((e) => e.at < oldest)) this.list = this.list.filter((e) => e.at >= oldest);
  }

  private bound(): void {
    this.expire();
    let total = this.list.reduce((sum, e) => sum + size(e), 0);
    while (this.list.length > this.limits.maxEdits || (total > this.limits.maxTotalChars && this.list.length > 0)) {
      const dropped = this.list.shift();
      total -= dropped ? size(dropped) : 0;
    }
  }
}

function size(edit: Pick<RecordedEdit, 'oldText' | 'newText'>): number {
  return edit.oldText.length + edit.newText.length;
}

/**
 * Whether the change renames text inside `[start, regionEnd)`: replaces (removes and inserts) text
 * ending before its end, and is no completion of the word being typed (it neither extends the
 * text it replaces nor ends at the caret the previous change left).
 */
function renamesInside(offset: number, end: number, text: string, before: string, start: number, regionEnd: number, caret: number | undefined): boolean {
  const replacesInside = end > offset && text !== '' && offset >= start && end < regionEnd;
  return replacesInside && !text.startsWith(before.slice(offset, end)) && end !== caret;
}

/** Whether the change `[offset, end)` overlaps or is adjacent to `[start, regionEnd)`, or shares one of its lines. */
function touches(text: string, offset: number, end: number, start: number, regionEnd: number): boolean {
  if (offset <= regionEnd && end >= start) return true;
  const gap = end < start ? text.slice(end, start) : text.slice(regionEnd, offset);
  return !gap.includes('\n');
}
