import { gitignoreFoldersOf, ignoredAlongPath, PathFilter } from '../workspace/ignoreRules';

/** The folders whose `.gitignore` can apply to `paths` (repository-relative): the root ('') and every ancestor. */
export function gitignoreFolders(paths: readonly string[]): string[] {
  const folders = new Set<string>(['']);
  for (const path of paths) for (const folder of gitignoreFoldersOf(path)) folders.add(folder);
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
  // A rule may name a folder on the way (`secrets/`): the one matcher checks each prefix, as git does.
  for (const path of paths) if (ignoredAlongPath(filter, path) !== undefined) ignored.add(path);
  return ignored;
}
