import * as vscode from 'vscode';
import { ALWAYS_IGNORED } from '../core/agent/writeTarget';
import { CREDENTIAL_FILE_GLOBS } from '../core/workspace/credentialFiles';
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

/**
 * A judge of workspace files matched by a glob (`findFiles` honours neither `.gitignore` nor
 * `search.exclude`): why a file is left out by the rules the workspace search uses (the
 * `files.exclude` of its folder, `.git/` and `node_modules/`, the `.gitignore` files on its way)
 * and credential files by name (credentialFiles.ts: a `.env` no `.gitignore` names), or undefined when it may be read and sent. Each `.gitignore` is read once per judge; a file
 * outside every workspace folder is left out.
 */
export function workspaceIgnoreJudge(): (uri: vscode.Uri) => Promise<string | undefined> {
  const texts = new Map<string, Promise<string | undefined>>();
  return async (uri) => {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder) return 'it is outside the workspace folders';
    const base = folder.uri.path.endsWith('/') ? folder.uri.path : `${folder.uri.path}/`;
    if (!uri.path.startsWith(base)) return 'it is outside the workspace folders';
    const relative = uri.path.slice(base.length);
    const excludes = enabledGlobs(vscode.workspace.getConfiguration('files', folder).get<Record<string, unknown>>('exclude', {}));
    const read = (dir: string): Promise<string | undefined> => {
      const key = `${folder.uri.toString()}\u0000${dir}`;
      let text = texts.get(key);
      if (!text) {
        text = gitignoreText(vscode.Uri.joinPath(folder.uri, dir, '.gitignore'));
        texts.set(key, text);
      }
      return text;
    };
    return ignoredReason(await filterForPath([...excludes, ...ALWAYS_IGNORED, ...CREDENTIAL_FILE_GLOBS], relative, read), relative);
  };
}
