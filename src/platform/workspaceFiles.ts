import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { ConfinedReader, looksBinary, type ConfinedRead } from '../core/workspace/confinedReader';

/**
 * The VS Code side of the confined workspace reader (src/core/workspace/confinedReader.ts): every
 * read of a workspace file by a Stratus feature goes through here or through the core reader.
 * - `file` URIs: the core reader over the real paths of the local workspace folders (symbolic
 *   links that leave them refused, size checked on the open descriptor before reading).
 * - Other schemes (virtual file systems; a remote window runs this extension on the remote host,
 *   where the folder is `file` again): the URI must be inside a workspace folder;
 *   `vscode.workspace.fs.stat` first; a file the provider flags as a symbolic link is refused (its
 *   target cannot be checked there; folders on the way are not stat-ed one by one, virtual file
 *   systems have no links), as is anything over the cap (that API cannot read part of a file).
 */

/** The local workspace folders (real paths resolved by the reader). */
export function localWorkspaceReader(): ConfinedReader {
  return new ConfinedReader((vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath));
}

function insideFolder(uri: vscode.Uri): boolean {
  return (vscode.workspace.workspaceFolders ?? []).some((f) => {
    if (f.uri.scheme !== uri.scheme || f.uri.authority !== uri.authority) return false;
    const base = f.uri.path.endsWith('/') ? f.uri.path : `${f.uri.path}/`;
    return uri.path === f.uri.path || uri.path.startsWith(base);
  });
}

/**
 * Whether a local path is inside the workspace folders' real paths; for a file not on disk yet (an
 * editor's new file), its nearest existing folder is.
 */
function locatedInside(fsPath: string): boolean {
  const reader = localWorkspaceReader();
  for (let probe = fsPath; ; ) {
    const where = reader.resolve(probe);
    if (where.ok) return true;
    const parent = dirname(probe);
    if (where.reason !== 'gone' || parent === probe) return false;
    probe = parent;
  }
}

/** The bytes of a workspace file on disk (open editors ignored), at most `maxBytes` of them. */
export async function readWorkspaceBytes(uri: vscode.Uri, options: { maxBytes: number; overCap: 'refuse' | 'truncate' }): Promise<ConfinedRead> {
  if (uri.scheme === 'file') return localWorkspaceReader().read(uri.fsPath, options);
  if (!insideFolder(uri)) return { ok: false, reason: 'outside' };
  let stat: vscode.FileStat;
  try {
    stat = await vscode.workspace.fs.stat(uri);
  } catch (error) {
    return { ok: false, reason: error instanceof vscode.FileSystemError && error.code === 'FileNotFound' ? 'gone' : 'unreadable' };
  }
  if (stat.type & vscode.FileType.SymbolicLink) return { ok: false, reason: 'outside' };
  if (!(stat.type & vscode.FileType.File)) return { ok: false, reason: 'not_file', ...(stat.type & vscode.FileType.Directory ? { detail: 'directory' } : {}) };
  const stamp = { size: stat.size, mtime: stat.mtime };
  if (stat.size > options.maxBytes) return { ok: false, reason: 'too_large', stamp };
  let bytes: Uint8Array;
  try {
    bytes = await vscode.workspace.fs.readFile(uri);
  } catch (error) {
    return { ok: false, reason: 'unreadable', detail: error instanceof Error ? error.message : String(error) };
  }
  // It grew since the stat: keep the cap.
  const capped = bytes.subarray(0, options.maxBytes);
  return { ok: true, bytes: capped, stamp, truncated: bytes.length > capped.length, binary: looksBinary(capped) };
}

export type WorkspaceText =
  | { ok: true; text: string; size: number; truncated: boolean; binary: boolean }
  | { ok: false; reason: Exclude<ConfinedRead, { ok: true }>['reason']; detail?: string | undefined; size?: number | undefined };

/**
 * The text of a workspace file, at most `maxBytes` of it (a binary file's text is ''). An editor's
 * unsaved text wins over the disk, once the file itself is known to be inside the workspace.
 */
export async function readWorkspaceText(uri: vscode.Uri, maxBytes: number): Promise<WorkspaceText> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) {
    const inside = uri.scheme === 'file' ? locatedInside(uri.fsPath) : insideFolder(uri);
    if (!inside) return { ok: false, reason: 'outside' };
    const full = open.getText();
    return { ok: true, text: full.slice(0, maxBytes), size: full.length, truncated: full.length > maxBytes, binary: false };
  }
  const read = await readWorkspaceBytes(uri, { maxBytes, overCap: 'truncate' });
  if (!read.ok) return { ok: false, reason: read.reason, detail: read.detail, size: read.stamp?.size };
  return { ok: true, text: read.binary ? '' : new TextDecoder('utf-8').decode(read.bytes), size: read.stamp.size, truncated: read.truncated, binary: read.binary };
}
