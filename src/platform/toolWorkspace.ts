import * as vscode from 'vscode';
import { confinePath, type WorkspaceRoot } from '../core/agent/paths';
import { locateWriteTarget } from '../core/agent/writeTarget';
import { readWorkspaceText } from './workspaceFiles';
import { stratusConfiguration } from './settings';

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
  /** Where a write lands once symbolic links are resolved: the folder holding it and the path in it. */
  readonly lands: { readonly root: WorkspaceRoot; readonly relative: string };
}

const UNLOCATED: Record<'outside' | 'dangling' | 'unresolvable', (input: string) => string> = {
  outside: (input) => `"${input}" resolves (through a symbolic link) to a place outside the workspace folders; only files inside them can be used.`,
  dangling: (input) => `"${input}" goes through a symbolic link whose target does not exist; a file written there would land wherever the link points, so it is not used.`,
  unresolvable: (input) => `"${input}" cannot be resolved on disk (a loop of symbolic links, or a folder that cannot be read).`,
};

/**
 * Resolves a model-given path to a file inside the workspace: the string checks of confinePath,
 * then where it lands (the one judge, `locateWriteTarget`: the real path of the file, or of its
 * deepest existing folder for a new file) must still be inside the real path of a workspace folder.
 */
export async function resolveWorkspacePath(input: unknown): Promise<WorkspaceFile> {
  if (typeof input !== 'string') throw new ToolFailure('The path must be a string relative to the workspace folder.');
  const roots = workspaceRoots();
  const confined = confinePath(roots, input);
  if (!confined.ok) throw new ToolFailure(confined.reason);
  const located = await locateWriteTarget(confined.fsPath, roots.map((r) => r.fsPath));
  if (!located.ok) throw new ToolFailure(UNLOCATED[located.reason](input));
  const root = roots[located.rootIndex] ?? confined.root;
  return { uri: vscode.Uri.file(confined.fsPath), relative: confined.relative, exists: located.exists, lands: { root, relative: located.relative } };
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
  return Math.max(1000, stratusConfiguration('stratus').get<number>('tools.maxFileBytes', 200_000));
}
