/**
 * Whole lines of a document that follow its edits (the range an edit by instruction, a quick fix
 * or a review works on): a change above moves them, a change below leaves them, a change that
 * touches their text makes them stale. Pure arithmetic over VS Code's change events (positions in
 * lines and UTF-16 columns, the new text with any line breaks: `\n`, `\r\n` or `\r`).
 */

export interface TextPosition {
  readonly line: number;
  readonly character: number;
}

/** One content change: the replaced range (in the document before it) and its new text. */
export interface TextChange {
  readonly start: TextPosition;
  readonly end: TextPosition;
  readonly text: string;
}

/** `lineCount` whole lines from `firstLine` (0: an empty place before `firstLine`). */
export interface LineSpan {
  readonly firstLine: number;
  readonly lineCount: number;
}

/** Line breaks in `text` (a `\r\n` is one). */
export function lineBreaks(text: string): number {
  return text.match(/\r\n|\r|\n/g)?.length ?? 0;
}

/**
 * Where the lines are after `change`, or `'stale'` when it touched their text. An `own` change (the
 * caller's own edit of these lines: an edit's rows growing and shrinking) resizes them, also when it
 * starts at the end of the line just above (rows added after a document's last line).
 */
export function moveLines(span: LineSpan, change: TextChange, options: { own?: boolean } = {}): LineSpan | 'stale' {
  const delta = lineBreaks(change.text) - (change.end.line - change.start.line);
  const above = options.own ? change.end.line < span.firstLine - 1 : endsAbove(change, span.firstLine);
  if (above) return { firstLine: span.firstLine + delta, lineCount: span.lineCount };
  const after = span.firstLine + span.lineCount;
  if ((span.lineCount > 0 || options.own) && change.start.line >= after + (options.own ? 1 : 0)) return span;
  if (options.own) return { firstLine: span.firstLine, lineCount: Math.max(0, span.lineCount + delta) };
  return 'stale';
}

/**
 * The change leaves line `line` and all after it as they were: it ends on an earlier line, or at
 * the very start of `line` with a line break last (an insertion above) or, removing whole lines
 * only, from the start of a line.
 */
function endsAbove(change: TextChange, line: number): boolean {
  if (change.end.line < line) return true;
  if (change.end.line > line || change.end.character > 0) return false;
  if (/(\r\n|\r|\n)$/.test(change.text)) return true;
  return change.text === '' && change.start.character === 0 && change.start.line < line;
}

/** The lines after every change in order (VS Code's `contentChanges` apply one after the other), or `'stale'`. */
export function moveLinesThrough(span: LineSpan, changes: readonly TextChange[], options: { own?: boolean } = {}): LineSpan | 'stale' {
  let current: LineSpan | 'stale' = span;
  for (const change of changes) {
    if (current === 'stale') return current;
    current = moveLines(current, change, options);
  }
  return current;
}

/** One change event of a document: its version before and after, and its changes in order. */
export interface VersionedChanges {
  readonly from: number;
  readonly to: number;
  readonly changes: readonly TextChange[];
}

/**
 * Lines chosen in `version` of a document (a quick fix offered on it), where they are in
 * `currentVersion`: moved through the journal's events since (oldest first). `'stale'` when a
 * change touched them, or when the journal does not hold every event from `version` on.
 */
export function moveLinesSince(span: LineSpan, version: number, currentVersion: number, journal: readonly VersionedChanges[]): LineSpan | 'stale' {
  if (version === currentVersion) return span;
  let at = version;
  let current: LineSpan | 'stale' = span;
  for (const entry of journal.slice(journal.findIndex((e) => e.from === version))) {
    if (entry.from !== at || current === 'stale') return 'stale';
    current = moveLinesThrough(current, entry.changes);
    at = entry.to;
  }
  return at === currentVersion ? current : 'stale';
}
