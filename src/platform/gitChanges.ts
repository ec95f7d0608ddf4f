import * as vscode from 'vscode';
import type { FileDiff } from '../core/commitMessage/diff';
import { listChanges } from '../core/commitMessage/fromGit';
import type { GitRunner } from '../core/commitMessage/gitProcess';
import { gitignoreFolders, ignoredPaths } from '../core/commitMessage/ignored';
import type { ChangeSource } from '../core/commitMessage/prompt';
import { GIT_STATUS_UNTRACKED, type GitRepository } from './git';

/** What a repository's changes are: the files and their line counts (no diff text is read here). */
export interface RepositoryChanges {
  source: ChangeSource;
  files: FileDiff[];
  ignored: Set<string>;
  untracked: string[];
  recentMessages: string[];
}

/** Subjects read to learn the repository's style. */
const RECENT_COMMITS = 20;

/** Repository-relative path of `uri`, forward slashes. */
function relativeTo(root: vscode.Uri, uri: vscode.Uri): string {
  const base = root.path.endsWith('/') ? root.path : `${root.path}/`;
  return uri.path.startsWith(base) ? uri.path.slice(base.length) : uri.path;
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

/**
 * The `.gitignore` rules that apply to `paths`: each folder's `.gitignore` on their way, and the
 * repository's own `.git/info/exclude` with the root's rules.
 */
async function ignoreRules(root: vscode.Uri, paths: readonly string[]): Promise<Map<string, string>> {
  const rules = new Map<string, string>();
  await Promise.all(gitignoreFolders(paths).map(async (folder) => {
    const text = await readText(vscode.Uri.joinPath(root, folder, '.gitignore'));
    if (text !== undefined) rules.set(folder, text);
  }));
  const exclude = await readText(vscode.Uri.joinPath(root, '.git', 'info', 'exclude'));
  if (exclude !== undefined) rules.set('', `${rules.get('') ?? ''}\n${exclude}`);
  return rules;
}

/** The staged files, or the unstaged ones when nothing is staged; untracked files; recent commit messages. */
export async function readChanges(repository: GitRepository, git: GitRunner, signal?: AbortSignal): Promise<RepositoryChanges> {
  const { source, files } = await listChanges(git, signal);
  const state = repository.state;
  const untracked = [...(state.untrackedChanges ?? []), ...state.workingTreeChanges]
    .filter((c) => c.status === GIT_STATUS_UNTRACKED)
    .map((c) => relativeTo(repository.rootUri, c.uri));
  const paths = files.flatMap((f) => (f.oldPath ? [f.path, f.oldPath] : [f.path]));
  const ignored = ignoredPaths(paths, await ignoreRules(repository.rootUri, paths));
  // A repository without commits has no log: no style to follow.
  const log = await repository.log({ maxEntries: RECENT_COMMITS }).catch(() => []);
  return { source, files, ignored, untracked: [...new Set(untracked)], recentMessages: log.map((c) => c.message) };
}
