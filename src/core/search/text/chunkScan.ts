const PREVIEW_CHARS = 120;

/** The first meaningful line of a chunk, shortened (shown in pickers and chat). */
export function previewOf(text: string): string {
  let from = 0;
  while (from <= text.length) {
    const nl = text.indexOf('\n', from);
    const end = nl < 0 ? text.length : nl;
    const line = text.slice(from, end).trim();
    from = end + 1;
    if (line === '' || /^[{}()[\];,]*$/.test(line) || /^(?:\/\/|\/\*|\*|#!)\s*$/.test(line)) continue;
    return line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS - 1)}…` : line;
  }
  return '';
}

/** Lines this long are data (base64, minified code), not words anyone searches for. */
const DATA_LINE_CHARS = 1000;

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

/** Has `scanner` count the words of `text[span.start, span.end)`, data lines skipped. */
export function scanSpan(text: string, span: ChunkSpan, scanner: RangeScanner): void {
  const { start, end } = span;
  if (end - start <= DATA_LINE_CHARS) {
    scanner.scan(start, end);
    return;
  }
  // Skip data lines: scan the runs of ordinary lines between them.
  let from = start;
  let runStart = start;
  while (from < end) {
    const nl = text.indexOf('\n', from);
    const lineEnd = nl < 0 || nl > end ? end : nl;
    const contentEnd = lineEnd > from && text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd;
    if (contentEnd - from >= DATA_LINE_CHARS) {
      if (from > runStart) scanner.scan(runStart, from);
      runStart = lineEnd;
    }
    from = lineEnd + 1;
  }
  if (end > runStart) scanner.scan(runStart, end);
}
