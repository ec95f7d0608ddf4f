/** Offsets, positions and line ends: the small text helpers the next-edit core shares. */

/** A position as VS Code counts it: 0-based line, UTF-16 character in the line. */
export interface LinePosition {
  line: number;
  character: number;
}

/** A replacement of `[start, end)` (offsets in one text) by `newText`. */
export interface OffsetEdit {
  start: number;
  end: number;
  newText: string;
}

/** The position of `offset` in `text` (a `\r\n` counts as one line end, `\r` as part of its line). */
export function positionAt(text: string, offset: number): LinePosition {
  const clamped = Math.max(0, Math.min(offset, text.length));
  let line = 0;
  let lineStart = 0;
  for (let at = text.indexOf('\n'); at >= 0 && at < clamped; at = text.indexOf('\n', at + 1)) {
    line += 1;
    lineStart = at + 1;
  }
  return { line, character: clamped - lineStart };
}

/** The offsets where each line of `text` starts (the first is 0). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/** The line end most used in `text` (`\n` when it has none). */
export function dominantEol(text: string): '\n' | '\r\n' {
  const all = text.split('\n').length - 1;
  const crlf = text.split('\r\n').length - 1;
  return crlf > 0 && crlf * 2 >= all ? '\r\n' : '\n';
}

/** Applies non-overlapping edits (offsets in `text`, any order). */
export function applyEdits(text: string, edits: readonly OffsetEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    out += text.slice(at, e.start) + e.newText;
    at = e.end;
  }
  return out + text.slice(at);
}

/** A line worth matching on its own: some letters or digits, not just `}` or a blank. */
export function distinctive(line: string): boolean {
  return /[A-Za-z0-9_]/.test(line) && line.trim().length >= 4;
}
