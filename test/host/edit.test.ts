import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { EditOutcome, ReviewOutcome } from '../../src/features/edit/register';
import type { Sandbox } from '../sandbox/index';
import { useProductionSandbox } from './productionSandbox';
import { control, eventually, requests, sandbox } from './sandbox';
import { revertAndCloseEditors, untitledDocument } from './editors';

const FUNCTION = [
  'const header = 1;',
  'function total(value) {',
  '  const tax = value * 0.2;',
  '  log("computing");',
  '  return value + tax;',
  '}',
  'const footer = 2;',
].join('\n');
const RENAMED = FUNCTION.replace(/\bvalue\b/g, 'amount');

async function open(content: string, language = 'javascript'): Promise<vscode.TextEditor> {
  const document = await untitledDocument(content, language);
  return vscode.window.showTextDocument(document, vscode.ViewColumn.One);
}

function lines(from: number, to: number, toCharacter = 0): { start: { line: number; character: number }; end: { line: number; character: number } } {
  return { start: { line: from, character: 0 }, end: { line: to, character: toCharacter } };
}

function edit(args?: unknown): Thenable<EditOutcome> {
  return vscode.commands.executeCommand<EditOutcome>('stratus.editWithInstruction', args);
}

async function lastSeq(): Promise<number> {
  return Math.max(0, ...(await requests('/v1/chat')).map((r) => r.seq));
}

