import * as path from 'node:path';
import * as vscode from 'vscode';
import { DocumentError } from '../../core/documents/errors';
import { checkSize } from '../../core/documents/plan';
import { readWorkspaceBytes } from '../../platform/workspaceFiles';

function insideWorkspace(uri: vscode.Uri): boolean {
  return vscode.workspace.getWorkspaceFolder(uri) !== undefined;
}

const REFUSALS: Record<string, string> = {
  gone: 'no longer exists',
  outside: 'is outside the workspace folders (through a symbolic link)',
  not_file: 'is not a file',
  unreadable: 'cannot be read',
};

/**
 * A document's bytes, the size cap checked before reading. Workspace files go through the
 * confined reader (real path inside a folder, size checked on the open file); a file the user
 * picked elsewhere (the open dialog) is read as chosen. `confined` refuses anything outside.
 */
export async function loadDocumentBytes(uri: vscode.Uri, caps: { maxBytes: number; maxPages: number }, confined: boolean): Promise<Uint8Array> {
  const fileName = path.basename(uri.path);
  if (insideWorkspace(uri)) {
    const read = await readWorkspaceBytes(uri, { maxBytes: caps.maxBytes, overCap: 'refuse' });
    if (read.ok) return read.bytes;
    if (read.reason === 'too_large') checkSize(fileName, read.stamp?.size ?? caps.maxBytes + 1, caps);
    throw new DocumentError('unsupported', `${fileName} ${REFUSALS[read.reason] ?? 'cannot be read'}${read.detail ? ` (${read.detail})` : ''}.`);
  }
  if (confined) throw new DocumentError('unsupported', `${fileName} is outside the workspace folders; only workspace files can be read here.`);
  let stat: vscode.FileStat;
  try {
    stat = await vscode.workspace.fs.stat(uri);
  } catch (error) {
    throw new DocumentError('unsupported', `${fileName} cannot be read (${error instanceof Error ? error.message : String(error)}).`, { cause: error });
  }
  checkSize(fileName, stat.size, caps);
  return vscode.workspace.fs.readFile(uri);
}
