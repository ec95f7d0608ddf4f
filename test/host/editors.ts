import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const handedOut = new WeakSet<vscode.TextDocument>();

/**
 * A new untitled document whose initial text is `content` (not an edit: next edit's history and
 * Edit Again see none). `openTextDocument({ content })` names it "Untitled-N" and reuses the N of
 * a document just closed; on a loaded host it came back holding the previous test's text (the
 * closed one's backup, or the extension host's copy of it, not yet dropped). Such a document is
 * never handed out: the name is then taken, so asking again gives a new one.
 */
export async function untitledDocument(content: string, language: string): Promise<vscode.TextDocument> {
  const seen: string[] = [];
  for (let attempt = 0; attempt < 5; attempt++) {
    const document = await vscode.workspace.openTextDocument({ content, language });
    if (!handedOut.has(document) && document.getText() === content && document.languageId === language) {
      handedOut.add(document);
      return document;
    }
    seen.push(`${document.uri.toString()} holding ${JSON.stringify(document.getText().slice(0, 60))}`);
  }
  assert.fail(`no new untitled document: ${seen.join('; ')}`);
}

/** Reverts and closes every editor (the documents are untitled: no save prompts). */
export async function revertAndCloseEditors(): Promise<void> {
  for (let i = 0; i < 20 && vscode.window.visibleTextEditors.length > 0; i++) await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
}
