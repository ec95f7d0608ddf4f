import { readFileDiff } from '../commitMessage/boundedDiff';
import type { FileDiff } from '../commitMessage/diff';
import type { GitRunner } from '../commitMessage/gitProcess';
import { sortChanges, type ChangeSource } from '../commitMessage/prompt';

/** Unchanged lines read around each change: enough for the model to see the enclosing code. */
export const REVIEW_CONTEXT_LINES = 10;
/** The size cap: a file whose diff is longer than this is not reviewed (named in the summary). */
export const MAX_FILE_DIFF_CHARS = 256 * 1024;
/** The most diff one review reads in all; files past it are named, not reviewed. */
export const MAX_REVIEW_CHARS = 2 * 1024 * 1024;

/** What a review reads of the changes, and what it leaves out (as the commit message does). */
export interface ReviewChanges {
  readonly source: ChangeSource;
  /** The files reviewed, with their hunks (read with REVIEW_CONTEXT_LINES of context). */
  readonly files: FileDiff[];
  /** How many changed files a `.gitignore` matches (never read, never named to the model). */
  readonly ignored: number;
  readonly binary: string[];
  readonly generated: string[];
  /** Over the size cap (MAX_FILE_DIFF_CHARS). */
  readonly tooLarge: string[];
  /** Past the review's total (MAX_REVIEW_CHARS). */
  readonly notRead: string[];
  /** Changed without a line changed (a pure rename, a mode change): nothing to send. */
  readonly noLines: string[];
}

export interface ReadReviewInput {
  readonly source: ChangeSource;
  /** From `listChanges`: the counts, no diff text. */
  readonly files: readonly FileDiff[];
  readonly ignored: ReadonlySet<string>;
  readonly untracked: readonly string[];
}

/**
 * Reads the diff of each changed file that can be reviewed: ignored files are never read, binary
 * and generated ones only named (the commit message's rules, `sortChanges`), a file whose diff is
 * over the size cap is named as too large; reads stop at the review's total. Throws
 * NothingToDescribeError when nothing changed (or only ignored / untracked files did).
 */
export async function readReviewChanges(git: GitRunner, input: ReadReviewInput, signal?: AbortSignal): Promise<ReviewChanges> {
  const sorted = sortChanges(input.files, input.ignored, input.untracked);
  const files: FileDiff[] = [];
  const tooLarge: string[] = [];
  const notRead: string[] = [];
  const noLines: string[] = [];
  let total = 0;
  for (const file of sorted.sendable) {
    // Cheap first: the line counts alone say a file is far over the cap.
    const estimate = (file.added + file.removed) * 2;
    if (estimate > MAX_FILE_DIFF_CHARS * 8) {
      tooLarge.push(file.path);
      continue;
    }
    if (total >= MAX_REVIEW_CHARS) {
      notRead.push(file.path);
      continue;
    }
    const read = await readFileDiff(git, input.source, file, MAX_FILE_DIFF_CHARS, signal, REVIEW_CONTEXT_LINES);
    if (read.truncated) {
      tooLarge.push(file.path);
      continue;
    }
    if (read.binary) {
      sorted.binary.push(file.path);
      continue;
    }
    if (read.hunks.length === 0) {
      noLines.push(file.path);
      continue;
    }
    total += read.hunks.reduce((sum, h) => sum + h.length + 1, 0);
    files.push(read);
  }
  return { source: input.source, files, ignored: sorted.ignored.length, binary: sorted.binary, generated: sorted.generated, tooLarge, notRead, noLines };
}
