/**
 * Lines a chat model puts around the code although told not to: "Here is the completion:",
 * "Sure! Here's the code:", "Completion:". Only a whole first line is chatter; code never is
 * (a line of code does not start with "Here is").
 */
const CHATTER_LINE = /^\s*(?:(?:sure|certainly|ok(?:ay)?)[,.!]?\s*)?(?:(?:here(?:'s| is)|below is)\b[^\n]*|(?:completion|output|answer|code)\s*):\s*$/i;

/** Removes a leading chatter line (only once its line break arrived). */
export function stripChatter(text: string): string {
  const newline = text.indexOf('\n');
  if (newline < 0) return text;
  return CHATTER_LINE.test(text.slice(0, newline)) ? text.slice(newline + 1) : text;
}

/** How a trailing chatter line starts (tested on that line alone, anchored: no backtracking over the text). */
const TRAILING_CHATTER = /^(?:this (?:completes|finishes|implements)|let me know|hope this helps)\b/i;

const isSpace = (char: string): boolean => char === ' ' || char === '\t' || char === '\n' || char === '\r' || /^\s$/.test(char);

/**
 * Removes a trailing chatter line such as "This completes the function." after the code: the last
 * line that holds text, when a line break comes before it, with the blank lines before it. One
 * backward scan (a regex over the whole text was cubic on a run of line breaks: 2,000 took 6 s).
 */
export function stripTrailingChatter(text: string): string {
  let end = text.length;
  while (end > 0 && isSpace(text.charAt(end - 1))) end--;
  const lineStart = text.lastIndexOf('\n', end - 1) + 1;
  if (lineStart === 0) return text;
  let first = lineStart;
  while (first < end && isSpace(text.charAt(first))) first++;
  if (!TRAILING_CHATTER.test(text.slice(first, end))) return text;
  // Back over the blank run before the line, to its first line break.
  let cut = lineStart - 1;
  for (let k = cut - 1; k >= 0 && isSpace(text.charAt(k)); k--) if (text.charAt(k) === '\n') cut = k;
  return text.slice(0, cut);
}
