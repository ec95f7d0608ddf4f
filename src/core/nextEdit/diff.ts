import { dominantEol, type OffsetEdit } from './text';

/**
 * The smallest edits that turn `before` into `after`: a line diff (longest common subsequence of
 * whole lines, each with its own line end, so `\r\n` is kept), then refined to characters: a run
 * of changed lines that keeps its line count gives one edit per changed line, any other run one
 * edit, each narrowed to the characters that differ (common prefix and suffix trimmed, to code point
 * boundaries). Applying
 * the result to `before` gives `after` exactly.
 *
 * Both texts are compared with a line break added at their end, so a last line without one
 * still matches its copy that got one (a line added at the end is then one insertion); an edit
 * that reaches the added break is moved in front of the break before it.
 *
 * A plain LCS table is enough: the window is bounded (see window.ts), so at most a few thousand
 * cells; no diff library is needed.
 */
export function diffText(before: string, after: string): OffsetEdit[] {
  if (before === after) return [];
  const pad = dominantEol(before + after);
  const padded = diffLines(before + pad, after + pad).map((e) => withoutAddedBreak(e, before, pad));
  return padded.every((e) => e !== undefined) ? padded : diffLines(before, after);
}

/** The edit on `before` alone; undefined when it cannot be moved off the added break (mixed line ends). */
function withoutAddedBreak(edit: OffsetEdit, before: string, pad: string): OffsetEdit | undefined {
  const length = before.length;
  if (edit.end <= length) return edit;
  // An insertion after the added break (it ends with a break): the same text before that break.
  if (edit.start === edit.end && edit.newText.endsWith(pad)) return { start: length, end: length, newText: pad + edit.newText.slice(0, -pad.length) };
  // A deletion up to the added break starts at a line start: delete from the break before it.
  if (edit.newText === '' && before.slice(edit.start - pad.length, edit.start) === pad) return { start: edit.start - pad.length, end: length, newText: '' };
  return undefined;
}

function diffLines(before: string, after: string): OffsetEdit[] {
  const a = splitKeepingEnds(before);
  const b = splitKeepingEnds(after);
  const pairs = commonLines(a, b);
  const edits: OffsetEdit[] = [];
  let i = 0;
  let j = 0;
  let offset = 0;
  for (const [pi, pj] of [...pairs, [a.length, b.length] as const]) {
    if (pi - i === pj - j) {
      // As many lines in as out: each line is an edit of its counterpart, narrowed on its own.
      for (let k = 0; k < pi - i; k++) {
        const removed = a[i + k] ?? '';
        const added = b[j + k] ?? '';
        if (removed !== added) edits.push(narrow(offset, removed, added));
        offset += removed.length;
      }
    } else {
      const removed = a.slice(i, pi).join('');
      const added = b.slice(j, pj).join('');
      edits.push(narrow(offset, removed, added));
      offset += removed.length;
    }
    if (pi < a.length) offset += (a[pi] ?? '').length;
    i = pi + 1;
    j = pj + 1;
  }
  return edits;
}

/** The lines of `text`, each with its line end (`\n` or `\r\n`); no empty last element. */
export function splitKeepingEnds(text: string): string[] {
  if (text === '') return [];
  return text.split(/(?<=\n)/);
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/**
 * One edit replacing `removed` at `offset` by `added`, shrunk to the characters that differ (the
 * common prefix and suffix left alone), on code point boundaries: a prefix that ends with a high
 * surrogate or a suffix that starts with a low one gives that half back (😀 to 😁 share their high
 * half: the edit replaces the whole emoji, never half of it).
 */
export function narrow(offset: number, removed: string, added: string): OffsetEdit {
  let prefix = 0;
  const max = Math.min(removed.length, added.length);
  while (prefix < max && removed.charCodeAt(prefix) === added.charCodeAt(prefix)) prefix++;
  if (prefix > 0 && isHighSurrogate(removed.charCodeAt(prefix - 1))) prefix--;
  let suffix = 0;
  while (suffix < max - prefix && removed.charCodeAt(removed.length - 1 - suffix) === added.charCodeAt(added.length - 1 - suffix)) suffix++;
  if (suffix > 0 && isLowSurrogate(removed.charCodeAt(removed.length - suffix))) suffix--;
  return { start: offset + prefix, end: offset + removed.length - suffix, newText: added.slice(prefix, added.length - suffix) };
}

/** Index pairs of a longest common subsequence of lines, in order. */
function commonLines(a: readonly string[], b: readonly string[]): (readonly [number, number])[] {
  // Lines equal at both ends are matched directly: the table only covers the middle.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  const table = new Uint32Array((n + 1) * (m + 1));
  const at = (x: number, y: number): number => table[x * (m + 1) + y] ?? 0;
  for (let x = n - 1; x >= 0; x--) {
    for (let y = m - 1; y >= 0; y--) {
      table[x * (m + 1) + y] = a[head + x] === b[head + y] ? at(x + 1, y + 1) + 1 : Math.max(at(x + 1, y), at(x, y + 1));
    }
  }
  const pairs: (readonly [number, number])[] = [];
  for (let k = 0; k < head; k++) pairs.push([k, k]);
  let x = 0;
  let y = 0;
  while (x < n && y < m) {
    if (a[head + x] === b[head + y]) {
      pairs.push([head + x, head + y]);
      x++;
      y++;
    } else if (at(x + 1, y) >= at(x, y + 1)) x++;
    else y++;
  }
  for (let k = tail; k > 0; k--) pairs.push([a.length - k, b.length - k]);
  return pairs;
}
