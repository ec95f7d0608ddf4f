import ignore, { type Ignore } from 'ignore';

/** Why a path is left out (not indexed, not sent, not written; the log says it). */
export type SkipReason = 'excluded' | 'gitignored' | 'binary' | 'too_large' | 'unreadable';

/** Expands `{a,b}` alternatives (VS Code globs allow them; .gitignore rules do not). */
export function expandBraces(pattern: string): string[] {
  const open = pattern.indexOf('{');
  if (open < 0) return [pattern];
  let depth = 0;
  for (let i = open; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      const inner = pattern.slice(open + 1, i);
      const options: string[] = [];
      let level = 0;
      let from = 0;
      for (let j = 0; j < inner.length; j++) {
        if (inner[j] === '{') level++;
        else if (inner[j] === '}') level--;
        else if (inner[j] === ',' && level === 0) {
          options.push(inner.slice(from, j));
          from = j + 1;
        }
      }
      options.push(inner.slice(from));
      const head = pattern.slice(0, open);
      const tail = pattern.slice(i + 1);
      return options.flatMap((o) => expandBraces(`${head}${o}${tail}`));
    }
  }
  return [pattern];
}

/**
 * A VS Code glob (`files.exclude`, `search.exclude`: matched against the whole workspace-relative
 * path) as .gitignore rules: a pattern without a slash that does not start with `**` only matches
 * at the root in VS Code, so it is anchored.
 */
export function globToGitignore(glob: string): string[] {
  return expandBraces(glob.trim())
    .filter((g) => g !== '')
    .map((g) => {
      let p = g.replace(/^\.\//, '');
      if (!p.startsWith('**') && !p.startsWith('/')) p = `/${p}`;
      return p;
    });
}

/** The enabled patterns of an exclude setting (`{"**\/.git": true, "**\/*.js": {"when": ...}}`). */
export function enabledGlobs(setting: Readonly<Record<string, unknown>> | undefined): string[] {
  return Object.entries(setting ?? {})
    .filter(([, v]) => v === true)
    .map(([k]) => k);
}

/**
 * Decides which workspace-relative paths (forward slashes) are indexed: exclude globs, then the
 * `.gitignore` files met while walking (each applying below its own folder).
 */
export class PathFilter {
  private readonly excludes: Ignore | undefined;
  private readonly gitignores = new Map<string, Ignore>();

  constructor(excludeGlobs: readonly string[] = []) {
    const rules = excludeGlobs.flatMap(globToGitignore);
    // No rule, no matcher: the walk checks every path it meets (thousands of folders at 50k files).
    this.excludes = rules.length > 0 ? ignore({ allowRelativePaths: true }).add(rules) : undefined;
  }

  /** Adds the rules of `<dir>/.gitignore` (`dir` '' for the root). */
  addGitignore(dir: string, content: string): void {
    this.gitignores.set(dir, ignore({ allowRelativePaths: true }).add(content));
  }

  removeGitignore(dir: string): void {
    this.gitignores.delete(dir);
  }

  /** Why `path` is skipped, or undefined when it is indexed. */
  check(path: string, isDirectory: boolean): SkipReason | undefined {
    if (path === '' || (!this.excludes && this.gitignores.size === 0)) return undefined;
    const probe = isDirectory ? `${path}/` : path;
    if (this.excludes?.ignores(probe)) return 'excluded';
    if (this.gitignores.size === 0) return undefined;
    // As git: the deepest .gitignore with a rule matching the path decides, so a deeper
    // `!pattern` re-includes what a higher one ignores (and a deeper rule ignores again).
    for (let end = path.lastIndexOf('/'); ; end = end > 0 ? path.lastIndexOf('/', end - 1) : -1) {
      const dir = end < 0 ? '' : path.slice(0, end);
      const rules = this.gitignores.get(dir);
      if (rules) {
        const verdict = rules.test(end < 0 ? probe : probe.slice(end + 1));
        if (verdict.ignored) return 'gitignored';
        if (verdict.unignored) return undefined;
      }
      if (end < 0) return undefined;
    }
  }
}

/**
 * Why `path` (workspace-relative, forward slashes) is left out: the path itself or any folder on
 * the way matched, as git decides (a rule naming `secrets/` covers everything below it). The one
 * ignore matcher for a single path: createFile, commit messages and completion context ask it;
 * the search crawl calls `check` per level as it walks.
 */
export function ignoredAlongPath(filter: PathFilter, path: string): SkipReason | undefined {
  const parts = path.split('/').filter((p) => p !== '');
  for (let i = 1; i <= parts.length; i++) {
    const why = filter.check(parts.slice(0, i).join('/'), i < parts.length);
    if (why) return why;
  }
  return undefined;
}

/** How a skip reason reads in a refusal, with the part of the path that matched. */
function ignoredText(why: SkipReason, relative: string, filter: PathFilter): string {
  const parts = relative.split('/');
  let at = relative;
  for (let i = 1; i <= parts.length; i++) {
    if (filter.check(parts.slice(0, i).join('/'), i < parts.length) !== undefined) {
      at = parts.slice(0, i).join('/');
      break;
    }
  }
  return why === 'gitignored'
    ? `it is ignored by a .gitignore (${at})`
    : `it is in a folder or matches a pattern excluded by files.exclude, or inside .git/ or node_modules/ (${at})`;
}

/**
 * Why `path` is ignored, as a sentence with the part of the path that matched (`files.exclude`,
 * `.git/`, `node_modules/`, a `.gitignore`), or undefined when it is not: the write-target judge
 * refuses a new file with it, and a prompt file's link is not attached with it.
 */
export function ignoredReason(filter: PathFilter, path: string): string | undefined {
  const why = ignoredAlongPath(filter, path);
  return why ? ignoredText(why, path, filter) : undefined;
}

/** The folders whose `.gitignore` applies to `path` (a file): the root ('') and each folder on its way. */
export function gitignoreFoldersOf(path: string): string[] {
  const parts = path.split('/').filter((p) => p !== '');
  return Array.from({ length: Math.max(1, parts.length) }, (_, i) => parts.slice(0, i).join('/'));
}

/**
 * The filter for one path: the exclude globs, then the `.gitignore` of each folder on its way,
 * read by `read` (the folder '' is the root; undefined when there is none). The one walk that
 * gathers the rules for a single path: createFile's judge and completion context use it.
 */
export async function filterForPath(excludeGlobs: readonly string[], path: string, read: ((dir: string) => Promise<string | undefined>) | undefined): Promise<PathFilter> {
  const filter = new PathFilter(excludeGlobs);
  if (!read) return filter;
  const folders = gitignoreFoldersOf(path);
  const texts = await Promise.all(folders.map((dir) => read(dir)));
  folders.forEach((dir, i) => {
    const text = texts[i];
    if (text !== undefined) filter.addGitignore(dir, text);
  });
  return filter;
}

/** A NUL byte in the first 8 KB marks a binary file (what git and ripgrep do too); one definition for every reader. */
export { looksBinary } from './confinedReader';
