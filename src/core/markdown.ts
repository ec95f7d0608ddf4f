/**
 * Markdown built from text we did not write (server values, task labels, file contents, model
 * output): one escaping helper and one fence builder, so no such text can add links, images,
 * HTML or close the block it is shown in.
 */

/** Escapes every character Markdown (and the HTML it admits) gives a meaning to. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, '\\$&').replace(/\r?\n/g, ' ');
}

/** The longest run of backticks in `text` (0 when there is none). */
function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

/**
 * A fenced code block that shows `text` exactly: the fence is longer than any backtick run in
 * the text (at least three), so no line of the text can close it.
 */
export function codeFence(text: string, language = ''): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}

/** Inline code that shows `text` exactly, whatever backticks it holds. */
export function inlineCode(text: string): string {
  const oneLine = text.replace(/\r?\n/g, ' ');
  const ticks = '`'.repeat(longestBacktickRun(oneLine) + 1);
  const pad = oneLine.startsWith('`') || oneLine.endsWith('`') || oneLine === '' ? ' ' : '';
  return `${ticks}${pad}${oneLine}${pad}${ticks}`;
}
