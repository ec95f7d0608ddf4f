import type { GitRunner } from '../commitMessage/gitProcess';

/*
 * Where a reviewed line is now. A staged review read the index; the editor shows the working tree
 * (unstaged edits) and perhaps unsaved edits on top. The line is mapped through the
 * index-to-working-tree diff (exact); in a document with unsaved edits it is found by its text and
 * the reviewed lines around it (a window), and a line whose window does not tell it apart from
 * another is ambiguous: listed, never guessed.
 */

/** One hunk of a `-U0` diff: `count` old lines from `start` replaced by `newCount` lines. */
export interface LineShift {
  readonly start: number;
  readonly count: number;
  readonly newCount: number;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/** The hunks of one file's `git diff -U0`, in order (every other line ignored). */
export function parseLineShifts(diff: string): LineShift[] {
  const shifts: LineShift[] = [];
  for (const line of diff.split('\n')) {
    if (!line.startsWith('@@ ')) continue;
    const match = HUNK.exec(line);
    if (!match) continue;
    shifts.push({ start: Number(match[1]), count: match[2] === undefined ? 1 : Number(match[2]), newCount: match[3] === undefined ? 1 : Number(match[3]) });
  }
  return shifts;
}

/** The 1-based line `line` of the old side on the new side; undefined when the diff removed or changed it. */
export function mapLine(shifts: readonly LineShift[], line: number): number | undefined {
  let offset = 0;
  for (const { start, count, newCount } of shifts) {
    // `-s,0` inserts after line s; `-s,c` replaces lines s..s+c-1.
    const after = count === 0 ? start + 1 : start + count;
    if (line >= after) {
      offset += newCount - count;
      continue;
    }
    if (count > 0 && line >= start) return undefined;
    break;
  }
  return line + offset;
}

/** The most diff text read to map one file's lines: a larger change is not mapped (found by its window instead). */
const MAX_SHIFT_BYTES = 4 * 1024 * 1024;

/**
 * The hunks between the index and the working tree of `path` (`git diff -U0`, the user's diff
 * settings overridden); undefined when git fails or the diff is too large to read whole.
 */
export async function readWorkingTreeShifts(git: GitRunner, path: string, signal?: AbortSignal): Promise<LineShift[] | undefined> {
  try {
    const output = await git(['diff', '--no-color', '--no-ext-diff', '--no-renames', '-U0', '--src-prefix=a/', '--dst-prefix=b/', '--', path], MAX_SHIFT_BYTES, signal);
    return output.truncated ? undefined : parseLineShifts(output.stdout.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** A reviewed line as the review saw it: its text, and the reviewed lines around it (offset, text). */
export interface LineWitness {
  readonly text: string;
  readonly window: ReadonlyArray<readonly [number, string]>;
}

/** Lines either side of a line kept to tell it from another line with the same text. */
export const WITNESS_REACH = 4;

/** The witness of line `line` in `textAt` (a line's text or undefined when unknown), within WITNESS_REACH. */
export function witnessOf(textAt: (line: number) => string | undefined, line: number): LineWitness | undefined {
  const text = textAt(line);
  if (text === undefined) return undefined;
  const window: Array<readonly [number, string]> = [];
  for (let d = -WITNESS_REACH; d <= WITNESS_REACH; d++) {
    const around = d === 0 ? undefined : textAt(line + d);
    if (around !== undefined) window.push([d, around]);
  }
  return { text, window };
}

export type Located = { readonly line: number } | { readonly reason: 'moved' | 'ambiguous' };

/** The document a line is looked for in: 0-based lines. */
export interface LineSource {
  readonly lineCount: number;
  lineAt(line: number): string;
}

/**
 * Where the witnessed line is in `doc` (0-based). With `exact` (the document is the text the line
 * was mapped into), `expected` is the answer when it reads as witnessed, else the line is `moved`.
 * Otherwise every line that reads as witnessed is a candidate, scored by how many of the window's
 * lines read the same at the same distance: the one best candidate wins; a tie is `ambiguous`;
 * no candidate is `moved`.
 */
export function locateLine(doc: LineSource, witness: LineWitness, expected: number | undefined, exact: boolean): Located {
  const reads = (i: number): boolean => i >= 0 && i < doc.lineCount && doc.lineAt(i) === witness.text;
  if (exact) return expected !== undefined && reads(expected) ? { line: expected } : { reason: 'moved' };
  let best = -1;
  let found: number[] = [];
  for (let i = 0; i < doc.lineCount; i++) {
    if (!reads(i)) continue;
    let score = 0;
    for (const [d, text] of witness.window) if (i + d >= 0 && i + d < doc.lineCount && doc.lineAt(i + d) === text) score++;
    if (score > best) {
      best = score;
      found = [i];
    } else if (score === best) found.push(i);
  }
  if (found.length === 0) return { reason: 'moved' };
  return found.length === 1 ? { line: found[0] as number } : { reason: 'ambiguous' };
}