function suite(profile: 'contract' | 'production'): void {
  describe(`Edit with Instruction (${profile} sandbox)`, function () {
    this.timeout(60_000);
    let production: Sandbox | undefined;
    let restoreProfile: (() => Promise<void>) | undefined;

    before(async () => {
      if (profile === 'production') ({ sandbox: production, restore: restoreProfile } = await useProductionSandbox());
    });
    beforeEach(async () => {
      await control('/reset', {});
      production?.control.reset();
      await vscode.commands.executeCommand('stratus.setApiKey', production ? production.credentials.apiKey : sandbox().apiKey);
      await vscode.workspace.getConfiguration('stratus').update('chat.model', 'gpt-oss:120b', vscode.ConfigurationTarget.Global);
      await revertAndCloseEditors();
    });
    afterEach(async () => {
      await vscode.commands.executeCommand('stratus.edit.rejectAll');
    });
    after(async () => {
      await control('/reset', {});
      await restoreProfile?.();
      await vscode.workspace.getConfiguration('stratus').update('chat.model', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('stratus.removeApiKey');
      await revertAndCloseEditors();
    });

    it('shows the rewrite as a diff in the editor; Accept All leaves the rewrite, undone in one step', async () => {
      const editor = await open(FUNCTION);
      const document = editor.document;
      const outcome = await edit({ uri: document.uri.toString(), range: lines(1, 6), instruction: 'rename value to amount' });
      assert.equal(outcome.status, 'review', JSON.stringify(outcome));
      assert.equal(outcome.hunks, 2, 'the signature and the tax line, then the return line after the unchanged log line');
      const shown = document.getText();
      assert.ok(shown.includes('function total(value) {') && shown.includes('function total(amount) {'), `removed and added lines both shown:\n${shown}`);
      assert.equal(await vscode.commands.executeCommand<ReviewOutcome>('stratus.edit.acceptAll'), 'accepted');
      assert.equal(document.getText(), RENAMED);
      await vscode.commands.executeCommand('undo');
      assert.equal(document.getText(), FUNCTION, 'one undo puts the original back');
      await vscode.commands.executeCommand('redo');
      assert.equal(document.getText(), RENAMED);
    });

    it('Reject All puts the original back', async () => {
      const editor = await open(FUNCTION);
      const outcome = await edit({ uri: editor.document.uri.toString(), range: lines(1, 6), instruction: 'rename value to amount and add documentation' });
      assert.equal(outcome.status, 'review');
      assert.notEqual(editor.document.getText(), FUNCTION);
      assert.equal(await vscode.commands.executeCommand<ReviewOutcome>('stratus.edit.rejectAll'), 'rejected');
      assert.equal(editor.document.getText(), FUNCTION);
    });

    it('accepts one hunk and rejects the other (CodeLens commands), the result one undo step', async () => {
      const editor = await open(FUNCTION);
      const outcome = await edit({ uri: editor.document.uri.toString(), range: lines(1, 6), instruction: 'rename tax to vat' });
      assert.equal(outcome.status, 'review');
      assert.equal(outcome.hunks, 2, editor.document.getText());
      assert.equal(await vscode.commands.executeCommand<ReviewOutcome>('stratus.edit.rejectHunk', 1), 'review');
      assert.equal(await vscode.commands.executeCommand<ReviewOutcome>('stratus.edit.acceptHunk', 0), 'accepted');
      // The second hunk (the return line) was rejected: only the first stays.
      assert.equal(editor.document.getText(), FUNCTION.replace('  const tax = value * 0.2;', '  const vat = value * 0.2;'));
      await vscode.commands.executeCommand('undo');
      assert.equal(editor.document.getText(), FUNCTION);
    });

    it('Reject All while streaming aborts the request at once and restores the range', async () => {
      if (production) production.control.setLatency({ ms: 0, chunkDelayMs: 40, pathPrefix: '/v1/chat' });
      else await control('/latency', { ms: 0, chunkDelayMs: 40, pathPrefix: '/v1/chat' });
      const long = Array.from({ length: 80 }, (_, i) => `  step_${i}(value);`);
      const text = ['function run(value) {', ...long, '}'].join('\n');
      const editor = await open(text);
      const before = production ? 0 : await lastSeq();
      const running = edit({ uri: editor.document.uri.toString(), range: lines(0, 81, 1), instruction: 'rename value to amount' });
      await eventually(async () => (editor.document.getText().includes('step_1(amount);') ? true : undefined), 'the first hunks in the editor');
      assert.equal(await vscode.commands.executeCommand<ReviewOutcome>('stratus.edit.rejectAll'), 'rejected');
      const outcome = await running;
      assert.equal(outcome.status, 'cancelled', JSON.stringify(outcome));
      assert.equal(editor.document.getText(), text);
      const list = async (): Promise<{ seq: number; clientClosedEarly: boolean; chunksSent: number }[]> => (production ? production.control.requests({ pathPrefix: '/v1/chat' }) : requests('/v1/chat'));
      const closed = await eventually(async () => (await list()).find((r) => r.seq > before && r.clientClosedEarly), 'the sandbox to see the request closed early', 10_000);
      assert.ok(closed.chunksSent < 300, `stopped after ${closed.chunksSent} chunks`);
    });

    it('without a range edits the enclosing function (document symbols), with a chatty fenced answer cleaned', async () => {
      const provider = vscode.languages.registerDocumentSymbolProvider({ language: 'javascript', scheme: 'untitled' }, {
        provideDocumentSymbols: () => [new vscode.DocumentSymbol('total', '', vscode.SymbolKind.Function, new vscode.Range(1, 0, 5, 1), new vscode.Range(1, 9, 1, 14))],
      });
      try {
        const editor = await open(FUNCTION);
        editor.selection = new vscode.Selection(3, 4, 3, 4);
        const outcome = await edit({ instruction: 'rename value to amount, chatty' });
        assert.equal(outcome.status, 'review', JSON.stringify(outcome));
        await vscode.commands.executeCommand('stratus.edit.acceptAll');
        assert.equal(editor.document.getText(), RENAMED);
      } finally {
        provider.dispose();
      }
    });
  });
}

suite('contract');
suite('production');

describe('Edit with Instruction: Edit Again, size limit', function () {
  this.timeout(60_000);
  beforeEach(async () => {
    await control('/reset', {});
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
    await vscode.workspace.getConfiguration('stratus').update('chat.model', 'gpt-oss:120b', vscode.ConfigurationTarget.Global);
    await revertAndCloseEditors();
  });
  after(async () => {
    await vscode.workspace.getConfiguration('stratus').update('chat.model', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('stratus.removeApiKey');
    await revertAndCloseEditors();
  });

  it('Edit Again refines the last instruction on the same range (the accepted rewrite)', async () => {
    const editor = await open(FUNCTION);
    const first = await edit({ uri: editor.document.uri.toString(), range: lines(1, 6), instruction: 'rename value to amount' });
    assert.equal(first.status, 'review');
    await vscode.commands.executeCommand('stratus.edit.acceptAll');
    const again = await vscode.commands.executeCommand<EditOutcome>('stratus.editAgain', { instruction: 'rename amount to price' });
    assert.equal(again.status, 'review', JSON.stringify(again));
    await vscode.commands.executeCommand('stratus.edit.acceptAll');
    assert.equal(editor.document.getText(), FUNCTION.replace(/\bvalue\b/g, 'price'), 'the second edit ran on the lines the first one produced');
    const sent = (await requests('/v1/chat')).filter((r) => r.body !== null).at(-1);
    assert.match(JSON.stringify(sent?.body?.json ?? ''), /function total\(amount\)/, 'the range sent was the accepted rewrite');
  });

  it('a change typed inside the range while streaming stops the edit (abandoned) and its request', async () => {
    await control('/latency', { ms: 0, chunkDelayMs: 10, pathPrefix: '/v1/chat' });
    // The answer (~7 token-sized deltas a line, ~430 in all) stalls after ~16 lines: the keystroke
    // below lands while the edit is still streaming, wherever the machine's load puts it.
    await control('/stream-fault', { kind: 'stall', afterChunks: 120, pathPrefix: '/v1/chat' });
    const text = ['function run(value) {', ...Array.from({ length: 60 }, (_, i) => `  step_${i}(value);`), '}'].join('\n');
    const editor = await open(text);
    const before = await lastSeq();
    const running = edit({ uri: editor.document.uri.toString(), range: lines(0, 61, 1), instruction: 'rename value to amount' });
    await eventually(async () => (editor.document.getText().includes('step_1(amount);') ? true : undefined), 'the first hunks in the editor');
    // Typed as a user types: a keystroke in the editor, not a WorkspaceEdit (VS Code refuses a
    // WorkspaceEdit made against a document version the main thread has moved past: with the
    // stream's own edits landing, every retry could be refused on a loaded machine).
    editor.selection = new vscode.Selection(3, 0, 3, 0);
    await vscode.commands.executeCommand('type', { text: '// typed\n' });
    const outcome = await running;
    assert.equal(outcome.status, 'abandoned', JSON.stringify(outcome));
    assert.ok(editor.document.getText().includes('// typed'), 'what was typed is kept');
    await eventually(async () => (await requests('/v1/chat')).find((r) => r.seq > before && r.clientClosedEarly), 'the request closed early', 10_000);
    assert.equal(await vscode.commands.executeCommand<ReviewOutcome>('stratus.edit.rejectAll'), 'abandoned', 'nothing is left to review');
  });

  it('refuses a range too large for the model context with its size and the limit, before any request', async () => {
    await vscode.workspace.getConfiguration('stratus').update('chat.model', 'smollm2:135m', vscode.ConfigurationTarget.Global);
    const text = Array.from({ length: 120 }, (_, i) => `  const value${i} = compute(${i});`).join('\n');
    const editor = await open(text);
    const before = Math.max(0, ...(await requests('/v1/chat')).map((r) => r.seq));
    const outcome = await edit({ uri: editor.document.uri.toString(), range: lines(0, 119, 5), instruction: 'rename compute to calculate' });
    assert.equal(outcome.status, 'refused', JSON.stringify(outcome));
    assert.match(outcome.message ?? '', /The range is 120 lines/);
    assert.match(outcome.message ?? '', /context of 512 tokens \(max_model_len\)/);
    assert.equal((await requests('/v1/chat')).filter((r) => r.seq > before).length, 0, 'nothing was sent');
    assert.equal(editor.document.getText(), text);
  });
});

describe('Edit with Instruction: arguments, keybinding', function () {
  this.timeout(30_000);

  it('refuses bad arguments with a clear message, never a crash', async () => {
    for (const [args, message] of [
      ['fix it', /must be an object/],
      [{ instruction: 3 }, /instruction must be a non-empty string/],
      [{ range: { start: { line: 0 } } }, /range\.start\.character must be a whole number/],
      [{ uri: 'untitled:does-not-exist-anywhere', instruction: 'x', range: lines(99, 100) }, /range is outside the document|cannot open|Unexpected error/i],
    ] as const) {
      const outcome = await edit(args);
      assert.equal(outcome.status, 'refused', JSON.stringify(outcome));
      assert.match(outcome.message ?? '', message);
    }
  });

  it('binds a key that none of VS Code\'s default keybindings uses, and Esc only while an edit is under way', async () => {
    const manifest = vscode.extensions.getExtension('stratus-cloud.stratus')?.packageJSON as { contributes: { keybindings: { command: string; key: string; when?: string }[] } };
    const ours = manifest.contributes.keybindings.find((k) => k.command === 'stratus.editWithInstruction');
    assert.ok(ours);
    const norm = (key: string): string => key.split(' ').map((chord) => chord.split('+').sort().join('+')).join(' ');
    const defaults = await vscode.workspace.openTextDocument(vscode.Uri.parse('vscode://defaultsettings/keybindings.json'));
    // Every default binding, those of VS Code and of its built-in extensions, not Stratus' own.
    const keys = [...defaults.getText().matchAll(/"key":\s*"([^"]+)",\s*"command":\s*"([^"]+)"/g)].filter((m) => !(m[2] ?? '').startsWith('stratus.')).map((m) => norm(m[1] ?? ''));
    assert.ok(keys.length > 300, `the default keybindings were read (${keys.length})`);
    assert.ok(!keys.includes(norm(ours.key)), `${ours.key} is one of VS Code's default keybindings`);
    const escape = manifest.contributes.keybindings.find((k) => k.command === 'stratus.edit.rejectAll');
    assert.equal(escape?.key, 'escape');
    assert.match(escape?.when ?? '', /stratus\.editInProgress/);
  });
});
