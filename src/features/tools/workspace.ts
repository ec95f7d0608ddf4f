import { realpath } from 'node:fs/promises';
import * as vscode from 'vscode';
import { confinePath, isInside, type WorkspaceRoot } from '../../core/agent/paths';
import { readWorkspaceText } from '../../platform/workspaceFiles';

/** A tool failure whose message tells the model what went wrong and what to do instead. */
export class ToolFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolFailure';
  }
}

export function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

export function workspaceRoots(): WorkspaceRoot[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => ({ name: f.name, fsPath: f.uri.fsPath }));
}

export interface WorkspaceFile {
  readonly uri: vscode.Uri;
  /** `/`-separated path relative to its folder, as tools report it. */
  readonly relative: string;
  readonly exists: boolean;
}

async function realOrUndefined(fsPath: string): Promise<string | undefined> {
  try {
    return await realpath(fsPath);
  } catch {
    return undefined;
  }
}

/**
 * Resolves a model-given path to a file inside the workspace: the string checks of confinePath,
 * then the real path (symlinks resolved) of the file, or of its nearest existing parent for a new
 * file, must still be inside the real path of a workspace folder.
 */
export async function resolveWorkspacePath(input: unknown): Promise<WorkspaceFile> {
  if (typeof input !== 'string') throw new ToolFailure('The path must be a string relative to the workspace folder.');
  const roots = workspaceRoots();
  const confined = confinePath(roots, input);
  if (!confined.ok) throw new ToolFailure(confined.reason);
  const realRoots = (await Promise.all(roots.map((r) => realOrUndefined(r.fsPath)))).filter((r): r is string => r !== undefined);
  let probe = confined.fsPath;
  let exists = true;
  let real = await realOrUndefined(probe);
  while (real === undefined) {
    exists = false;
    const parent = probe.replace(/[\\/][^\\/]*$/, '');
    if (parent === probe || parent === '') break;
    probe = parent;
    real = await realOrUndefined(probe);
  }
  if (real === undefined || !realRoots.some((root) => isInside(root, real))) {
    throw new ToolFailure(`"${input}" resolves (through a symbolic link) to a place outside the workspace folders; only files inside them can be used.`);
  }
  return { uri: vscode.Uri.file(confined.fsPath), relative: confined.relative, exists };
}

/** A workspace-relative display path for a URI (the folder name first in a multi-root workspace). */
export function displayPath(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}

/**
 * Reads at most `maxBytes` of a workspace file through the confined reader (the size is checked
 * before reading; a symbolic link that leaves the workspace is refused); says whether it was cut
 * and whether it looks binary. An editor's unsaved text wins over the disk.
 */
export async function readCapped(uri: vscode.Uri, maxBytes: number): Promise<{ text: string; size: number; truncated: boolean; binary: boolean }> {
  const read = await readWorkspaceText(uri, maxBytes);
  if (read.ok) return read;
  const shown = displayPath(uri);
  switch (read.reason) {
    case 'gone':
      throw new ToolFailure(`The file "${shown}" does not exist. Use stratus_listFiles to find the right path.`);
    case 'outside':
      throw new ToolFailure(`"${shown}" resolves (through a symbolic link) to a place outside the workspace folders; only files inside them can be used.`);
    case 'not_file':
      if (read.detail === 'directory') throw new ToolFailure(`"${shown}" is a folder, not a file. Use stratus_listFiles with a glob such as "${shown}/**".`);
      throw new ToolFailure(`"${shown}" is not a regular file (a pipe, socket or device); only files can be read.`);
    case 'too_large':
      throw new ToolFailure(`"${shown}" has ${(read.size ?? 0).toLocaleString('en')} bytes; on this file system only files of at most ${maxBytes.toLocaleString('en')} bytes can be read (whole; setting stratus.tools.maxFileBytes), not the start of a larger one.`);
    default:
      throw new ToolFailure(`"${shown}" cannot be read${read.detail ? ` (${read.detail})` : ''}.`);
  }
}

export function maxFileBytes(): number {
  return Math.max(1000, vscode.workspace.getConfiguration('stratus').get<number>('tools.maxFileBytes', 200_000));
}
