import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatOutcome } from '../../src/features/quickFix/register';
import type { EditArgs, ExplainDiagnosticArgs } from '../../src/features/quickFix/provider';
import type { EditOutcome, ReviewOutcome } from '../../src/features/edit/register';
import { DOCUMENTATION_INSTRUCTION } from '../../src/features/quickFix/prompts';
import type { Sandbox } from '../sandbox/index';
import { useProductionSandbox } from './productionSandbox';
import { control, eventually, requests, sandbox } from './sandbox';
import { revertAndCloseEditors, untitledDocument } from './editors';
import { setGlobal } from './settingsState';

const SOURCE = `function total(items) {
  return items.reduce((sum, item) => sum + item.price);
}

const unused = 1;
`;

async function lastSeq(): Promise<number> {
  return Math.max(0, ...(await requests('/v1/chat/completions')).map((r) => r.seq));
}

/**
 * The light bulb's Stratus actions, as the editor asks for them. In a fresh window the JavaScript
 * language server may still be starting: its provider's cancellation fails the whole request,
 * and the editor simply asks again, as this does.
 */
async function quickFixesOn(document: vscode.TextDocument, range: vscode.Range, kind = vscode.CodeActionKind.QuickFix.value): Promise<vscode.CodeAction[]> {
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

describe('Quick fixes: Fix and Explain with Stratus', function () {
  this.timeout(60_000);
  let diagnostics: vscode.DiagnosticCollection;
  let document: vscode.TextDocument;
  let reduceProblem: vscode.Diagnostic;

  // The key once for the suite (storing it lists the models again): no test changes it.
  before(async () => {
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
  });
  beforeEach(async () => {
    await control('/reset', {});
    diagnostics = vscode.languages.createDiagnosticCollection('stratus-test');
    document = await untitledDocument(SOURCE, 'javascript');
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
    await revertAndCloseEditors();
  });
  after(async () => {
    await control('/reset', {});
    await vscode.commands.executeCommand('stratus.removeApiKey');
  });

  const quickFixes = (range: vscode.Range, kind?: string): Promise<vscode.CodeAction[]> => quickFixesOn(document, range, kind);

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
      version: document.version,
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

  it('Explain with Stratus after lines were added above explains the problem where it moved (issue 31, item 5)', async () => {
    const [, explain] = await quickFixes(new vscode.Range(1, 12, 1, 12));
    const edit = new vscode.WorkspaceEdit();
    edit.insert(document.uri, new vscode.Position(0, 0), Array.from({ length: 30 }, (_, i) => `// added line ${i + 1}\n`).join(''));
    assert.ok(await vscode.workspace.applyEdit(edit));
    // The checker publishes the problem again where it now is, as a language server does.
    const moved = new vscode.Diagnostic(new vscode.Range(31, 9, 31, 47), reduceProblem.message, reduceProblem.severity);
    moved.source = reduceProblem.source;
    moved.code = reduceProblem.code;
    diagnostics.set(document.uri, [moved]);
    const before = await lastSeq();
    const outcome = await vscode.commands.executeCommand<ChatOutcome>(explain?.command?.command ?? '', ...(explain?.command?.arguments ?? []));
    assert.match(outcome.query ?? '', /\(E1001\) in `[^`]+` at line 32,/);
    assert.match(outcome.query ?? '', /function total\(items\) \{\n {2}return items\.reduce/);
    // The request @stratus sends for it is answered within this test: left in flight, it reached the
    // sandbox during the next test, which counts the requests it caused.
    await eventually(async () => (await requests('/v1/chat/completions')).find((r) => r.seq > before && r.status === 200), '@stratus to send the explanation request');
  });

  it('Explain with Stratus refuses when the problem is no longer reported after the code changed (issue 31, item 5)', async () => {
    const [, explain] = await quickFixes(new vscode.Range(1, 12, 1, 12));
    const edit = new vscode.WorkspaceEdit();
    edit.insert(document.uri, new vscode.Position(0, 0), '// a new first line\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    diagnostics.set(document.uri, []);
    const before = await lastSeq();
    const outcome = await vscode.commands.executeCommand<ChatOutcome>(explain?.command?.command ?? '', ...(explain?.command?.arguments ?? []));
    assert.equal(outcome.query, undefined);
    assert.match(outcome.error ?? '', /no longer reported there/);
    assert.equal((await requests('/v1/chat/completions')).filter((r) => r.seq > before).length, 0, 'nothing sent');
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

/** The source the end-to-end tests edit: `items` inside the function and once outside it. */
const BLOCK_SOURCE = `function total(items) {
  return items.reduce((sum, item) => sum + item.price);
}

const items = [];
`;

/** The text of the edit request's user message the sandbox received after `afterSeq`. */
async function editPromptSent(list: () => Promise<{ seq: number; status: number | null; body: { json?: unknown } | null }[]>, afterSeq: number): Promise<string> {
  const sent = await eventually(async () => (await list()).find((r) => r.seq > afterSeq && r.body !== null), 'the edit request in the sandbox log');
  const messages = (sent.body?.json as { messages?: { role: string; content: unknown }[] } | undefined)?.messages ?? [];
  return messages.filter((m) => m.role === 'user').map((m) => String(m.content)).join('\n');
}

function rangeHeader(prompt: string): string | undefined {
  return /^The range to rewrite \(lines \d+-\d+\):$/m.exec(prompt)?.[0];
}

function endToEnd(profile: 'contract' | 'production'): void {
  describe(`Quick fixes end to end: through Edit with Instruction (${profile} sandbox)`, function () {
    this.timeout(60_000);
    let production: Sandbox | undefined;
    let restoreProfile: (() => Promise<void>) | undefined;
    let diagnostics: vscode.DiagnosticCollection;
    let symbols: vscode.Disposable;
    let editor: vscode.TextEditor;

    const list = async (): Promise<{ seq: number; status: number | null; body: { json?: unknown } | null }[]> => (production ? production.control.requests({ pathPrefix: '/v1/chat' }) : requests('/v1/chat'));
    const lastChatSeq = async (): Promise<number> => Math.max(0, ...(await list()).map((r) => r.seq));

    before(async () => {
      if (profile === 'production') ({ sandbox: production, restore: restoreProfile } = await useProductionSandbox());
      await vscode.commands.executeCommand('stratus.setApiKey', production ? production.credentials.apiKey : sandbox().apiKey);
    });
    beforeEach(async () => {
      await control('/reset', {});
      production?.control.reset();
      // The whole prompt in the request log (a reset shortens recorded strings again).
      await control('/recorded-strings', { maxChars: 200_000 });
      production?.control.setRecordedStringLimit(200_000);
      await setGlobal('stratus', 'chat.model', 'gpt-oss:120b');
      // The function as a symbol, whether or not the JavaScript language server has started.
      symbols = vscode.languages.registerDocumentSymbolProvider({ language: 'javascript', scheme: 'untitled' }, {
        provideDocumentSymbols: () => [new vscode.DocumentSymbol('total', '', vscode.SymbolKind.Function, new vscode.Range(0, 0, 2, 1), new vscode.Range(0, 9, 0, 14))],
      });
      diagnostics = vscode.languages.createDiagnosticCollection('stratus-e2e');
      const document = await untitledDocument(BLOCK_SOURCE, 'javascript');
      editor = await vscode.window.showTextDocument(document, vscode.ViewColumn.One);
    });
    afterEach(async () => {
      await vscode.commands.executeCommand('stratus.edit.rejectAll');
      diagnostics.dispose();
      symbols.dispose();
      await revertAndCloseEditors();
    });
    after(async () => {
      await control('/reset', {});
      await restoreProfile?.();
      await vscode.workspace.getConfiguration('stratus').update('chat.model', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('stratus.removeApiKey');
    });

    it('Fix with Stratus, run as the light bulb runs it, rewrites the enclosing function in review; Accept All keeps the rewrite', async () => {
      const document = editor.document;
      // The message carries the sandbox's rename rule, as the fix instruction quotes it.
      const message = "'items' shadows a global of the same name: rename items to entries";
      const problem = new vscode.Diagnostic(new vscode.Range(1, 9, 1, 14), message, vscode.DiagnosticSeverity.Error);
      problem.source = 'checker';
      problem.code = 'S1';
      diagnostics.set(document.uri, [problem]);
      const fix = (await quickFixesOn(document, new vscode.Range(1, 11, 1, 11))).find((a) => a.title.startsWith('Fix with Stratus') && (a.command?.arguments?.[0] as EditArgs | undefined)?.instruction.endsWith(message));
      assert.ok(fix?.command, `Fix with Stratus is offered with a command on the diagnostic: ${JSON.stringify(await quickFixesOn(document, new vscode.Range(1, 11, 1, 11)))}`);
      const before = await lastChatSeq();
      const outcome = await vscode.commands.executeCommand<EditOutcome>(fix.command.command, ...(fix.command.arguments ?? []));
      assert.equal(outcome.status, 'review', JSON.stringify(outcome));
      assert.ok(outcome.hunks >= 1);
      const shown = document.getText();
      assert.ok(shown.includes('function total(items) {') && shown.includes('function total(entries) {'), `removed and added lines both shown:\n${shown}`);

      const prompt = await editPromptSent(list, before);
      assert.equal(/^Instruction: .*$/m.exec(prompt)?.[0], `Instruction: Fix this error reported by checker (S1): ${message}`);
      assert.equal(rangeHeader(prompt), 'The range to rewrite (lines 1-3):', 'the range is the enclosing function');
      assert.equal(/^Problems reported in the range:\n.*$/m.exec(prompt)?.[0], `Problems reported in the range:\n- line 2 of the range: error: ${message} (checker)`);

      assert.equal(await vscode.commands.executeCommand<ReviewOutcome>('stratus.edit.acceptAll'), 'accepted');
      const fixed = BLOCK_SOURCE.replace('function total(items) {\n  return items.reduce', 'function total(entries) {\n  return entries.reduce');
      assert.equal(document.getText(), fixed, 'only the function was rewritten, not the `items` after it');
      await vscode.commands.executeCommand('undo');
      assert.equal(document.getText(), BLOCK_SOURCE, 'one undo puts the original back');
    });

    it('Fix with Stratus on a diagnostic with a very long message still runs the edit, the whole message in the prompt', async () => {
      const document = editor.document;
      const message = `rename items to entries: Type '{ ${'field: string; '.repeat(400)}}' is not assignable to type 'Order'.`;
      diagnostics.set(document.uri, [new vscode.Diagnostic(new vscode.Range(1, 9, 1, 14), message, vscode.DiagnosticSeverity.Error)]);
      const fix = (await quickFixesOn(document, new vscode.Range(1, 11, 1, 11))).find((a) => a.command?.command === 'stratus.editWithInstruction');
      assert.ok(fix?.command);
      const before = await lastChatSeq();
      const outcome = await vscode.commands.executeCommand<EditOutcome>(fix.command.command, ...(fix.command.arguments ?? []));
      assert.equal(outcome.status, 'review', JSON.stringify(outcome));
      const prompt = await editPromptSent(list, before);
      assert.ok(prompt.includes(`- line 2 of the range: error: ${message.replace(/\s+/g, ' ')}`), 'the whole message among the range\'s problems');
      assert.equal(await vscode.commands.executeCommand<ReviewOutcome>('stratus.edit.acceptAll'), 'accepted');
      assert.match(document.getText(), /^function total\(entries\) \{\n {2}return entries\.reduce/);
    });

    it('Add Documentation from the editor menu documents the enclosing function through the same review', async () => {
      const manifest = vscode.extensions.getExtension('stratus-cloud.stratus')?.packageJSON as { contributes: { menus: Record<string, { command: string }[]> } };
      assert.ok(manifest.contributes.menus['editor/context']?.some((m) => m.command === 'stratus.addDocumentation'), 'Add Documentation is in the editor context menu');
      const document = editor.document;
      editor.selection = new vscode.Selection(1, 4, 1, 4);
      const before = await lastChatSeq();
      const outcome = await vscode.commands.executeCommand<EditOutcome>('stratus.addDocumentation');
      assert.equal(outcome.status, 'review', JSON.stringify(outcome));
      const prompt = await editPromptSent(list, before);
      assert.ok(prompt.includes(`Instruction: ${DOCUMENTATION_INSTRUCTION}`), 'the preset instruction was sent');
      assert.equal(rangeHeader(prompt), 'The range to rewrite (lines 1-3):', 'the range is the enclosing function');
      assert.equal(await vscode.commands.executeCommand<ReviewOutcome>('stratus.edit.acceptAll'), 'accepted');
      // The sandbox documents a range with a comment line quoting the instruction, at the range's indent.
      assert.equal(document.getText(), `// ${DOCUMENTATION_INSTRUCTION}\n${BLOCK_SOURCE}`);
    });
  });
}

endToEnd('contract');
endToEnd('production');
