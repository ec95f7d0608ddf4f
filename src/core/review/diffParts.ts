import type { FileDiff } from '../commitMessage/diff';
import { fileHeader } from '../commitMessage/summarise';

/*
 * The diff as a review sends it: each line carries its line number in the new file (removed lines
 * none), so the model can answer with lines that map back, and the whole is cut into parts that
 * each fit the model's context. Every line of the diff is sent in exactly one part.
 */

/** Lines of one file a finding may land on: shown in the diff (context or added), and the changed ones. */
export interface FileLines {
  /** New-file line numbers shown in the diff (context and added lines). */
  readonly shown: Set<number>;
  /** Added lines, and for a removal the line it happened before (the last line at the end of the file): where "nearest changed line" points. */
  readonly changed: number[];
  /** Each shown line's text as reviewed (the index's or the working tree's, not the editor's): comments find their line again by it. */
  readonly text: ReadonlyMap<number, string>;
  /** The file was deleted: no line of it is left to comment on. */
  readonly deleted: boolean;
}

/** Per repository-relative path, the lines a finding may land on. */
export type DiffIndex = ReadonlyMap<string, FileLines>;

/** One request's worth of the diff. */
export interface DiffPart {
  readonly text: string;
  /** The files (paths) it shows, whole or in part. */
  readonly files: readonly string[];
}

const HUNK_HEADER = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/;
/** Width of the line-number column. */
const NUMBER_WIDTH = 6;

/** One hunk rendered with new-file line numbers: its header line, then one row per diff line. */
function numberedHunk(hunk: string, lines: { shown: Set<number>; changed: number[]; text: Map<number, string> }): string[] {
  const rows = hunk.split('\n');
  const header = rows[0] ?? '';
  const match = HUNK_HEADER.exec(header);
  const start = Number(match?.[1] ?? NaN);
  const count = match?.[2] === undefined ? 1 : Number(match[2]);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(count)) return rows;
  // A removal is anchored on the line it happened before; past the hunk's last line (lines removed
  // at the end of the file) on that last line. An empty new side (`+k,0`) names the line before.
  const removalAnchor = (next: number): number => Math.max(1, count === 0 ? start : Math.min(next, start + count - 1));
  let next = start;
  const out = [header];
  // The editor's line has no carriage return: a CRLF file's rows end with one.
  const show = (body: string): void => {
    lines.shown.add(next);
    lines.text.set(next, body.endsWith('\r') ? body.slice(0, -1) : body);
  };
  for (const row of rows.slice(1)) {
    const mark = row.charAt(0);
    const body = row.slice(1);
    if (mark === '+') {
      show(body);
      lines.changed.push(next);
      out.push(`${String(next).padStart(NUMBER_WIDTH)} +${body}`);
      next++;
    } else if (mark === '-') {
      lines.changed.push(removalAnchor(next));
      out.push(`${' '.repeat(NUMBER_WIDTH)} -${body}`);
    } else if (mark === '\\') {
      out.push(`${' '.repeat(NUMBER_WIDTH)} ${row}`);
    } else {
      show(body);
      out.push(`${String(next).padStart(NUMBER_WIDTH)}  ${body}`);
      next++;
    }
  }
  return out;
}

/** A file's section: its header and its numbered hunks (each a list of rows). */
export interface NumberedFile {
  readonly path: string;
  readonly header: string;
  readonly hunks: string[][];
}

/** The files' hunks numbered, and the index of the lines each shows. */
export function numberDiff(files: readonly FileDiff[]): { files: NumberedFile[]; index: Map<string, FileLines> } {
  const index = new Map<string, FileLines>();
  const numbered = files.map((file) => {
    const lines = { shown: new Set<number>(), changed: [] as number[], text: new Map<number, string>(), deleted: file.status === 'deleted' };
    const hunks = file.hunks.map((h) => numberedHunk(h, lines));
    lines.changed = [...new Set(lines.changed)].sort((a, b) => a - b);
    index.set(file.path, lines);
    return { path: file.path, header: fileHeader(file), hunks };
  });
  return { files: numbered, index };
}

/** Rows of `rows` in pieces of at most `budget` characters each (one row per line, newline counted); a row longer than that is cut. */
function chunkRows(rows: readonly string[], budget: number): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let used = 0;
  for (const raw of rows) {
    const row = raw.length + 1 > budget ? `${raw.slice(0, Math.max(0, budget - 2))}…` : raw;
    if (used + row.length + 1 > budget && current.length > 0) {
      chunks.push(current);
      current = [];
      used = 0;
    }
    current.push(row);
    used += row.length + 1;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/**
 * Cuts the numbered files into parts of at most `budgetChars` characters each: whole hunks are
 * packed in order, a file's header repeated (marked continued) in each part it spans; a hunk
 * larger than a part is split between rows, its header repeated with the piece's number. The
 * result is never empty when there is a hunk, and every part fits (`budgetChars` >= 200).
 */
export function splitIntoParts(files: readonly NumberedFile[], budgetChars: number): DiffPart[] {
  const budget = Math.max(200, Math.floor(budgetChars));
  const parts: DiffPart[] = [];
  let text: string[] = [];
  let used = 0;
  let partFiles: string[] = [];
  const flush = (): void => {
    if (text.length > 0) parts.push({ text: text.join('\n'), files: partFiles });
    text = [];
    used = 0;
    partFiles = [];
  };
  const add = (rows: readonly string[]): void => {
    for (const row of rows) {
      text.push(row);
      used += row.length + 1;
    }
  };
  const size = (rows: readonly string[]): number => rows.reduce((sum, r) => sum + r.length + 1, 0);
  for (const file of files) {
    if (file.hunks.length === 0) continue;
    const continued = `${file.header} (continued)`;
    // The file's header goes with its first hunk piece, in whichever part that lands.
    let headerInPart = false;
    const ensureHeader = (first: boolean): void => {
      if (headerInPart) return;
      add([first ? file.header : continued]);
      partFiles.push(file.path);
      headerInPart = true;
    };
    let firstPiece = true;
    for (const hunk of file.hunks) {
      const headerRow = [firstPiece ? file.header : continued];
      const whole = size(hunk) + (headerInPart ? 0 : size(headerRow));
      if (used + whole <= budget) {
        ensureHeader(firstPiece);
        add(hunk);
        firstPiece = false;
        continue;
      }
      if (whole <= budget) {
        flush();
        headerInPart = false;
        ensureHeader(firstPiece);
        add(hunk);
        firstPiece = false;
        continue;
      }
      // Larger than a whole part: split between rows, each piece with its file and hunk headers.
      const hunkHeader = hunk[0] ?? '';
      const room = budget - size([continued]) - size([`${hunkHeader} (piece 999 of 999)`]);
      const pieces = chunkRows(hunk.slice(1), Math.max(100, room));
      pieces.forEach((rows, k) => {
        flush();
        headerInPart = false;
        ensureHeader(firstPiece);
        add([`${hunkHeader} (piece ${k + 1} of ${pieces.length})`, ...rows]);
        firstPiece = false;
      });
    }
    headerInPart = false;
    // The next file starts on a blank line within the same part.
    if (text.length > 0) add(['']);
  }
  flush();
  return parts.map((p) => ({ ...p, text: p.text.replace(/\n+$/, '') }));
}
