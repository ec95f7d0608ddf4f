/** One file's section of a `git diff` (unified, as the git extension's `Repository.diff()` returns it). */
export interface FileDiff {
  /** Path relative to the repository root, forward slashes (the new path of a rename). */
  path: string;
  /** The old path, when the file was renamed or copied. */
  oldPath?: string;
  status: 'added' | 'deleted' | 'renamed' | 'modified';
  /** git said `Binary files ... differ` or sent a binary patch: no text to show. */
  binary: boolean;
  added: number;
  removed: number;
  /** The hunks (`@@` lines and their bodies), without git's header lines. */
  hunks: string[];
  /** Only the start of the file's diff was read (its read was capped): the hunks are not all of it. */
  truncated?: boolean;
}

/** Reads a C-quoted path of a git header (`"a/\303\251t\303\251.txt"`): octal escapes are UTF-8 bytes. */
export function unquoteGitPath(raw: string): string {
  if (!raw.startsWith('"') || !raw.endsWith('"') || raw.length < 2) return raw;
  const bytes: number[] = [];
  const body = raw.slice(1, -1);
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, '"': 34, '\\': 92, a: 7, b: 8, f: 12, v: 11 };
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c !== '\\') {
      bytes.push(...new TextEncoder().encode(c));
      continue;
    }
    const next = body[i + 1] ?? '';
    const octal = /^[0-7]{3}/.exec(body.slice(i + 1, i + 4));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 3;
    } else {
      bytes.push(simple[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** `a/x` or `"a/x"` to `x`. */
function stripSide(raw: string | undefined, side: 'a/' | 'b/'): string | undefined {
  if (raw === undefined || raw === '/dev/null') return undefined;
  const path = unquoteGitPath(raw.trim());
  return path.startsWith(side) ? path.slice(2) : path;
}

/** The two paths of `diff --git a/x b/y` (when neither is quoted, split at the ` b/` that halves it). */
function headerPaths(line: string): { a?: string; b?: string } {
  const rest = line.slice('diff --git '.length);
  const quoted = /^("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|.+)$/.exec(rest);
  if (rest.includes('"') && quoted) return { a: stripSide(quoted[1], 'a/'), b: stripSide(quoted[2], 'b/') };
  // Unquoted paths may hold spaces: a path and its copy are the same length on both sides when unchanged.
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest.slice(2, half) === rest.slice(half + 3)) return { a: rest.slice(2, half), b: rest.slice(half + 3) };
  const at = rest.indexOf(' b/');
  return at > 0 ? { a: stripSide(rest.slice(0, at), 'a/'), b: stripSide(rest.slice(at + 1), 'b/') } : {};
}

/** Splits a unified diff into its files. Text that is not a diff yields no files. */
export function parseDiff(text: string): FileDiff[] {
  const files: FileDiff[] = [];
  let file: FileDiff | undefined;
  let hunk: string[] | undefined;
  let headerOld: string | undefined;
  const endHunk = (): void => {
    if (file && hunk) file.hunks.push(hunk.join('\n'));
    hunk = undefined;
  };
  for (const line of text.split('\n')) {
    if (line.startsWith('diff --git ')) {
      endHunk();
      const paths = headerPaths(line);
      file = { path: paths.b ?? paths.a ?? '', status: 'modified', binary: false, added: 0, removed: 0, hunks: [] };
      headerOld = paths.a;
      files.push(file);
      continue;
    }
    if (!file) continue;
    if (hunk) {
      if (line.startsWith('@@')) {
        endHunk();
      } else if (line.startsWith('+') || line.startsWith('-') || line.startsWith(' ') || line.startsWith('\\') || line === '') {
        if (line.startsWith('+')) file.added++;
        else if (line.startsWith('-')) file.removed++;
        hunk.push(line);
        continue;
      } else {
        endHunk();
      }
    }
    if (line.startsWith('@@')) {
      hunk = [line];
    } else if (line.startsWith('new file mode')) {
      file.status = 'added';
    } else if (line.startsWith('deleted file mode')) {
      file.status = 'deleted';
    } else if (line.startsWith('rename from ') || line.startsWith('copy from ')) {
      file.status = 'renamed';
      file.oldPath = unquoteGitPath(line.replace(/^(rename|copy) from /, ''));
    } else if (line.startsWith('rename to ') || line.startsWith('copy to ')) {
      file.path = unquoteGitPath(line.replace(/^(rename|copy) to /, ''));
    } else if (line.startsWith('Binary files ') || line === 'GIT binary patch') {
      file.binary = true;
    } else if (line.startsWith('+++ ')) {
      const path = stripSide(line.slice(4), 'b/');
      if (path !== undefined) file.path = path;
    } else if (line.startsWith('--- ') && file.path === '') {
      file.path = stripSide(line.slice(4), 'a/') ?? headerOld ?? '';
    }
  }
  endHunk();
  // Trailing empty context lines are the split's artefact (the diff ends with a newline).
  for (const f of files) f.hunks = f.hunks.map((h) => h.replace(/\n+$/, ''));
  return files;
}
