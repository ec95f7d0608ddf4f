/**
 * A line diff computed while the rewrite streams in, one line at a time, against the original
 * lines of the range. Each new line costs O(its length + log n): an index of the original lines
 * says where a line occurs again, and the cursor into the original only moves forward. A hunk,
 * once closed (an unchanged line followed it), never changes again; the open hunk only grows. So
 * what is on screen is stable while the answer arrives.
 *
 * Rules for a new line L, with C the first original line not yet consumed:
 * - L equals O[C]: unchanged; the open hunk (if any) is closed.
 * - L occurs further on at O[J] (any distance for a distinctive line, at most NEAR lines for a
 *   short one such as `}` or a blank): O[C..J) are removed, L is unchanged there, the hunk closes.
 * - otherwise L is added; when it looks like an edit of O[C] (similar text), O[C] is removed with
 *   it, so a rewritten line shows as one removed and one added line rather than drifting apart.
 * At the end, the original lines not consumed are removed.
 */

export interface Hunk {
  readonly id: number;
  /** Index in the original range of the first line this hunk replaces (or inserts before). */
  readonly originalStart: number;
  /** How many original lines, from originalStart, this hunk removes. */
  removed: number;
  /** The lines it adds in their place. */
  readonly added: string[];
  /** True once an unchanged line (or the end) followed it: it will not change again. */
  closed: boolean;
}

export type DiffStep =
  | { readonly kind: 'equal'; readonly original: number }
  | { readonly kind: 'remove'; readonly hunk: Hunk; readonly from: number; readonly count: number }
  | { readonly kind: 'insert'; readonly hunk: Hunk; readonly text: string }
  | { readonly kind: 'close'; readonly hunk: Hunk };

/** How far ahead a short, common line may match. */
const NEAR = 2;

function distinctive(line: string): boolean {
  return /[A-Za-z0-9_]/.test(line) && line.trim().length >= 4;
}

/** Whether `a` reads as an edit of `b`: same after indentation, or most of it a shared prefix and suffix. */
export function similar(a: string, b: string): boolean {
  const x = a.trim();
  const y = b.trim();
  if (x === y) return true;
  if (x.length === 0 || y.length === 0) return false;
  const max = Math.max(x.length, y.length);
  let prefix = 0;
  while (prefix < x.length && prefix < y.length && x.charCodeAt(prefix) === y.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (suffix < x.length - prefix && suffix < y.length - prefix && x.charCodeAt(x.length - 1 - suffix) === y.charCodeAt(y.length - 1 - suffix)) suffix++;
  return (prefix + suffix) / max >= 0.5;
}

export class StreamingLineDiff {
  private readonly where = new Map<string, number[]>();
  /** Per line text, how far into its occurrence list the cursor has moved (monotonic). */
  private readonly seen = new Map<string, number>();
  private readonly list: Hunk[] = [];
  private open: Hunk | undefined;
  private consumed = 0;
  private finished = false;

  constructor(private readonly original: readonly string[]) {
    for (const [index, line] of original.entries()) {
      const at = this.where.get(line);
      if (at) at.push(index);
      else this.where.set(line, [index]);
    }
  }

  /** Hunks in order, the open one last. */
  get hunks(): readonly Hunk[] {
    return this.list;
  }

  /** The first original line not consumed yet. */
  get cursor(): number {
    return this.consumed;
  }

  get openHunk(): Hunk | undefined {
    return this.open;
  }

  /**
   * Whether a line in progress already differs from the original line it would replace: its
   * text so far is not a prefix of O[cursor]. Such a line is a change whatever its end.
   */
  diverges(partial: string): boolean {
    const next = this.original[this.consumed];
    return next === undefined || !next.startsWith(partial);
  }

  /** A complete line of the rewrite. */
  push(line: string): DiffStep[] {
    if (this.finished) throw new Error('StreamingLineDiff: push after finish');
    const steps: DiffStep[] = [];
    if (this.original[this.consumed] === line) {
      steps.push({ kind: 'equal', original: this.consumed });
      this.consumed++;
      this.close(steps);
      return steps;
    }
    const ahead = this.nextOccurrence(line);
    if (ahead !== undefined && (distinctive(line) || ahead - this.consumed <= NEAR)) {
      this.remove(ahead - this.consumed, steps);
      steps.push({ kind: 'equal', original: ahead });
      this.consumed = ahead + 1;
      this.close(steps);
      return steps;
    }
    const next = this.original[this.consumed];
    if (next !== undefined && similar(line, next)) this.remove(1, steps);
    const hunk = this.hunk();
    hunk.added.push(line);
    steps.push({ kind: 'insert', hunk, text: line });
    return steps;
  }

  /**
   * The rewrite ended: the original lines not consumed are removed (unless `keepRest`: the answer
   * was cut short, so what it did not reach stays), and the last hunk closes.
   */
  finish(keepRest = false): DiffStep[] {
    if (this.finished) return [];
    this.finished = true;
    const steps: DiffStep[] = [];
    if (!keepRest) this.remove(this.original.length - this.consumed, steps);
    this.close(steps);
    return steps;
  }

  private hunk(): Hunk {
    if (!this.open) {
      this.open = { id: this.list.length, originalStart: this.consumed, removed: 0, added: [], closed: false };
      this.list.push(this.open);
    }
    return this.open;
  }

  private remove(count: number, steps: DiffStep[]): void {
    if (count <= 0) return;
    const hunk = this.hunk();
    const from = this.consumed;
    hunk.removed += count;
    this.consumed += count;
    steps.push({ kind: 'remove', hunk, from, count });
  }

  private close(steps: DiffStep[]): void {
    if (!this.open) return;
    this.open.closed = true;
    steps.push({ kind: 'close', hunk: this.open });
    this.open = undefined;
  }

  /** First index >= cursor where `line` occurs in the original; amortised O(1) as the cursor only grows. */
  private nextOccurrence(line: string): number | undefined {
    const at = this.where.get(line);
    if (!at) return undefined;
    let k = this.seen.get(line) ?? 0;
    while (k < at.length && (at[k] ?? 0) < this.consumed) k++;
    this.seen.set(line, k);
    return at[k];
  }
}
