import * as vscode from 'vscode';
import { FileNotReadError, NodeFileSystem, type DirEntry, type FileStat, type SearchFileSystem } from '../../core/search';
import { readWorkspaceBytes } from '../../platform/workspaceFiles';

/**
 * The workspace folder through VS Code's file system API (remote and virtual folders), confined
 * like the local one: a symbolic link is never followed there (its target cannot be checked), and
 * reads go through the workspace reader (size checked before reading).
 */
class VscodeFileSystem implements SearchFileSystem {
  constructor(private readonly root: vscode.Uri) {}

  private uri(path: string): vscode.Uri {
    return path === '' ? this.root : vscode.Uri.joinPath(this.root, ...path.split('/'));
  }

  async list(dir: string): Promise<DirEntry[]> {
    if (dir !== '' && (await vscode.workspace.fs.stat(this.uri(dir))).type & vscode.FileType.SymbolicLink) throw new FileNotReadError(dir, 'outside');
    const entries = await vscode.workspace.fs.readDirectory(this.uri(dir));
    return entries.map(([name, type]) => ({
      name,
      kind: type & vscode.FileType.SymbolicLink ? 'other' : type & vscode.FileType.Directory ? 'directory' : type & vscode.FileType.File ? 'file' : 'other',
    }));
  }

  async stat(path: string): Promise<FileStat | undefined> {
    try {
      const s = await vscode.workspace.fs.stat(this.uri(path));
      return s.type & vscode.FileType.File && !(s.type & vscode.FileType.SymbolicLink) ? { size: s.size, mtime: s.mtime } : undefined;
    } catch {
      return undefined;
    }
  }

  async read(path: string, maxBytes: number): Promise<Uint8Array> {
    const r = await readWorkspaceBytes(this.uri(path), { maxBytes, overCap: 'refuse' });
    if (!r.ok) throw new FileNotReadError(path, r.reason);
    return r.bytes;
  }
}

/** node:fs for local folders (much faster for thousands of files), VS Code's API otherwise. */
export function workspaceFileSystem(folder: vscode.Uri): SearchFileSystem {
  return folder.scheme === 'file' ? new NodeFileSystem(folder.fsPath) : new VscodeFileSystem(folder);
}

/** Workspace-relative path with forward slashes, or undefined outside the folder. */
export function relativePath(folder: vscode.Uri, uri: vscode.Uri): string | undefined {
  if (uri.scheme !== folder.scheme || uri.authority !== folder.authority) return undefined;
  const base = folder.path.endsWith('/') ? folder.path : `${folder.path}/`;
  return uri.path.startsWith(base) ? uri.path.slice(base.length) : undefined;
}
