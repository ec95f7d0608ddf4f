import * as vscode from 'vscode';

/** One file of a multi-file diff: the file it is about, its left side, its right side. */
export type ChangeEntry = readonly [resource: vscode.Uri, original: vscode.Uri, modified: vscode.Uri];

/**
 * The one way Stratus shows changes to several files: VS Code's multi-file diff editor
 * (`vscode.changes`), or one diff per file where this VS Code has no such command. The agent's
 * "Review changes" and the batch results' review both open their changes here.
 */
export async function openChanges(title: string, entries: readonly ChangeEntry[], fileTitle: (resource: vscode.Uri) => string): Promise<'changes' | 'diff' | 'none'> {
  if (entries.length === 0) return 'none';
  if ((await vscode.commands.getCommands(true)).includes('vscode.changes')) {
    await vscode.commands.executeCommand('vscode.changes', title, entries.map((e) => [...e]));
    return 'changes';
  }
  for (const [resource, original, modified] of entries) {
    await vscode.commands.executeCommand('vscode.diff', original, modified, fileTitle(resource), { preview: false });
  }
  return 'diff';
}
