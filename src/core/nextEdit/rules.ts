import type { RecordedEdit } from './editHistory';
import type { NextEditSuggestion } from './suggestion';
import { applyEdits, distinctive, positionAt } from './text';

/**
 * Why a suggestion is not shown:
 * - `noOp`: it changes nothing;
 * - `undoesLastEdit`: it puts back what the user just changed (the model "fixes" the user);
 * - `outsideWindow`: it touches text outside the window, or the model rewrote lines from around
 *   the window into it (the answer would duplicate them);
 * - `stale`: the document changed under the window since the request.
 */
export type RejectReason = 'noOp' | 'undoesLastEdit' | 'outsideWindow' | 'stale';

/** The first rule the suggestion breaks, in `doc` (its text when asked), or undefined to show it. */
export function rejection(suggestion: NextEditSuggestion, docText: string, lastEdit: RecordedEdit | undefined): RejectReason | undefined {
  if (suggestion.edits.length === 0 || suggestion.edits.every((e) => e.oldText === e.newText)) return 'noOp';
  const { start, end } = suggestion.window;
  if (suggestion.edits.some((e) => e.start < start || e.end > end || e.start > e.end)) return 'outsideWindow';
  if (lastEdit && lastEdit.documentId === suggestion.documentId && undoes(suggestion, docText, lastEdit)) return 'undoesLastEdit';
  return undefined;
}

/**
 * Whether applying the suggestion reverts the user's last edit, alone or among other changes: the
 * replacements that touch the edited text, applied to it, put back the text it replaced (and,
 * when the user only added to it, no longer hold what they added).
 */
export function undoes(suggestion: NextEditSuggestion, docText: string, last: RecordedEdit): boolean {
  const start = last.start;
  const end = last.start + last.newText.length;
  if (docText.slice(start, end) !== last.newText) return false;
  const touching = suggestion.edits.filter((e) => e.start <= end && e.end >= start);
  if (touching.length === 0) return false;
  const from = Math.min(start, ...touching.map((e) => e.start));
  const to = Math.max(end, ...touching.map((e) => e.end));
  const local = applyEdits(docText.slice(from, to), touching.map((e) => ({ start: e.start - from, end: e.end - from, newText: e.newText })));
  const before = docText.slice(from, start);
  if (!local.startsWith(before + last.oldText)) return false;
  return !last.newText.startsWith(last.oldText) || !local.startsWith(before + last.newText);
}

/**
 * Whether the rewritten window starts with lines copied from just above the window, or ends with
 * lines copied from just below it (any number of the lines given, which are those the prompt
 * showed), that the window itself does not start (end) with: the model rewrote outside its window.
 * Only a block holding a distinctive line counts (a `}` repeats).
 */
export function copiesOutside(rewritten: string, windowText: string, linesAbove: readonly string[], linesBelow: readonly string[]): boolean {
  const answer = rewritten.replace(/\r\n/g, '\n').split('\n');
  const window = windowText.replace(/\r\n/g, '\n').split('\n');
  const same = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((l, k) => l === b[k]);
  for (let k = 1; k <= Math.min(answer.length, Math.max(linesAbove.length, linesBelow.length)); k++) {
    const above = linesAbove.slice(-k);
    if (above.length === k && above.some(distinctive) && same(answer.slice(0, k), above) && !same(window.slice(0, k), above)) return true;
    const below = linesBelow.slice(0, k);
    if (below.length === k && below.some(distinctive) && same(answer.slice(-k), below) && !same(window.slice(-k), below)) return true;
  }
  return false;
}

/** Below this many words a window is too small to judge an answer by its words. */
export const MIN_WORDS_JUDGED = 8;
/** An answer must keep at least this share of the window's words to be a rewrite of it. */
export const MIN_WORDS_KEPT = 0.5;

/**
 * Whether the answer is no rewrite of the window at all (a refusal, an explanation, code for
 * something else): it keeps less than MIN_WORDS_KEPT of the window's words. A rename on every
 * line keeps most words, so it passes.
 */
export function unrelatedAnswer(rewritten: string, windowText: string): boolean {
  const words = windowText.match(/[A-Za-z_$][\w$]*/g) ?? [];
  if (words.length < MIN_WORDS_JUDGED) return false;
  const left = new Map<string, number>();
  for (const w of rewritten.match(/[A-Za-z_$][\w$]*/g) ?? []) left.set(w, (left.get(w) ?? 0) + 1);
  let kept = 0;
  for (const w of words) {
    const n = left.get(w) ?? 0;
    if (n > 0) {
      kept++;
      left.set(w, n - 1);
    }
  }
  return kept / words.length < MIN_WORDS_KEPT;
}

/** The document now, as the adapter reads it. */
export interface DocumentState {
  version: number;
  text: string;
}

/**
 * Whether the suggestion no longer applies: the document is gone, or it changed and the window's
 * text (or its place: its offset and first line) is not what the suggestion was computed against.
 */
export function isStale(suggestion: NextEditSuggestion, now: DocumentState | undefined): boolean {
  if (!now) return true;
  if (now.version === suggestion.version) return false;
  const { start, end, text, startLine } = suggestion.window;
  if (now.text.slice(start, end) !== text) return true;
  return positionAt(now.text, start).line !== startLine;
}
