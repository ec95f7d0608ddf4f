import { relative, sep, isAbsolute } from 'node:path';
import * as vscode from 'vscode';
import { loadFolderInstructions, type InstructionsReader } from '../../core/agent/instructions';
import { readWorkspaceBytes } from '../../platform/workspaceFiles';

/** Larger instruction files are read up to this size (and then capped to the context). */
const MAX_INSTRUCTIONS_BYTES = 256 * 1024;

function folderReader(folder: vscode.WorkspaceFolder): InstructionsReader {
  return {
    readFile: async (rel) => {
      const read = await readWorkspaceBytes(vscode.Uri.joinPath(folder.uri, ...rel.split('/')), { maxBytes: MAX_INSTRUCTIONS_BYTES, overCap: 'truncate' });
      return read.ok && !read.binary ? new TextDecoder('utf-8').decode(read.bytes) : undefined;
    },
    listFiles: async (rel) => {
      try {
        const entries = await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(folder.uri, ...rel.split('/')));
        return entries.filter(([, type]) => (type & vscode.FileType.File) !== 0).map(([name]) => name);
      } catch {
        return [];
      }
    },
  };
}

/**
 * The repository instructions (AGENTS.md, copilot-instructions, applyTo files) that apply to the
 * edited file, through the agent's own discovery and capping (src/core/agent/instructions) and the
 * confined reader; '' outside a workspace folder, in an untrusted workspace, or when
 * `stratus.agent.useInstructionFiles` is off.
 */
export async function repositoryInstructions(uri: vscode.Uri, maxModelLen: number): Promise<string> {
  if (vscode.workspace.getConfiguration('stratus').get<boolean>('agent.useInstructionFiles', true) === false) return '';
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (!folder || folder.uri.scheme !== uri.scheme) return '';
  const rel = folder.uri.scheme === 'file' ? relative(folder.uri.fsPath, uri.fsPath) : uri.path.slice(folder.uri.path.replace(/\/$/, '').length + 1);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return '';
  try {
    const loaded = await loadFolderInstructions([{ name: folder.name, reader: folderReader(folder), contextFiles: [rel.split(sep).join('/')] }], { trusted: vscode.workspace.isTrusted }, maxModelLen);
    return loaded.text;
  } catch {
    // Instructions are context, not a requirement: an unreadable file never blocks an edit.
    return '';
  }
}
