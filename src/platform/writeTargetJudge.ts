import * as vscode from 'vscode';
import { ALWAYS_IGNORED, judgeTarget, type TargetJudgement } from '../core/agent/writeTarget';
import { enabledGlobs, filterForPath } from '../core/workspace/ignoreRules';
import { readWorkspaceBytes } from './workspaceFiles';
import type { WorkspaceFile } from './toolWorkspace';

const GITIGNORE_MAX_BYTES = 256 * 1024;

async function gitignoreText(uri: vscode.Uri): Promise<string | undefined> {
  const read = await readWorkspaceBytes(uri, { maxBytes: GITIGNORE_MAX_BYTES, overCap: 'truncate' });
  return read.ok ? new TextDecoder().decode(read.bytes) : undefined;
}

/**
 * The VS Code side of the one judge of a write target (src/core/agent/writeTarget.ts): the
 * sensitivity and ignore status of a resolved file, decided where it lands (symbolic links
 * resolved), with the `files.exclude` of the folder it lands in and the `.gitignore` files on the
 * way there.
 */
export async function judgeWriteTarget(file: WorkspaceFile): Promise<TargetJudgement> {
  const rootUri = vscode.Uri.file(file.lands.root.fsPath);
  const folder = vscode.workspace.getWorkspaceFolder(rootUri);
  const excludes = enabledGlobs(vscode.workspace.getConfiguration('files', folder).get<Record<string, unknown>>('exclude', {}));
  const filter = await filterForPath([...excludes, ...ALWAYS_IGNORED], file.lands.relative, (dir) => gitignoreText(vscode.Uri.joinPath(rootUri, dir, '.gitignore')));
  return judgeTarget(file.relative, file.lands.relative, filter);
}
