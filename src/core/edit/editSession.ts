import { EditLineFilter } from './lineFilter';
import { StreamingLineDiff, type DiffStep, type Hunk } from './lineDiff';

/**
 * An edit by instruction as it is shown in the editor: the range's rows hold the original lines,
 * each hunk's removed lines (decorated as removed) followed by its added lines (decorated as
 * added), and the line the model is writing when it already differs. The session turns the
 * streamed text and the user's decisions into row edits (relative to the range's first line), a
 * few per streamed line whatever the range's size, and says which rows to decorate.
 */

export type RowEdit =
  | { readonly kind: 'insert'; readonly row: number; readonly lines: readonly string[] }
  | { readonly kind: 'delete'; readonly row: number; readonly count: number }
  | { readonly kind: 'replace'; readonly row: number; readonly text: string };

export type HunkDecision = 'pending' | 'accepted' | 'rejected';

export interface HunkView {
  readonly id: number;
  /** Row of the hunk's first shown line. */
  readonly row: number;
  readonly removed: number;
  readonly added: number;
  readonly addedLines: readonly string[];
  readonly closed: boolean;
  readonly decision: HunkDecision;
}

export interface RowSpan {
  readonly row: number;
  readonly count: number;
}

export interface Decorations {
  readonly removed: readonly RowSpan[];
  readonly added: readonly RowSpan[];
}

function leadingIndent(lines: readonly string[]): string {
  const first = lines.find((l) => l.trim() !== '');
  return first === undefined ? '' : (/^[ \t]*/.exec(first)?.[0] ?? '');
}

function trailingBlanks(lines: readonly string[]): number {
  let n = 0;
  for (let i = lines.length - 1; i >= 0 && lines[i]?.trim() === ''; i--) n++;
  return n;
}

export class EditSession {
  private readonly filter: EditLineFilter;
  private readonly diff: StreamingLineDiff;
  private readonly decisions = new Map<number, HunkDecision>();
  /** Rows shown minus original rows, summed over the closed hunks (the open hunk sits after them). */
  private delta = 0;
  /** The open hunk as laid out (the diff's may already be closed while its steps are applied). */
  private laidOpen: Hunk | undefined;
  /** The open hunk as laid out: its removed and added rows. */
  private openRemoved = 0;
  private openAdded = 0;
  /** Original lines consumed as laid out. */
  private laidCursor = 0;
  /** The row holding the line in progress, and its text; undefined when none is shown. */
  private pendingText: string | undefined;
  private ended = false;
  private cancelled = false;

  constructor(private readonly original: readonly string[]) {
    this.filter = new EditLineFilter(leadingIndent(original), trailingBlanks(original));
    this.diff = new StreamingLineDiff(original);
  }

  /** True until the stream ended or the session was cancelled. */
  get streaming(): boolean {
    return !this.ended && !this.cancelled;
  }

  /** Every hunk is decided and nothing more will come. */
  get done(): boolean {
    return !this.streaming && this.diff.hunks.every((h) => this.decision(h) !== 'pending');
  }

  /** Whether the rewrite changed anything at all (known once the stream ended). */
  get changed(): boolean {
    return this.diff.hunks.length > 0;
  }

  /** A streamed text delta: the row edits that show it. */
  push(delta: string): RowEdit[] {
    if (!this.streaming) return [];
    const edits: RowEdit[] = [];
    for (const line of this.filter.push(delta)) this.line(line, edits);
    this.showPartial(this.filter.partial(), edits);
    return edits;
  }

  /**
   * The stream ended: the last line, the unconsumed original lines removed. `truncated` (the answer
   * hit max_tokens): its unfinished last line is dropped and the original lines it did not reach stay.
   */
  end(options: { truncated?: boolean } = {}): RowEdit[] {
    if (!this.streaming) return [];
    const edits: RowEdit[] = [];
    const last = this.filter.end();
    if (options.truncated) last.pop();
    for (const line of last) this.line(line, edits);
    this.showPartial(undefined, edits);
    this.apply(this.diff.finish(options.truncated === true), edits);
    this.ended = true;
    return edits;
  }

  accept(id: number): RowEdit[] {
    const hunk = this.decidable(id);
    if (!hunk) return [];
    const row = this.rowOf(hunk);
    this.decisions.set(id, 'accepted');
    this.delta -= hunk.removed;
    return hunk.removed > 0 ? [{ kind: 'delete', row, count: hunk.removed }] : [];
  }

  reject(id: number): RowEdit[] {
    const hunk = this.decidable(id);
    if (!hunk) return [];
    const row = this.rowOf(hunk) + hunk.removed;
    this.decisions.set(id, 'rejected');
    this.delta -= hunk.added.length;
    return hunk.added.length > 0 ? [{ kind: 'delete', row, count: hunk.added.length }] : [];
  }

  /** Accepts every closed hunk still pending (the open one, while streaming, stays). */
  acceptAll(): RowEdit[] {
    return this.diff.hunks.flatMap((h) => this.accept(h.id));
  }

  /** Stops the session (if streaming) and puts every undecided row back to the original. */
  rejectAll(): RowEdit[] {
    const edits: RowEdit[] = [];
    if (this.streaming) {
      this.cancelled = true;
      this.showPartial(undefined, edits);
      const open = this.laidOpen;
      if (open && this.openAdded > 0) edits.push({ kind: 'delete', row: this.rowOf(open) + this.openRemoved, count: this.openAdded });
      if (open) this.decisions.set(open.id, 'rejected');
      this.openAdded = 0;
    }
    for (const h of this.diff.hunks) edits.push(...this.reject(h.id));
    return edits;
  }

