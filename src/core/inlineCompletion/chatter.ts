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

/** Removes a trailing chatter line such as "This completes the function." after the code. */
export function stripTrailingChatter(text: string): string {
  return text.replace(/\n+\s*(?:this (?:completes|finishes|implements)|let me know|hope this helps)\b[^\n]*\s*$/i, '');
}
