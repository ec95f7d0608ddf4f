import * as vscode from 'vscode';
import { rootOfArgument, type GitApi, type GitRepository } from './git';

const sameFolder = (a: vscode.Uri, b: vscode.Uri): boolean => a.scheme === b.scheme && a.fsPath === b.fsPath;

/**
 * The repository to describe (or review): the one whose Source Control button was pressed (the command's
 * argument), else the only one, else the active editor's, else the one the person picks;
 * `none` when no repository is open (or the argument names none), `dismissed` when the pick is.
 */
export async function chooseRepository(api: GitApi, arg: unknown, title = vscode.l10n.t('Stratus: Write Commit Message')): Promise<GitRepository | 'none' | 'dismissed'> {
  const repositories = api.repositories;
  const root = rootOfArgument(arg);
  if (root) {
    // The exact root first: a nested repository's root is also inside its parent.
    return repositories.find((r) => sameFolder(r.rootUri, root)) ?? api.getRepository(root) ?? 'none';
  }
  if (repositories.length === 0) return 'none';
  if (repositories.length === 1) return repositories[0] as GitRepository;
  const active = vscode.window.activeTextEditor?.document.uri;
  const ofEditor = active ? api.getRepository(active) : null;
  if (ofEditor) return ofEditor;
  const picked = await vscode.window.showQuickPick(
    repositories.map((repository) => ({ label: repository.rootUri.path.split('/').filter(Boolean).pop() ?? repository.rootUri.fsPath, description: vscode.workspace.asRelativePath(repository.rootUri, true), repository })),
    { title, placeHolder: vscode.l10n.t('Which repository?') },
  );
  return picked?.repository ?? 'dismissed';
}