  /** The range's text as the decisions so far make it (pending hunks count as rejected). */
  finalLines(): string[] {
    const out: string[] = [];
    let at = 0;
    for (const h of this.diff.hunks) {
      for (; at < h.originalStart; at++) out.push(this.original[at] ?? '');
      if (this.decision(h) === 'accepted') out.push(...h.added);
      else for (let k = 0; k < h.removed; k++) out.push(this.original[h.originalStart + k] ?? '');
      at = h.originalStart + h.removed;
    }
    for (; at < this.original.length; at++) out.push(this.original[at] ?? '');
    return out;
  }

  /** The hunks with their rows now (O(hunks)). */
  hunks(): HunkView[] {
    const views: HunkView[] = [];
    let delta = 0;
    for (const h of this.diff.hunks) {
      const decision = this.decision(h);
      const open = h === this.laidOpen;
      const removed = open ? this.openRemoved : h.removed;
      const added = open ? this.openAdded : h.added.length;
      views.push({ id: h.id, row: h.originalStart + delta, removed, added, addedLines: h.added, closed: h.closed, decision });
      delta += decision === 'accepted' ? added - removed : decision === 'rejected' ? 0 : added;
    }
    return views;
  }

  /** Which rows to decorate now: removed and added lines of undecided hunks, and the line in progress. */
  decorations(): Decorations {
    const removed: RowSpan[] = [];
    const added: RowSpan[] = [];
    for (const h of this.hunks()) {
      if (h.decision !== 'pending') continue;
      if (h.removed > 0) removed.push({ row: h.row, count: h.removed });
      if (h.added > 0) added.push({ row: h.row + h.removed, count: h.added });
    }
    const pending = this.pendingRow();
    if (pending !== undefined) added.push({ row: pending, count: 1 });
    return { removed, added };
  }

  /** Rows the range takes now. */
  rowCount(): number {
    const open = this.laidOpen;
    const openExtra = open && this.decision(open) === 'pending' ? this.openAdded : 0;
    return this.original.length + this.delta + openExtra + (this.pendingText !== undefined ? 1 : 0);
  }

  private decision(h: Hunk): HunkDecision {
    return this.decisions.get(h.id) ?? 'pending';
  }

  private decidable(id: number): Hunk | undefined {
    const hunk = this.diff.hunks[id];
    return hunk && hunk.closed && this.decision(hunk) === 'pending' ? hunk : undefined;
  }

  /** Row of a hunk's first line: its original index plus what the hunks before it shifted. */
  private rowOf(hunk: Hunk): number {
    let delta = 0;
    for (const h of this.diff.hunks) {
      if (h === hunk) break;
      const d = this.decision(h);
      delta += d === 'accepted' ? h.added.length - h.removed : d === 'rejected' ? 0 : h.added.length;
    }
    return hunk.originalStart + delta;
  }

  /** Where the line in progress is (or would be) shown. */
  private pendingRow(): number | undefined {
    if (this.pendingText === undefined) return undefined;
    return this.insertionRow();
  }

  /** The row after the open hunk's rows (or before the next unconsumed original line). */
  private insertionRow(): number {
    const open = this.laidOpen;
    if (open) return open.originalStart + this.delta + this.openRemoved + this.openAdded;
    return this.laidCursor + this.delta;
  }

  private line(line: string, edits: RowEdit[]): void {
    const steps = this.diff.push(line);
    if (this.pendingText !== undefined && !steps.some((s) => s.kind === 'insert')) this.showPartial(undefined, edits);
    this.apply(steps, edits);
  }

  private showPartial(text: string | undefined, edits: RowEdit[]): void {
    const show = text !== undefined && this.diff.diverges(text) ? text : undefined;
    if (show === this.pendingText) return;
    const row = this.insertionRow();
    if (show === undefined) edits.push({ kind: 'delete', row, count: 1 });
    else if (this.pendingText === undefined) edits.push({ kind: 'insert', row, lines: [show] });
    else edits.push({ kind: 'replace', row, text: show });
    this.pendingText = show;
  }

  private apply(steps: readonly DiffStep[], edits: RowEdit[]): void {
    for (const step of steps) {
      switch (step.kind) {
        case 'equal':
          this.laidCursor = step.original + 1;
          break;
        case 'remove': {
          this.laidOpen = step.hunk;
          const start = step.hunk.originalStart + this.delta;
          const between = this.openAdded + (this.pendingText !== undefined ? 1 : 0);
          if (between > 0) {
            // The removed originals sit after the added rows: move them before, so a hunk reads removed then added.
            edits.push({ kind: 'delete', row: start + this.openRemoved + between, count: step.count });
            edits.push({ kind: 'insert', row: start + this.openRemoved, lines: this.original.slice(step.from, step.from + step.count) });
          }
          this.openRemoved += step.count;
          this.laidCursor = step.from + step.count;
          break;
        }
        case 'insert': {
          this.laidOpen = step.hunk;
          const row = this.insertionRow();
          if (this.pendingText !== undefined) {
            if (this.pendingText !== step.text) edits.push({ kind: 'replace', row, text: step.text });
            this.pendingText = undefined;
          } else edits.push({ kind: 'insert', row, lines: [step.text] });
          this.openAdded++;
          break;
        }
        case 'close':
          this.delta += this.openAdded;
          this.laidOpen = undefined;
          this.openRemoved = 0;
          this.openAdded = 0;
          break;
      }
    }
  }
}
