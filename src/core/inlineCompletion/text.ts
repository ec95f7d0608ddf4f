/** Small line and indentation helpers shared by the inline-completion core. */

/** Columns a tab counts for when indentations are compared. */
export const TAB_COLUMNS = 4;

export function leadingWhitespace(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? '';
}

/** Width of a line's indentation in columns (a tab = TAB_COLUMNS). */
export function indentWidth(line: string): number {
  let width = 0;
  for (const c of leadingWhitespace(line)) width += c === '\t' ? TAB_COLUMNS : 1;
  return width;
}

export function isBlank(line: string): boolean {
  return line.trim() === '';
}

/** The text after the last line break (the cursor line before the cursor). */
export function lastLine(text: string): string {
  return text.slice(text.lastIndexOf('\n') + 1);
}

/** The text before the first line break (the cursor line after the cursor). */
export function firstLine(text: string): string {
  const at = text.indexOf('\n');
  return at < 0 ? text : text.slice(0, at);
}

export const OPENERS: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}' };
export const CLOSERS: Readonly<Record<string, string>> = { ')': '(', ']': '[', '}': '{' };
