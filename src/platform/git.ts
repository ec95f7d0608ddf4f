import * as vscode from 'vscode';

/*
 * The parts of the built-in git extension's API (`vscode.git`, `getAPI(1)`, stable since VS Code
 * 1.39 and unchanged in what is used here through 1.139) that Stratus reads. Typed by hand: the
 * extension publishes its `git.d.ts` only in its sources.
 */

export interface GitInputBox {
  value: string;
}

export interface GitChange {
  readonly uri: vscode.Uri;
  /** The extension's `Status` enum; UNTRACKED is 7. */
  readonly status: number;
}

/** `Status.UNTRACKED` of the git extension's API. */
export const GIT_STATUS_UNTRACKED = 7;

export interface GitRepositoryState {
  readonly indexChanges: readonly GitChange[];
  readonly workingTreeChanges: readonly GitChange[];
  /** Separate from `workingTreeChanges` when `git.untrackedChanges` is `separate` (newer versions). */
  readonly untrackedChanges?: readonly GitChange[];
}

export interface GitCommit {
  readonly hash: string;
  readonly message: string;
}

export interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly inputBox: GitInputBox;
  readonly state: GitRepositoryState;
  /** `git diff` (`cached`: `git diff --cached`), the whole patch as text. */
  diff(cached?: boolean): Promise<string>;
  log(options?: { maxEntries?: number }): Promise<GitCommit[]>;
}

export interface GitApi {
  /** The git executable the extension runs (`git.path`, or the one it found). */
  readonly git?: { readonly path: string };
  readonly state: 'uninitialized' | 'initialized';
  readonly onDidChangeState: vscode.Event<'uninitialized' | 'initialized'>;
  readonly repositories: readonly GitRepository[];
  getRepository(uri: vscode.Uri): GitRepository | null;
}

interface GitExtensionExports {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}

/** Why the git API is not there. */
export type GitUnavailable = 'missing' | 'disabled';

/**
 * The git API once the extension has opened its repositories, or why it cannot be had. Waits for
 * the extension to initialise (it scans the workspace first), at most `waitMs`.
 */
export async function gitApi(waitMs = 10_000): Promise<GitApi | GitUnavailable> {
  const extension = vscode.extensions.getExtension<GitExtensionExports>('vscode.git');
  if (!extension) return 'missing';
  const exports = extension.isActive ? extension.exports : await extension.activate();
  if (!exports.enabled) return 'disabled';
  const api = exports.getAPI(1);
  if (api.state === 'initialized') return api;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, waitMs);
    const listener = api.onDidChangeState((state) => {
      if (state === 'initialized') done();
    });
    function done(): void {
      clearTimeout(timer);
      listener.dispose();
      resolve();
    }
  });
  return api;
}

/** The root of the repository an `scm/title` or palette argument designates (a SourceControl, a repository, a Uri), if any. */
export function rootOfArgument(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === 'object' && arg !== null && 'rootUri' in arg) {
    const root = (arg as { rootUri: unknown }).rootUri;
    if (root instanceof vscode.Uri) return root;
  }
  return undefined;
}
