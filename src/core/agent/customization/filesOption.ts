/**
 * `/prompt <name> --files <glob>`: the `--files` option of a prompt command line, taken out of the
 * rest of the line. The glob is the next word, or a "quoted" text (spaces allowed). One pass over
 * the line (a regular expression with no nested repetition, then slices): linear in its length.
 */
export type FilesOption =
  | { present: false }
  /** `glob` is '' when `--files` has nothing after it; `rest` is the line without the option. */
  | { present: true; glob: string; rest: string };

const OPTION = '--files';

export function filesOption(text: string): FilesOption {
  const found = /(?:^|\s)--files(?=\s|$)/.exec(text);
  if (!found) return { present: false };
  const start = found.index + found[0].length - OPTION.length;
  const after = text.slice(start + OPTION.length).trimStart();
  let glob: string;
  let tail: string;
  if (after.startsWith('"')) {
    const end = after.indexOf('"', 1);
    glob = end < 0 ? after.slice(1) : after.slice(1, end);
    tail = end < 0 ? '' : after.slice(end + 1);
  } else {
    const space = after.search(/\s/);
    glob = space < 0 ? after : after.slice(0, space);
    tail = space < 0 ? '' : after.slice(space);
  }
  return { present: true, glob: glob.trim(), rest: `${text.slice(0, start).trim()} ${tail.trim()}`.trim() };
}
