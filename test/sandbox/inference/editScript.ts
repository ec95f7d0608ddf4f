/**
 * The scripted answer to an edit-by-instruction prompt (src/core/edit/prompt.ts): a user message
 * with a line `Instruction: <I>` and the block after `The range to rewrite (lines a-b):`
 * (`<range>` ... `</range>`). The rewrite depends only on I and the range R:
 *
 * - I contains `rename A to B` (A, B words): every whole word A in R becomes B;
 * - I contains `delete lines containing W`: the lines of R containing W are dropped;
 * - I contains `document`, `documentation` or `comment`, or no rule above matched: a line
 *   `<indent><c> <I>` is added before R (c is `#` for python, shell, ruby, yaml, else `//`; the
 *   indent is R's first non-blank line's);
 * - the answer is the rewritten lines, plain; with `fenced` in I inside a ```<language> fence,
 *   with `chatty` in I also with a line of chatter before the fence and an explanation after.
 * Streamed as token-sized deltas (completionTokensOf), like a code model.
 */

const RANGE_HEADER = /The range to rewrite \(lines \d+-\d+\):\n<range>\n/;
const RANGE_END = '\n</range>\nLines after the range:';

function indentOf(lines: readonly string[]): string {
  const first = lines.find((l) => l.trim() !== '');
  return first === undefined ? '' : (/^[ \t]*/.exec(first)?.[0] ?? '');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The rewrite of an edit prompt, or undefined when `text` is not one. */
export function editReply(text: string): string | undefined {
  const instruction = /^Instruction: (.*)$/m.exec(text)?.[1];
  const header = RANGE_HEADER.exec(text);
  if (instruction === undefined || !header) return undefined;
  const start = header.index + header[0].length;
  const end = text.lastIndexOf(RANGE_END);
  if (end < start - 1) return undefined;
  const language = /^File: .* \(([^)]*)\)$/m.exec(text)?.[1] ?? '';
  let lines = end < start ? [] : text.slice(start, end).split('\n');
  let matched = false;
  const rename = /\brename\s+(\w+)\s+to\s+(\w+)/i.exec(instruction);
  if (rename?.[1] && rename[2]) {
    const word = new RegExp(`\\b${escapeRegExp(rename[1])}\\b`, 'g');
    const to = rename[2];
    lines = lines.map((l) => l.replace(word, to));
    matched = true;
  }
  const drop = /\bdelete lines containing (\S+)/i.exec(instruction);
  if (drop?.[1]) {
    const needle = drop[1];
    lines = lines.filter((l) => !l.includes(needle));
    matched = true;
  }
  if (/\b(document|documentation|comment)\b/i.test(instruction) || !matched) {
    const marker = /^(python|shellscript|ruby|yaml|perl|r)$/.test(language) ? '#' : '//';
    lines = [`${indentOf(lines)}${marker} ${instruction}`, ...lines];
  }
  const body = lines.join('\n');
  if (/\bchatty\b/i.test(instruction)) return `Here is the updated code:\n\`\`\`${language}\n${body}\n\`\`\`\nI applied: ${instruction}`;
  if (/\bfenced\b/i.test(instruction)) return `\`\`\`${language}\n${body}\n\`\`\``;
  return body;
}
