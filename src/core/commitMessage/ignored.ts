import { PathFilter } from '../workspace/ignoreRules';

/** The folders whose `.gitignore` can apply to `paths` (repository-relative): the root ('') and every ancestor. */
export function gitignoreFolders(paths: readonly string[]): string[] {
  const folders = new Set<string>(['']);
  for (const path of paths) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join('/'));
  }
  return [...folders].sort();
}

/**
 * The paths a `.gitignore` (or `.git/info/exclude`, given as the root's extra rules) matches,
 * whether or not git tracks them: a tracked file that the rules name is still never sent.
 * `rules` maps a folder ('' for the root) to its `.gitignore` text.
 */
export function ignoredPaths(paths: readonly string[], rules: ReadonlyMap<string, string>): Set<string> {
  const filter = new PathFilter();
  for (const [folder, text] of rules) filter.addGitignore(folder, text);
  const ignored = new Set<string>();
  for (const path of paths) {
    const parts = path.split('/');
    // A rule may name a folder on the way (`secrets/`): check each prefix, as git does.
    for (let i = 1; i <= parts.length; i++) {
      if (filter.check(parts.slice(0, i).join('/'), i < parts.length) === 'gitignored') {
        ignored.add(path);
        break;
      }
    }
  }
  return ignored;
}
