import type { FileDiff } from './diff';

/** What fitting the diff into its budget kept and left out. */
export interface SummarisedDiff {
  /** The diff text sent: one section per file, in git's order. */
  text: string;
  /** Files whose diff was shortened (their section says how many lines were left out). */
  cut: string[];
  /** Files named with their line counts only: no room for any of their diff. */
  bodiesLeftOut: string[];
  /** Files not even named: no room for their header line (counted, and listed in `text` as a count). */
  notNamed: string[];
}

/** A body smaller than this is not worth its cut note: the file is named with its counts only. */
const MIN_BODY_CHARS = 120;

export function fileHeader(file: FileDiff): string {
  const name = file.oldPath && file.oldPath !== file.path ? `${file.oldPath} → ${file.path}` : file.path;
  return `### ${name} (${file.status}, +${file.added} -${file.removed})`;
}

/** The first lines of `body` within `chars`, cut at a line end, with a note of what was left out. */
function cutBody(body: string, chars: number): string {
  const lines = body.split('\n');
  const kept: string[] = [];
  let used = 0;
  for (const line of lines) {
    if (used + line.length + 1 > chars) break;
    kept.push(line);
    used += line.length + 1;
  }
  return `${kept.join('\n')}\n… (${lines.length - kept.length} of ${lines.length} diff lines of this file left out)`;
}

/**
 * Fits the files' diffs into `budgetChars`. Everything fits: sent whole. Otherwise every file is
 * named first (header with its status and line counts), and the room left is shared out so small
 * diffs stay whole and large ones are cut to an equal share (water filling); when even the
 * headers do not fit, the largest changes are named and the rest counted.
 */
export function summariseDiff(files: readonly FileDiff[], budgetChars: number): SummarisedDiff {
  const headers = files.map(fileHeader);
  const bodies = files.map((f) => f.hunks.join('\n'));
  const sizeOf = (i: number): number => (headers[i] as string).length + 1 + (bodies[i] as string).length + 2;
  const total = files.reduce((sum, _f, i) => sum + sizeOf(i), 0);
  if (total <= budgetChars) {
    return { text: files.map((_f, i) => section(headers[i] as string, bodies[i] as string)).join('\n\n'), cut: [], bodiesLeftOut: [], notNamed: [] };
  }

  const headerChars = headers.reduce((sum, h) => sum + h.length + 2, 0);
  if (headerChars > budgetChars) return namesOnly(files, headers, budgetChars);

  // Water filling: the smallest bodies first, each taking at most an equal share of what is left.
  const allotted = new Map<number, number>();
  let left = budgetChars - headerChars;
  const order = files.map((_f, i) => i).sort((a, b) => (bodies[a] as string).length - (bodies[b] as string).length);
  order.forEach((i, k) => {
    const share = Math.floor(left / (order.length - k));
    const give = Math.min((bodies[i] as string).length + 1, share);
    allotted.set(i, give);
    left -= give;
  });
  const cut: string[] = [];
  const bodiesLeftOut: string[] = [];
  const sections = files.map((file, i) => {
    const body = bodies[i] as string;
    const room = allotted.get(i) ?? 0;
    if (body === '' || body.length + 1 <= room) return section(headers[i] as string, body);
    if (room < MIN_BODY_CHARS) {
      bodiesLeftOut.push(file.path);
      return `${headers[i] as string}\n(diff left out: no room)`;
    }
    cut.push(file.path);
    return section(headers[i] as string, cutBody(body, room - 60));
  });
  return { text: sections.join('\n\n'), cut, bodiesLeftOut, notNamed: [] };
}

function section(header: string, body: string): string {
  return body === '' ? header : `${header}\n${body}`;
}

/** Too many files to name them all: the largest changes are named, the others counted. */
function namesOnly(files: readonly FileDiff[], headers: readonly string[], budgetChars: number): SummarisedDiff {
  const order = files.map((_f, i) => i).sort((a, b) => files[b]!.added + files[b]!.removed - (files[a]!.added + files[a]!.removed));
  const named = new Set<number>();
  let used = 80; // the closing count line
  for (const i of order) {
    const size = (headers[i] as string).length + 1;
    if (used + size > budgetChars) break;
    named.add(i);
    used += size;
  }
  const kept = files.map((_f, i) => i).filter((i) => named.has(i));
  const notNamed = files.filter((_f, i) => !named.has(i)).map((f) => f.path);
  const lines = kept.map((i) => headers[i] as string);
  if (notNamed.length > 0) lines.push(`… and ${notNamed.length} more changed files, not named (no room)`);
  return { text: `(Only file names and line counts: the diff is too large to show.)\n${lines.join('\n')}`, cut: [], bodiesLeftOut: kept.map((i) => files[i]!.path), notNamed };
}
