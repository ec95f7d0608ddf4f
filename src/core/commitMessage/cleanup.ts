/** Prefaces models put before the message despite being told not to. */
const PREAMBLE = /^(?:(?:here(?:'s| is) (?:a |the |your )?(?:suggested |proposed )?commit message[^\n]*?:?)|(?:(?:suggested |proposed )?commit message:?))[ \t]*\n*/i;
const FENCE_OPEN = /^[ \t]*(?:```|~~~)[\w-]*[ \t]*\n/;
const FENCE_CLOSE = /\n?[ \t]*(?:```|~~~)[ \t]*\n*$/;

/**
 * The model's answer as a commit message: `<think>` blocks, a preamble, a wrapping code fence or
 * quotes removed; trailing spaces and runs of blank lines trimmed; a blank line kept between the
 * subject and the body. `streaming`: the text is a prefix of the answer (an unclosed `<think>` or
 * fence is held back rather than shown).
 */
export function cleanCommitMessage(raw: string, streaming = false): string {
  let text = raw.replace(/\r\n?/g, '\n');
  text = text.replace(/<think>[\s\S]*?<\/think>\s*/g, '');
  const openThink = text.indexOf('<think>');
  if (openThink >= 0) text = text.slice(0, openThink);
  text = text.replace(/^\s+/, '');
  text = text.replace(PREAMBLE, '');
  if (FENCE_OPEN.test(text)) {
    text = text.replace(FENCE_OPEN, '');
    text = text.replace(FENCE_CLOSE, '');
  } else if (streaming && /^[ \t]*(?:`{1,3}|~{1,3})[\w-]*$/.test(text)) {
    // The start of a fence whose first line has not arrived yet.
    return '';
  }
  if (!streaming || /\n/.test(text)) {
    const quoted = /^(["'`])([\s\S]*)\1$/.exec(text.trim());
    if (quoted && !(quoted[2] ?? '').includes(quoted[1] as string)) text = quoted[2] as string;
  }
  const lines = text.split('\n').map((l) => l.replace(/[ \t]+$/, ''));
  const out: string[] = [];
  for (const line of lines) {
    if (line === '' && (out.length === 0 || out[out.length - 1] === '')) continue;
    out.push(line);
  }
  // The subject, then one blank line, then the body (git's convention; some models omit the blank).
  if (out.length > 1 && out[1] !== '') out.splice(1, 0, '');
  let message = out.join('\n');
  if (!streaming) message = message.replace(/\n+$/, '');
  return message;
}
