import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { EditOutcome, ReviewOutcome } from '../../src/features/edit/register';
import type { EditArgs } from '../../src/features/quickFix/provider';
import { control, eventually, sandbox } from './sandbox';
import { revertAndCloseEditors, untitledDocument } from './editors';

// Issue 31, item 5: the lines an edit, a quick fix or a review works on follow the document from
// the moment they are chosen (or the run refuses as stale), whatever awaits come in between.

const FUNCTION = ['const header = 1;', 'function total(value) {', '  const tax = value * 0.2;', '  log("computing");', '  return value + tax;', '}', 'const footer = 2;'].join('\n');
const RENAMED = FUNCTION.replace(/\bvalue\b/g, 'amount');
const ABOVE = '// added above\n// while the box was open\n';

/** A new document for each test, shown and active (see `untitledDocument` for why a name of its own). */
async function open(content: string, language = 'javascript'): Promise<vscode.TextEditor> {
  const document = await untitledDocument(content, language);
  const editor = await vscode.window.showTextDocument(document, vscode.ViewColumn.One);
  await eventually(() => Promise.resolve(vscode.window.activeTextEditor?.document === document ? true : undefined), 'the new document\'s editor to be active');
  return editor;
}

function edit(args?: unknown): Thenable<EditOutcome> {
  return vscode.commands.executeCommand<EditOutcome>('stratus.editWithInstruction', args);
}

/** Presses Enter in the instruction box until the run it starts has answered (the box shows after the model list). */
async function acceptInstructionBox(running: Thenable<EditOutcome>): Promise<EditOutcome> {
  let outcome: EditOutcome | undefined;
  void running.then((o) => (outcome = o));
  return eventually(async () => {
    if (outcome) return outcome;
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    return outcome;
  }, 'the instruction box to be accepted and the edit to answer');
}

