import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CompletionOutcome } from '../../src/features/completion/register';
import { control, eventually, requests, sandbox } from './sandbox';
import { revertAndCloseEditors, untitledDocument } from './editors';

/** "1 2 3 … n": what the sandbox's scripted model streams for "long n". */
function counting(n: number): string {
  return Array.from({ length: n }, (_, i) => String(i + 1)).join(' ');
}

async function lastSeq(): Promise<number> {
  return Math.max(0, ...(await requests('/v1/completions')).map((r) => r.seq));
}

/** Opens an untitled document with `content`, selects `line` of it, and makes it the active editor. */
async function editorWith(content: string, line: number): Promise<vscode.TextEditor> {
  const document = await untitledDocument(content, 'plaintext');
  const editor = await vscode.window.showTextDocument(document, vscode.ViewColumn.One);
  editor.selection = new vscode.Selection(line, 0, line, document.lineAt(line).text.length);
  return editor;
}

/** Applies an edit as a person typing would; a programmatic edit racing the streamed ones is refused (version check), so it is tried again. */
async function type(document: vscode.TextDocument, at: vscode.Position, text: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    const edit = new vscode.WorkspaceEdit();
    edit.insert(document.uri, at, text);
    if (await vscode.workspace.applyEdit(edit)) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.fail(`could not type ${JSON.stringify(text)}`);
}


describe('Complete Selection (against the sandbox)', function () {
  this.timeout(60_000);

  // Each test sets up what it needs: key, model, no faults, no editors.
  beforeEach(async () => {
    await control('/reset', {});
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
    await vscode.workspace.getConfiguration('stratus').update('chat.model', 'gpt-oss:120b', vscode.ConfigurationTarget.Global);
    await revertAndCloseEditors();
  });
  after(async () => {
    await control('/reset', {});
    await vscode.workspace.getConfiguration('stratus').update('chat.model', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('stratus.removeApiKey');
    await vscode.commands.executeCommand('stratus.signOutOfConsole');
    await revertAndCloseEditors();
  });

  it('streams the completion after the selection through /v1/completions, as one undoable edit', async () => {
    const document = await untitledDocument('function add(a, b) {', 'javascript');
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(0, 0, 0, document.lineAt(0).text.length);
    const outcome = await vscode.commands.executeCommand<CompletionOutcome>('stratus.completeSelection');
    const expected = 'function add(a, b) {Echo (gpt-oss:120b): Language: javascript\n\nfunction add(a, b) {';
    await eventually(async () => (document.getText() === expected ? true : undefined), 'the completion in the editor');
    assert.equal(outcome.status, 'completed');
    const seen = await requests('/v1/completions');
    const last = seen.at(-1);
    assert.ok(last?.streamed, 'the completion was streamed');
    await vscode.commands.executeCommand('undo');
    assert.equal(document.getText(), 'function add(a, b) {', 'one undo removes the whole completion');
  });

  for (const [what, leave] of [
    ['switching to another tab', async () => { await vscode.window.showTextDocument(await untitledDocument('elsewhere', 'plaintext'), vscode.ViewColumn.One); }],
    ['closing the editor', async () => { await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor'); }],
  ] as const) {
    it(`${what} mid-stream stops the request (the sandbox sees the connection closed) and keeps what was inserted`, async () => {
      await control('/latency', { ms: 0, chunkDelayMs: 40, pathPrefix: '/v1/completions' });
      const before = await lastSeq();
      const editor = await editorWith('long 300', 0);
      const document = editor.document;
      assert.equal(vscode.window.activeTextEditor?.document, document, 'the document to complete is in the active editor');
      const running = vscode.commands.executeCommand<CompletionOutcome>('stratus.completeSelection');
      // If the command ends before any text shows, say how it ended rather than time out blind.
      const endedFirst = Promise.resolve(running).then((outcome) => assert.fail(`Complete Selection ended before the first words: ${JSON.stringify(outcome)}; text ${JSON.stringify(document.getText())}`));
      endedFirst.catch(() => undefined);
      await Promise.race([eventually(async () => (document.getText().startsWith('long 3001 2 3 ') ? true : undefined), 'the first words in the editor'), endedFirst]);
      await leave();
      const outcome = await running;
      assert.equal(outcome.status, 'refused', JSON.stringify(outcome));
      assert.match(outcome.message ?? '', /no longer accepts the completion .*so the request was stopped/);
      const closed = await eventually(async () => (await requests('/v1/completions')).find((r) => r.seq > before && r.clientClosedEarly), 'the sandbox to see the request closed early', 10_000);
      assert.ok(closed.chunksSent < 300, `stopped after ${closed.chunksSent} of 300 chunks`);
      if (!document.isClosed) assert.ok(document.getText().startsWith(`long 300${counting(3)} `), 'what was inserted is kept');
    });
  }

  it('keeps the insertion point right when text is typed above it while streaming', async () => {
    await control('/latency', { ms: 0, chunkDelayMs: 30, pathPrefix: '/v1/completions' });
    const editor = await editorWith('first line\nlong 40', 1);
    const document = editor.document;
    const running = vscode.commands.executeCommand<CompletionOutcome>('stratus.completeSelection');
    await eventually(async () => (document.getText().includes('long 401 2 ') ? true : undefined), 'the first words in the editor');
    // A new line above, then text typed at the start of the completion's own line.
    await type(document, new vscode.Position(0, 0), 'typed above\n');
    await eventually(async () => (document.getText().includes('long 401 2 3 4 5 6 ') ? true : undefined), 'more words');
    await type(document, new vscode.Position(2, 0), '> ');
    const outcome = await running;
    assert.equal(outcome.status, 'completed', JSON.stringify(outcome));
    assert.equal(document.getText(), `typed above\nfirst line\n> long 40${counting(40)}`);
  });
});
