const PREVIEW_CHARS = 120;

/**
 * Where the line starting at `from` ends (before `limit`): at its `\n` or `\r`, as editors and
 * ripgrep see lines, so `\r\n`, `\r` and `\n` files read alike.
 */
export function lineEndAt(text: string, from: number, limit: number): number {
  const nl = text.indexOf('\n', from);
  const end = nl < 0 || nl > limit ? limit : nl;
  for (let i = from; i < end; i++) if (text.charCodeAt(i) === 13) return i;
  return end;
}

/** Where the next line starts after a line ending at `end` (a `\r\n` is one break). */
export function nextLineAt(text: string, end: number): number {
  return text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
}

/** The first meaningful line of a chunk, shortened (shown in pickers and chat). */
export function previewOf(text: string): string {
  let from = 0;
  while (from <= text.length) {
    const end = lineEndAt(text, from, text.length);
    const line = text.slice(from, end).trim();
    from = nextLineAt(text, end);
    if (line === '' || /^[{}()[\];,]*$/.test(line) || /^(?:\/\/|\/\*|\*|#!)\s*$/.test(line)) continue;
    return line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS - 1)}…` : line;
  }
  return '';
}

/** Lines this long are data (base64, minified code) unless they read as prose. */
const DATA_LINE_CHARS = 1000;
/** How much of a long prose line is indexed: the start of a long paragraph is kept, not dropped. */
const LONG_LINE_KEPT_CHARS = 8000;
/** A long line with at least this share of spaces (in its first DATA_LINE_CHARS) is prose: words run about six characters; minified code and base64 have almost none. */
const PROSE_SPACE_SHARE = 0.1;

/** A chunk to index: offsets into a file's text, and its line range. */
export interface ChunkSpan {
  startLine: number;
  endLine: number;
  start: number;
  end: number;
}

/** Counts ranges of a text (the term counter, whose scanner has the text). */
export interface RangeScanner {
  scan(from: number, to: number): void;
}

function readsAsProse(text: string, from: number): boolean {
  let spaces = 0;
  for (let i = from; i < from + DATA_LINE_CHARS; i++) if (text.charCodeAt(i) === 32) spaces++;
  return spaces >= DATA_LINE_CHARS * PROSE_SPACE_SHARE;
}

/** Where a long prose line is cut: at the last space before LONG_LINE_KEPT_CHARS, so no word is halved. */
function proseCut(text: string, from: number, lineEnd: number): number {
  if (lineEnd - from <= LONG_LINE_KEPT_CHARS) return lineEnd;
  const space = text.lastIndexOf(' ', from + LONG_LINE_KEPT_CHARS);
  return space > from ? space : from + LONG_LINE_KEPT_CHARS;
}

/** The text `crAfter` last looked at, and whether it holds a `\r` at all (a file's chunks come one after another). */
let crText = '';
let crInText = false;

/** The first `\r` at or after `from` (-1: none); one native search of a file for the common file without any. */
function crAfter(text: string, from: number): number {
  if (text !== crText) {
    crText = text;
    crInText = text.includes('\r');
  }
  return crInText ? text.indexOf('\r', from) : -1;
}

/** Has `scanner` count the words of `text[span.start, span.end)`: data lines skipped, long prose lines cut. */
export function scanSpan(text: string, span: ChunkSpan, scanner: RangeScanner): void {
  const { start, end } = span;
  if (end - start <= DATA_LINE_CHARS) {
    scanner.scan(start, end);
    return;
  }
  // Scan the runs of ordinary lines; a long line ends the run: its prose start is scanned, data is skipped.
  let from = start;
  let runStart = start;
  // A line ends at `\n` or a `\r` (found natively, never char by char: this loop sees most of a cold build's text).
  // Each break is searched for once, not once per line (a file of `\r` breaks has no `\n` to find).
  let cr = crAfter(text, start);
  let nl = text.indexOf('\n', start);
  while (from < end) {
    if (nl >= 0 && nl < from) nl = text.indexOf('\n', from);
    if (cr >= 0 && cr < from) cr = text.indexOf('\r', from);
    let lineEnd = nl < 0 || nl > end ? end : nl;
    if (cr >= 0 && cr < lineEnd) lineEnd = cr;
    if (lineEnd - from >= DATA_LINE_CHARS) {
      if (from > runStart) scanner.scan(runStart, from);
      if (readsAsProse(text, from)) scanner.scan(from, proseCut(text, from, lineEnd));
      runStart = lineEnd;
    }
    from = nextLineAt(text, lineEnd);
  }
  if (end > runStart) scanner.scan(runStart, end);
}