describe('Anchored ranges: an edit lands on the lines chosen, wherever they moved', function () {
  this.timeout(60_000);

  beforeEach(async () => {
    await control('/reset', {});
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
    await vscode.workspace.getConfiguration('stratus').update('chat.model', 'gpt-oss:120b', vscode.ConfigurationTarget.Global);
    await revertAndCloseEditors();
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('stratus.edit.rejectAll');
  });
  after(async () => {
    await control('/reset', {});
    await vscode.workspace.getConfiguration('stratus').update('chat.model', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('stratus.removeApiKey');
    await revertAndCloseEditors();
  });

  /** The function selected, with "rename value to amount" first in the instruction box's history. */
  async function selectedFunction(): Promise<vscode.TextEditor> {
    const editor = await open(FUNCTION);
    const seeded = await edit({ uri: editor.document.uri.toString(), range: { start: { line: 1, character: 0 }, end: { line: 5, character: 1 } }, instruction: 'rename value to amount' });
    assert.equal(seeded.status, 'review', JSON.stringify(seeded));
    assert.equal(await vscode.commands.executeCommand<ReviewOutcome>('stratus.edit.rejectAll'), 'rejected');
    assert.equal(editor.document.getText(), FUNCTION);
    editor.selection = new vscode.Selection(1, 0, 5, 1);
    return editor;
  }

  it('Edit with Instruction: lines inserted above while the instruction box is open; the rewrite lands on the selected lines', async () => {
    const editor = await selectedFunction();
    const running = edit();
    assert.ok(await editor.edit((b) => b.insert(new vscode.Position(0, 0), ABOVE)));
    const outcome = await acceptInstructionBox(running);
    assert.equal(outcome.status, 'review', JSON.stringify(outcome));
    assert.equal(await vscode.commands.executeCommand<ReviewOutcome>('stratus.edit.acceptAll'), 'accepted');
    assert.equal(editor.document.getText(), ABOVE + RENAMED, 'the lines above kept, the function rewritten once');
  });

  it('Edit with Instruction: the selected text itself changed while the box is open; refused as stale, nothing else touched', async () => {
    const editor = await selectedFunction();
    const running = edit();
    assert.ok(await editor.edit((b) => b.insert(new vscode.Position(3, 0), '  // typed\n')));
    const outcome = await acceptInstructionBox(running);
    assert.equal(outcome.status, 'refused', JSON.stringify(outcome));
    assert.match(outcome.message ?? '', /text changed/);
    assert.equal(editor.document.getText(), FUNCTION.replace('  log(', '  // typed\n  log('));
  });

  it('Edit Again after lines were inserted above the accepted rewrite refines it where it moved', async () => {
    const editor = await open(FUNCTION);
    const first = await edit({ uri: editor.document.uri.toString(), range: { start: { line: 1, character: 0 }, end: { line: 5, character: 1 } }, instruction: 'rename value to amount' });
    assert.equal(first.status, 'review', JSON.stringify(first));
    assert.equal(await vscode.commands.executeCommand<ReviewOutcome>('stratus.edit.acceptAll'), 'accepted');
    assert.ok(await editor.edit((b) => b.insert(new vscode.Position(0, 0), ABOVE)));
    const again = await vscode.commands.executeCommand<EditOutcome>('stratus.editAgain', { instruction: 'rename amount to price' });
    assert.equal(again.status, 'review', JSON.stringify(again));
    assert.equal(await vscode.commands.executeCommand<ReviewOutcome>('stratus.edit.acceptAll'), 'accepted');
    assert.equal(editor.document.getText(), ABOVE + FUNCTION.replace(/\bvalue\b/g, 'price'));
  });

  it('Fix with Stratus: lines inserted above after the light bulb offered it, and again during the review; it applies where the function moved', async () => {
    const source = 'function total(items) {\n  return items.reduce((sum, item) => sum + item.price);\n}\n\nconst items = [];\n';
    const symbols = vscode.languages.registerDocumentSymbolProvider({ language: 'javascript', scheme: 'untitled' }, {
      // The function wherever it is in the text now.
      provideDocumentSymbols: (document) => {
        const first = document.getText().split('\n').findIndex((l) => l.startsWith('function total'));
        return first < 0 ? [] : [new vscode.DocumentSymbol('total', '', vscode.SymbolKind.Function, new vscode.Range(first, 0, first + 2, 1), new vscode.Range(first, 9, first, 14))];
      },
    });
    const diagnostics = vscode.languages.createDiagnosticCollection('stratus-anchors');
    try {
      const editor = await open(source);
      const document = editor.document;
      const message = 'rename items to entries';
      diagnostics.set(document.uri, [new vscode.Diagnostic(new vscode.Range(1, 9, 1, 14), message, vscode.DiagnosticSeverity.Error)]);
      const actions = await eventually(async () => {
        try {
          const found = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', document.uri, new vscode.Range(1, 11, 1, 11), vscode.CodeActionKind.QuickFix.value);
          return found.some((a) => a.command?.command === 'stratus.editWithInstruction') ? found : undefined;
        } catch {
          return undefined;
        }
      }, 'Fix with Stratus on the diagnostic');
      const fix = actions.find((a) => a.command?.command === 'stratus.editWithInstruction');
      const args = fix?.command?.arguments?.[0] as EditArgs;
      assert.equal(args.range.start.line, 1);
      assert.ok(await editor.edit((b) => b.insert(new vscode.Position(0, 0), ABOVE)));
      const outcome = await edit(args);
      assert.equal(outcome.status, 'review', JSON.stringify(outcome));
      assert.ok(await editor.edit((b) => b.insert(new vscode.Position(0, 0), '// and during the review\n')));
      assert.equal(await vscode.commands.executeCommand<ReviewOutcome>('stratus.edit.acceptAll'), 'accepted');
      const fixed = source.replace('function total(items) {\n  return items.reduce', 'function total(entries) {\n  return entries.reduce');
      assert.equal(document.getText(), `// and during the review\n${ABOVE}${fixed}`);
    } finally {
      diagnostics.dispose();
      symbols.dispose();
    }
  });
});
