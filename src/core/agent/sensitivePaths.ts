/**
 * Files whose content runs as code without anyone running it on purpose: when the workspace is
 * opened (VS Code settings, tasks and launch configurations, dev containers, direnv), when a
 * package is installed or a script is run (package.json scripts, .npmrc), on commit or push (git
 * hooks, hook managers, the .git folder itself), or in CI (.github workflows). An edit the agent
 * proposes to one of them is always shown in full with a warning, whatever the preview setting.
 *
 * Matching is by path segment and case-insensitive (macOS and Windows file systems ignore case),
 * ignores the trailing dots and spaces Windows drops (`.git.` is `.git`) and the alternate data
 * stream suffix (`package.json:x`), and treats a Windows 8.3 short name (`VSCODE~1`) as sensitive
 * because it may stand for any of these.
 */

/** Folders anywhere in the path whose files are sensitive. */
const SENSITIVE_FOLDERS: ReadonlyMap<string, string> = new Map([
  ['.vscode', 'VS Code workspace settings, tasks and launch configurations, which can run programs'],
  ['.git', "git's own data, including hooks that run on commit and config that names programs"],
  ['.github', 'GitHub workflows and actions, which run in CI on push'],
  ['.gitlab', 'GitLab CI configuration'],
  ['.husky', 'git hooks (husky), which run on commit'],
  ['.githooks', 'git hooks, which run on commit'],
  ['.devcontainer', 'dev container configuration, which runs commands when the folder is opened in a container'],
  ['.circleci', 'CI configuration'],
]);

/** File names anywhere in the path that are sensitive. */
const SENSITIVE_FILES: ReadonlyMap<string, string> = new Map([
  ['package.json', 'npm scripts, which run on install, test and build'],
  ['.npmrc', 'npm configuration, which can name the shell and registry npm uses'],
  ['.yarnrc', 'yarn configuration'],
  ['.yarnrc.yml', 'yarn configuration, which can load plugins'],
  ['.envrc', 'a direnv script, which runs when a shell enters the folder'],
  ['makefile', 'a Makefile, whose rules run as shell commands'],
  ['gnumakefile', 'a Makefile, whose rules run as shell commands'],
  ['.gitattributes', 'git attributes, which choose filters and diff drivers that run programs'],
  ['.gitmodules', 'git submodules, which choose what is fetched'],
  ['.pre-commit-config.yaml', 'pre-commit hooks, which run on commit'],
  ['lefthook.yml', 'lefthook git hooks, which run on commit'],
  ['.lefthook.yml', 'lefthook git hooks, which run on commit'],
  ['.gitlab-ci.yml', 'GitLab CI configuration'],
]);

/** File name endings that are sensitive. */
const SENSITIVE_SUFFIXES: ReadonlyArray<readonly [string, string]> = [['.code-workspace', 'a VS Code workspace file (settings, tasks and launch configurations)']];

function normalizeSegment(segment: string): string {
  const withoutStream = segment.includes(':') ? segment.slice(0, segment.indexOf(':')) : segment;
  return withoutStream.replace(/[. ]+$/, (tail) => (withoutStream === tail ? tail : '')).toLowerCase();
}

/**
 * Why a write to `path` (relative to a workspace folder or absolute; `/` or `\` separated) needs
 * an explicit warning, or undefined when it does not.
 */
export function sensitivePathReason(path: string): string | undefined {
  const segments = path.split(/[\\/]+/).filter((s) => s !== '' && s !== '.').map(normalizeSegment);
  const last = segments.length - 1;
  for (const [i, segment] of segments.entries()) {
    const folder = SENSITIVE_FOLDERS.get(segment);
    if (folder && i < last) return `it is inside ${segment}/: ${folder}`;
    if (/~\d+$/.test(segment)) return `"${segment}" is a Windows short (8.3) name, which may stand for a folder such as .git or .vscode`;
  }
  const name = segments[last];
  if (name === undefined) return undefined;
  if (SENSITIVE_FOLDERS.has(name)) return `it is the ${name} entry itself: ${SENSITIVE_FOLDERS.get(name) ?? ''}`;
  const file = SENSITIVE_FILES.get(name);
  if (file) return `it is ${file}`;
  for (const [suffix, why] of SENSITIVE_SUFFIXES) if (name.endsWith(suffix)) return `it is ${why}`;
  if (name.endsWith('.mk')) return 'it is a Makefile fragment, whose rules run as shell commands';
  return undefined;
}
