/**
 * The scripted answer to a next-edit prompt (src/core/nextEdit/prompt.ts): a user message with the
 * recent edits as unified-diff hunks between `<edits>` and `</edits>`, and the window around the
 * cursor between `<window>` and `</window>` (with the cursor marker). Deterministic:
 *
 * - R = the last hunk of `<edits>` with one `-` line and one `+` line that differ by one
 *   identifier renamed (every whole-word `old` of the `-` line becomes `new`, nothing else);
 * - the answer is the window (marker removed) between the tags, where the first line holding
 *   `old` as a whole word has every such `old` replaced by `new`: the rename's next use;
 * - no such hunk, or no use left in the window: the window unchanged.
 *
 * So a rename leads to one suggestion per remaining use, and accepting it leads to the next (a
 * chain). Undefined when the text is no next-edit prompt.
 */
export const WINDOW_OPEN = '<window>\n';
export const WINDOW_CLOSE = '\n</window>';
const IDENTIFIER = /[A-Za-z_$][\w$]*/g;

function wholeWord(name: string): RegExp {
  return new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g');
}

/** The identifier renamed by the last one-line hunk of the edits block, if any. */
export function lastRename(edits: string): { from: string; to: string } | undefined {
  const hunks = edits.split(/^(?=@@ )/m).filter((part) => part.startsWith('@@ ')).reverse();
  for (const hunk of hunks) {
    const body = hunk.split('\n').slice(1).filter((l) => l !== '');
    const removed = body.filter((l) => l.startsWith('-'));
    const added = body.filter((l) => l.startsWith('+'));
    if (removed.length !== 1 || added.length !== 1) continue;
    const before = (removed[0] ?? '').slice(1);
    const after = (added[0] ?? '').slice(1);
    const a = before.match(IDENTIFIER) ?? [];
    const b = after.match(IDENTIFIER) ?? [];
    if (a.length !== b.length) continue;
    const k = a.findIndex((w, i) => w !== b[i]);
    const from = a[k];
    const to = b[k];
    if (k < 0 || from === undefined || to === undefined) continue;
    if (before.replace(wholeWord(from), to) === after) return { from, to };
  }
  return undefined;
}

/** The answer to a next-edit prompt whose user text is `text`, or undefined when it is none. */
export function nextEditAnswer(text: string, cursorMarker: string): string | undefined {
  const editsAt = text.indexOf('<edits>\n');
  const open = text.lastIndexOf(WINDOW_OPEN);
  const close = open < 0 ? -1 : text.indexOf(WINDOW_CLOSE, open);
  if (open < 0 || close < 0) return undefined;
  const window = text.slice(open + WINDOW_OPEN.length, close).split(cursorMarker).join('');
  const rename = editsAt >= 0 ? lastRename(text.slice(editsAt, text.indexOf('</edits>', editsAt))) : undefined;
  const lines = window.split('\n');
  if (rename) {
    const at = lines.findIndex((l) => wholeWord(rename.from).test(l));
    if (at >= 0) lines[at] = (lines[at] ?? '').replace(wholeWord(rename.from), rename.to);
  }
  return `<window>\n${lines.join('\n')}\n</window>`;
}
