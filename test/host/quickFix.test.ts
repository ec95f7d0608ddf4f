import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatOutcome } from '../../src/features/quickFix/register';
import type { EditArgs, ExplainDiagnosticArgs } from '../../src/features/quickFix/provider';
import { control, eventually, requests, sandbox } from './sandbox';

const SOURCE = `function total(items) {
  return items.reduce((sum, item) => sum + item.price);
}

const unused = 1;
`;

async function lastSeq(): Promise<number> {
  return Math.max(0, ...(await requests('/v1/chat/completions')).map((r) => r.seq));
}

describe('Quick fixes: Fix and Explain with Stratus', function () {
  this.timeout(60_000);
  let diagnostics: vscode.DiagnosticCollection;
  let document: vscode.TextDocument;
  let reduceProblem: vscode.Diagnostic;

  beforeEach(async () => {
    await control('/reset', {});
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
    diagnostics = vscode.languages.createDiagnosticCollection('stratus-test');
    document = await vscode.workspace.openTextDocument({ content: SOURCE, language: 'javascript' });
    await vscode.window.showTextDocument(document);
    reduceProblem = new vscode.Diagnostic(new vscode.Range(1, 9, 1, 47), 'Reduce of empty array with no initial value.', vscode.DiagnosticSeverity.Error);
    reduceProblem.source = 'checker';
    reduceProblem.code = { value: 'E1001', target: vscode.Uri.parse('https://example.com/E1001') };
    const unusedProblem = new vscode.Diagnostic(new vscode.Range(4, 6, 4, 12), "'unused' is assigned a value but never used.", vscode.DiagnosticSeverity.Warning);
    unusedProblem.source = 'lint';
    diagnostics.set(document.uri, [reduceProblem, unusedProblem]);
  });
  afterEach(async () => {
    diagnostics.dispose();
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
  after(async () => {
    await control('/reset', {});
    await vscode.commands.executeCommand('stratus.removeApiKey');
  });

  /**
   * The light bulb's actions, as the editor asks for them. In a fresh window the JavaScript
   * language server may still be starting: its provider's cancellation fails the whole request,
   * and the editor simply asks again, as this does.
   */
  async function quickFixes(range: vscode.Range, kind = vscode.CodeActionKind.QuickFix.value): Promise<vscode.CodeAction[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', document.uri, range, kind);
        return actions.filter((a) => a.title.includes('with Stratus'));
      } catch (error) {
        if (attempt === 10 || !(error instanceof Error) || error.message !== 'Canceled') throw error;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }

  it('offers Fix with Stratus on a diagnostic: the edit command on its enclosing block, with the diagnostic as the instruction, and sends no request', async () => {
    const before = await lastSeq();
    const actions = await quickFixes(new vscode.Range(1, 12, 1, 12));
    assert.deepEqual(actions.map((a) => a.title), ['Fix with Stratus', 'Explain with Stratus']);
    const fix = actions[0] as vscode.CodeAction;
    assert.equal(fix.kind?.value, vscode.CodeActionKind.QuickFix.value);
    assert.equal(fix.command?.command, 'stratus.editWithInstruction');
    const args: EditArgs = {
      uri: document.uri.toString(),
      range: { start: { line: 1, character: 9 }, end: { line: 1, character: 9 } },
      instruction: 'Fix this error reported by checker (E1001): Reduce of empty array with no initial value.',
    };
    assert.deepEqual(fix.command?.arguments, [args]);
    // Asking for the light bulb's actions reached no server.
    assert.equal(await lastSeq(), before);
  });

  it('offers nothing outside the diagnostics\' ranges or for another kind of action, and one pair per diagnostic on the range', async () => {
    assert.deepEqual(await quickFixes(new vscode.Range(3, 0, 3, 0)), []);
    assert.deepEqual(await quickFixes(new vscode.Range(1, 12, 1, 12), vscode.CodeActionKind.Refactor.value), []);
    const both = await quickFixes(new vscode.Range(0, 0, 4, 12));
    assert.deepEqual(both.map((a) => a.title), [
      'Fix with Stratus: Reduce of empty array with no initial value.',
      'Explain with Stratus: Reduce of empty array with no initial value.',
      "Fix with Stratus: 'unused' is assigned a value but never used.",
      "Explain with Stratus: 'unused' is assigned a value but never used.",
    ]);
  });

  it('Explain with Stratus opens @stratus in the Chat view with the diagnostic, its code and the code around it', async () => {
    const [, explain] = await quickFixes(new vscode.Range(1, 12, 1, 12));
    assert.equal(explain?.command?.command, 'stratus.explainDiagnostic');
    const args = explain?.command?.arguments?.[0] as ExplainDiagnosticArgs;
    assert.deepEqual(args.diagnostic, { message: reduceProblem.message, source: 'checker', code: 'E1001', severity: 'error', line: 1 });
    const before = await lastSeq();
    const outcome = await vscode.commands.executeCommand<ChatOutcome>(explain?.command?.command ?? '', ...(explain?.command?.arguments ?? []));
    assert.match(outcome.query ?? '', /^@stratus Explain this error reported by checker \(E1001\) in `[^`]+` at line 2, why it happens and how to fix it:/);
    assert.match(outcome.query ?? '', /```javascript\nfunction total\(items\) \{\n {2}return items\.reduce/);
    const answered = await eventually(async () => (await requests('/v1/chat/completions')).find((r) => r.seq > before && r.status === 200), '@stratus to send the explanation request');
    const body = answered.body?.json as { messages?: { role: string; content: unknown }[] } | undefined;
    assert.match(String(body?.messages?.at(-1)?.content), /^Explain this error reported by checker \(E1001\)/);
  });

  it('Explain with Stratus in the editor menu sends the selected code to @stratus in the Chat view', async () => {
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document, document);
    editor.selection = new vscode.Selection(0, 0, 2, 1);
    const before = await lastSeq();
    const outcome = await vscode.commands.executeCommand<ChatOutcome>('stratus.explainSelection');
    assert.match(outcome.query ?? '', /^@stratus Explain what this code from `[^`]+` \(lines 1-3\) does, step by step:\n\n```javascript\nfunction total\(items\) \{\n[^\n]*\n\}\n```$/);
    await eventually(async () => (await requests('/v1/chat/completions')).find((r) => r.seq > before && r.status === 200), '@stratus to send the explanation request');
  });
});
