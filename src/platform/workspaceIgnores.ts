import * as vscode from 'vscode';
import { ALWAYS_IGNORED } from '../core/agent/writeTarget';
import { enabledGlobs, filterForPath, ignoredReason, type PathFilter } from '../core/workspace/ignoreRules';
import { readWorkspaceBytes } from './workspaceFiles';
import type { WorkspaceFile } from './toolWorkspace';

const GITIGNORE_MAX_BYTES = 256 * 1024;

async function gitignoreText(uri: vscode.Uri): Promise<string | undefined> {
  const read = await readWorkspaceBytes(uri, { maxBytes: GITIGNORE_MAX_BYTES, overCap: 'truncate' });
  return read.ok ? new TextDecoder().decode(read.bytes) : undefined;
}

/**
 * The ignore rules where a resolved file lands (symbolic links resolved): the `files.exclude` of
 * the folder it lands in, `.git/` and `node_modules/`, and the `.gitignore` files on the way there
 * (read through the confined reader).
 */
export async function landedIgnoreFilter(file: WorkspaceFile): Promise<PathFilter> {
  const rootUri = vscode.Uri.file(file.lands.root.fsPath);
  const folder = vscode.workspace.getWorkspaceFolder(rootUri);
  const excludes = enabledGlobs(vscode.workspace.getConfiguration('files', folder).get<Record<string, unknown>>('exclude', {}));
  return filterForPath([...excludes, ...ALWAYS_IGNORED], file.lands.relative, (dir) => gitignoreText(vscode.Uri.joinPath(rootUri, dir, '.gitignore')));
}

/** Why a resolved file is ignored where it lands (see landedIgnoreFilter), or undefined when it is not. */
export async function ignoredWhereItLands(file: WorkspaceFile): Promise<string | undefined> {
  return ignoredReason(await landedIgnoreFilter(file), file.lands.relative);
}
