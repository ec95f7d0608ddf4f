import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { control, eventually, requests, sandbox } from './sandbox';

describe('Complete Selection (against the sandbox)', function () {
  this.timeout(60_000);

  before(async () => {
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
    await vscode.workspace.getConfiguration('stratus').update('chat.model', 'gpt-oss:120b', vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await control('/reset', {});
    await vscode.workspace.getConfiguration('stratus').update('chat.model', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('stratus.signOut');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('streams the completion after the selection through /v1/completions, as one undoable edit', async () => {
    const document = await vscode.workspace.openTextDocument({ content: 'function add(a, b) {', language: 'javascript' });
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(0, 0, 0, document.lineAt(0).text.length);
    await vscode.commands.executeCommand('stratus.completeSelection');
    const expected = 'function add(a, b) {Echo (gpt-oss:120b): Language: javascript\n\nfunction add(a, b) {';
    await eventually(async () => (document.getText() === expected ? true : undefined), 'the completion in the editor');
    const seen = await requests('/v1/completions');
    const last = seen.at(-1);
    assert.ok(last?.streamed, 'the completion was streamed');
    await vscode.commands.executeCommand('undo');
    assert.equal(document.getText(), 'function add(a, b) {', 'one undo removes the whole completion');
  });
});
