import { parseDiff, type FileDiff } from './diff';
import type { GitRunner } from './gitProcess';
import type { ChangeSource } from './prompt';

/*
 * The changes read from git no further than they can be sent: the list of changed files and their
 * line counts first (`--numstat`, `--name-status`), then each sendable file's diff with its read
 * capped by its share of the budget. Time and memory follow the budget and the number of files,
 * never the size of the staged content (a 200 MB diff is never read whole).
 */

/** The file list's output is read up to this (tens of thousands of files); past it, files are left uncounted. */
export const LIST_MAX_BYTES = 4 * 1024 * 1024;
/** A share smaller than this is not read at all: the file is named with its counts only. */
const MIN_READ_CHARS = 120;

/** Fixed `a/` and `b/` prefixes: the user's diff.mnemonicPrefix, diff.noprefix or diff.srcPrefix would make the headers unreadable. */
const DIFF_OPTIONS = ['--no-color', '--no-ext-diff', '--src-prefix=a/', '--dst-prefix=b/', '-M'];

function diffArgs(source: ChangeSource, ...rest: string[]): string[] {
  return ['diff', ...(source === 'staged' ? ['--cached'] : []), ...DIFF_OPTIONS, ...rest];
}

/** Lines of unchanged context around each change (git's `-U`): git's default 3 when absent. */
function contextArgs(contextLines: number | undefined): string[] {
  return contextLines !== undefined && Number.isSafeInteger(contextLines) && contextLines >= 0 ? [`-U${contextLines}`] : [];
}

/** The complete NUL-terminated fields of a `-z` output (a cut-off last field dropped). */
function fields(output: Buffer, truncated: boolean): string[] {
  const parts = output.toString('utf8').split('\0');
  parts.pop(); // after the last NUL: '' when complete, a cut-off field when truncated
  if (truncated) parts.pop(); // a field may be whole while its record is not: drop one more
  return parts;
}

const STATUS: Record<string, FileDiff['status']> = { A: 'added', D: 'deleted', R: 'renamed', C: 'renamed' };

/** `--name-status -z`: `M\0path\0`, `R100\0old\0new\0`. Maps the (new) path to its status. */
export function parseNameStatus(parts: readonly string[]): Map<string, FileDiff['status']> {
  const statuses = new Map<string, FileDiff['status']>();
  for (let i = 0; i < parts.length; ) {
    const code = (parts[i] ?? '').charAt(0);
    const paired = code === 'R' || code === 'C';
    const path = parts[i + (paired ? 2 : 1)];
    if (path !== undefined) statuses.set(path, STATUS[code] ?? 'modified');
    i += paired ? 3 : 2;
  }
  return statuses;
}

/** `--numstat -z`: `added\tremoved\tpath\0`, or `added\tremoved\t\0old\0new\0` for a rename; `-\t-` is binary. */
export function parseNumstat(parts: readonly string[], statuses: ReadonlyMap<string, FileDiff['status']>): FileDiff[] {
  const files: FileDiff[] = [];
  for (let i = 0; i < parts.length; ) {
    const match = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(parts[i] ?? '');
    if (!match) {
      i++;
      continue;
    }
    const renamed = match[3] === '';
    const path = renamed ? parts[i + 2] : match[3];
    const oldPath = renamed ? parts[i + 1] : undefined;
    i += renamed ? 3 : 1;
    if (path === undefined) break;
    const binary = match[1] === '-';
    files.push({
      path,
      ...(oldPath !== undefined && oldPath !== path ? { oldPath } : {}),
      status: statuses.get(path) ?? (renamed ? 'renamed' : 'modified'),
      binary,
      added: binary ? 0 : Number(match[1]),
      removed: binary ? 0 : Number(match[2]),
      hunks: [],
      // Nothing of the diff is read yet.
      truncated: true,
    });
  }
  return files;
}

/** The changed files of `source` with their line counts (no diff text read). */
export async function listChangedFiles(git: GitRunner, source: ChangeSource, signal?: AbortSignal): Promise<FileDiff[]> {
  const names = await git(diffArgs(source, '--name-status', '-z'), LIST_MAX_BYTES, signal);
  const counts = await git(diffArgs(source, '--numstat', '-z'), LIST_MAX_BYTES, signal);
  return parseNumstat(fields(counts.stdout, counts.truncated), parseNameStatus(fields(names.stdout, names.truncated)));
}

/** Bytes git writes before a file's first hunk (`diff --git`, `index`, mode, rename, `---`/`+++` lines). */
function headerBytes(file: FileDiff): number {
  const paths = Buffer.byteLength(file.path) + Buffer.byteLength(file.oldPath ?? file.path);
  return 3 * paths + 300;
}

/**
 * One file's diff, read up to `chars` of diff text past its header; `truncated` when there was
 * more. `contextLines` widens the unchanged lines around each change (review reads 10).
 */
export async function readFileDiff(git: GitRunner, source: ChangeSource, file: FileDiff, chars: number, signal?: AbortSignal, contextLines?: number): Promise<FileDiff> {
  const paths = file.oldPath !== undefined ? [file.oldPath, file.path] : [file.path];
  const output = await git(diffArgs(source, ...contextArgs(contextLines), '--', ...paths), headerBytes(file) + chars, signal);
  // A cut read ends mid-line (perhaps mid-character): keep whole lines only.
  const end = output.truncated ? output.stdout.lastIndexOf(0x0a) : output.stdout.length;
  const parsed = parseDiff(output.stdout.subarray(0, Math.max(0, end)).toString('utf8')).find((f) => f.path === file.path);
  // The counts, status and paths come from the list (the whole change), the text from this read.
  return { ...file, binary: file.binary || (parsed?.binary ?? false), hunks: parsed?.hunks ?? [], truncated: output.truncated };
}

/**
 * The diffs of `files` within `budgetChars` in all: the smallest changes first (by their line
 * counts), each read up to an equal share of what is left, what a small file does not use going
 * to the larger ones (the same water filling the summary does). Files whose share is too small
 * are not read; they stay `truncated` with no hunks and are named with their counts.
 */
export async function readDiffsWithin(git: GitRunner, source: ChangeSource, files: readonly FileDiff[], budgetChars: number, signal?: AbortSignal): Promise<FileDiff[]> {
  const order = files.map((_f, i) => i).sort((a, b) => files[a]!.added + files[a]!.removed - (files[b]!.added + files[b]!.removed));
  const read = [...files];
  let left = budgetChars;
  for (let k = 0; k < order.length; k++) {
    const i = order[k] as number;
    const share = Math.floor(left / (order.length - k));
    if (share < MIN_READ_CHARS) continue;
    const file = await readFileDiff(git, source, files[i] as FileDiff, share, signal);
    read[i] = file;
    left -= Math.min(share, file.hunks.reduce((sum, h) => sum + h.length + 1, 0));
  }
  return read;
}
