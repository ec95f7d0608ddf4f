import type { FileDiff } from './diff';

/** What fitting the diff into its budget kept and left out. */
export interface SummarisedDiff {
  /** The diff text sent: one section per file, in git's order; never longer than the budget. */
  text: string;
  /** Files whose diff was shortened (their section says so). */
  cut: string[];
  /** Files named with their line counts only: no room for any of their diff. */
  bodiesLeftOut: string[];
  /** Files not even named: no room for their header line (counted, and listed in `text` as a count). */
  notNamed: string[];
}

/** A body smaller than this is not worth its cut note: the file is named with its counts only. */
const MIN_BODY_CHARS = 120;
/** Between two files' sections. */
const SEPARATOR = '\n\n';
/** What stands for a body left out. */
const LEFT_OUT = '(diff left out: no room)';
const NAMES_ONLY = '(Only file names and line counts: the diff is too large to show.)';

export function fileHeader(file: FileDiff): string {
  const name = file.oldPath && file.oldPath !== file.path ? `${file.oldPath} → ${file.path}` : file.path;
  return `### ${name} (${file.status}, +${file.added} -${file.removed})`;
}

function cutNote(file: FileDiff, leftOut: number, lines: number): string {
  return file.truncated ? '… (the rest of this file\'s diff is left out)' : `… (${leftOut} of ${lines} diff lines of this file left out)`;
}

/**
 * The first lines of `body` and a note of what was left out, within `chars` (the note's longest
 * form is reserved first, so the result never exceeds `chars`).
 */
function cutBody(file: FileDiff, body: string, chars: number): string {
  const lines = body.split('\n');
  const room = chars - cutNote(file, lines.length, lines.length).length - 1;
  const kept: string[] = [];
  let used = 0;
  for (const line of lines) {
    if (used + line.length + 1 > room) break;
    kept.push(line);
    used += line.length + 1;
  }
  return `${kept.join('\n')}\n${cutNote(file, lines.length - kept.length, lines.length)}`;
}

/** A section's text: the header, then the body (nothing after a file with no text diff). */
function section(header: string, body: string): string {
  return body === '' ? header : `${header}\n${body}`;
}

/**
 * Fits the files' diffs into `budgetChars`, counting every character emitted (headers, notes,
 * separators). Everything fits: sent whole. Otherwise every file is named first (its header and a
 * "left out" line), and the room left is shared out so small diffs stay whole and large ones are
 * cut to an equal share (water filling); when even that does not fit, the largest changes are
 * named and the rest counted. A file whose read was cut short (`truncated`) is never sent as whole.
 */
export function summariseDiff(files: readonly FileDiff[], budgetChars: number): SummarisedDiff {
  const headers = files.map(fileHeader);
  const bodies = files.map((f) => f.hunks.join('\n'));
  const whole = files.map((f) => !f.truncated);
  const separators = Math.max(0, files.length - 1) * SEPARATOR.length;
  const total = files.reduce((sum, _f, i) => sum + section(headers[i] as string, bodies[i] as string).length, separators);
  if (total <= budgetChars && whole.every(Boolean)) {
    return { text: files.map((_f, i) => section(headers[i] as string, bodies[i] as string)).join(SEPARATOR), cut: [], bodiesLeftOut: [], notNamed: [] };
  }

  // The least each file takes: its header, and its body when shorter than the "left out" line.
  const least = files.map((_f, i) => {
    const body = bodies[i] as string;
    // A read cut short with nothing kept still says its diff was left out.
    return whole[i] && body.length <= LEFT_OUT.length ? body.length : LEFT_OUT.length;
  });
  const leastTotal = files.reduce((sum, _f, i) => sum + (headers[i] as string).length + (least[i] ? 1 + (least[i] as number) : 0), separators);
  if (leastTotal > budgetChars) return namesOnly(files, headers, budgetChars);

  // Water filling: the smallest bodies first, each growing by at most an equal share of what is left.
  const room = [...least];
  let left = budgetChars - leastTotal;
  const growing = files.map((_f, i) => i).filter((i) => (bodies[i] as string).length > (least[i] as number) || !whole[i]);
  growing.sort((a, b) => (bodies[a] as string).length - (bodies[b] as string).length);
  growing.forEach((i, k) => {
    const share = Math.floor(left / (growing.length - k));
    const give = Math.min((bodies[i] as string).length - (least[i] as number) + (whole[i] ? 0 : MIN_BODY_CHARS), share);
    room[i] = (room[i] as number) + give;
    left -= give;
  });
  const cut: string[] = [];
  const bodiesLeftOut: string[] = [];
  const sections = files.map((file, i) => {
    const body = bodies[i] as string;
    const header = headers[i] as string;
    const chars = room[i] as number;
    if (whole[i] && body.length <= chars) return section(header, body);
    if (chars < MIN_BODY_CHARS) {
      bodiesLeftOut.push(file.path);
      return section(header, LEFT_OUT);
    }
    cut.push(file.path);
    return section(header, cutBody(file, body, chars));
  });
  return { text: sections.join(SEPARATOR), cut, bodiesLeftOut, notNamed: [] };
}

function notNamedLine(count: number): string {
  return `… and ${count} more changed files, not named (no room)`;
}

/** Too many files to name them all: the largest changes are named, the others counted. */
function namesOnly(files: readonly FileDiff[], headers: readonly string[], budgetChars: number): SummarisedDiff {
  const order = files.map((_f, i) => i).sort((a, b) => files[b]!.added + files[b]!.removed - (files[a]!.added + files[a]!.removed));
  const named = new Set<number>();
  // The title, and room for the closing count line at its longest.
  let used = NAMES_ONLY.length + 1 + notNamedLine(files.length).length;
  for (const i of order) {
    const size = (headers[i] as string).length + 1;
    if (used + size > budgetChars) break;
    named.add(i);
    used += size;
  }
  const kept = files.map((_f, i) => i).filter((i) => named.has(i));
  const notNamed = files.filter((_f, i) => !named.has(i)).map((f) => f.path);
  const lines = [NAMES_ONLY, ...kept.map((i) => headers[i] as string)];
  if (notNamed.length > 0) lines.push(notNamedLine(notNamed.length));
  // A budget smaller than the title and the count line: the count alone, or nothing.
  const text = used <= budgetChars ? lines.join('\n') : notNamedLine(files.length).length <= budgetChars ? notNamedLine(files.length) : '';
  return { text, cut: [], bodiesLeftOut: kept.map((i) => files[i]!.path), notNamed };
}
