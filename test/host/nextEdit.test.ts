import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { NextEditTestApi } from '../../src/features/nextEdit/register';
import { stratus } from './extension';
import { control, eventually, requests, sandbox } from './sandbox';
import { revertAndCloseEditors, untitledDocument } from './editors';
import { setGlobal } from './settingsState';

async function api(): Promise<NextEditTestApi> {
  const { api: stratusApi } = await stratus();
  assert.ok(stratusApi.nextEdit, 'the next edit test API is exported in test mode');
  return stratusApi.nextEdit;
}

/** A function whose parameter `count` is used twice below its declaration (line 1). */
const SCALE = [
  'function scale(count: number): number {',
  '  const doubled = count * 2;',
  '  return doubled + count;',
  '}',
  '',
].join('\n');

/** An editor on a fresh untitled document (a unique first line: no cache hit from another test). */
async function editorWith(content: string): Promise<vscode.TextEditor> {
  const document = await untitledDocument(`// ${Math.random().toString(36).slice(2)}\n${content}`, 'typescript');
  return vscode.window.showTextDocument(document, { preview: false });
}

/** Renames the word `from` on `line` to `to` as the user would, leaving the cursor after it. */
async function rename(editor: vscode.TextEditor, line: number, from: string, to: string): Promise<void> {
  const at = editor.document.lineAt(line).text.indexOf(from);
  assert.ok(at >= 0, `${from} on line ${line}`);
  assert.ok(await editor.edit((b) => b.replace(new vscode.Range(line, at, line, at + from.length), to)));
  const end = new vscode.Position(line, at + to.length);
  editor.selection = new vscode.Selection(end, end);
}

async function shownSuggestion(what = 'a next edit suggestion'): Promise<NonNullable<ReturnType<NextEditTestApi['current']>>> {
  return eventually(async () => (await api()).current(), what);
}

/** The next-edit requests the sandbox received (their prompt holds the window). */
async function nextEditRequests(): Promise<Awaited<ReturnType<typeof requests>>> {
  return (await requests('/v1/completions')).filter((r) => JSON.stringify(r.body?.json ?? '').includes('<window>'));
}

describe('next edit suggestions (against the sandbox)', function () {
  this.timeout(60_000);

  // The key once for the suite (storing it lists the models again), the model only when it changed.
  before(async () => {
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
  });
  beforeEach(async () => {
    await control('/reset', {});
    // Whole prompts in the request log (a next-edit prompt is told apart by its window).
    await control('/recorded-strings', { maxChars: 200_000 });
    await setGlobal('stratus', 'chat.model', 'gpt-oss:120b');
    await vscode.commands.executeCommand('stratus.inlineCompletion.snooze', 0);
    (await stratus()).api.inlineCompletion?.retry();
    await revertAndCloseEditors();
  });
  after(async () => {
    await revertAndCloseEditors();
    await control('/recorded-strings', { maxChars: 200 });
    await control('/reset', {});
    await vscode.workspace.getConfiguration('stratus').update('chat.model', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('stratus.removeApiKey');
  });

  it('a renamed parameter leads to a suggestion at its next use, shown as a diff with the keys for Tab and Esc', async () => {
    const editor = await editorWith(SCALE);
    await rename(editor, 1, 'count', 'total');
    const suggestion = await shownSuggestion();
    assert.equal(suggestion.jumpTo.line, 2, 'at the next use of the parameter, the line below the cursor');
    assert.deepEqual(suggestion.edits.map((e) => [e.oldText, e.newText]), [['count', 'total']]);
    const rendered = (await api()).rendered();
    assert.deepEqual({ removed: rendered?.removed, inserted: rendered?.inserted, gutter: rendered?.gutterLines, hint: rendered?.hint }, { removed: 1, inserted: ['total'], gutter: [2], hint: undefined });
    assert.deepEqual((await api()).contextKeys(), { shown: true, atSuggestion: false });
    const sent = await nextEditRequests();
    const prompt = JSON.stringify(sent.at(-1)?.body?.json);
    assert.match(prompt, /<window>/, 'asked through /v1/completions with the window');
    assert.match(prompt, /-function scale\(count: number\): number \{\\n\+function scale\(total: number\): number \{/, 'the rename is in the recent edits');
  });

  it('Tab jumps to it, Tab again applies it as one undoable edit, and the next use follows (a chain)', async () => {
    const editor = await editorWith(SCALE);
    await rename(editor, 1, 'count', 'total');
    const first = await shownSuggestion();
    await vscode.commands.executeCommand('stratus.nextEdit.jump');
    assert.deepEqual([editor.selection.active.line, editor.selection.active.character], [first.jumpTo.line, first.jumpTo.character]);
    assert.ok(editor.visibleRanges.some((r) => r.contains(editor.selection.active)), 'the view shows it');
    assert.deepEqual((await api()).contextKeys(), { shown: true, atSuggestion: true }, 'Tab now applies');
    const before = editor.document.getText();
    assert.equal(await vscode.commands.executeCommand('stratus.nextEdit.accept'), true);
    assert.equal(editor.document.lineAt(2).text, '  const doubled = total * 2;');
    assert.equal((await api()).current(), undefined);
    const next = await eventually(async () => {
      const s = (await api()).current();
      return s && s.jumpTo.line === 3 ? s : undefined;
    }, 'the next suggestion of the chain');
    assert.deepEqual(next.edits.map((e) => [e.oldText, e.newText]), [['count', 'total']]);
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), before, 'one undo restores the text before the accept');
    assert.equal((await api()).current(), undefined, 'the undo discarded the chained suggestion');
  });

  it('Esc dismisses it: no decoration, the keys are off', async () => {
    const editor = await editorWith(SCALE);
    await rename(editor, 1, 'count', 'total');
    await shownSuggestion();
    const text = editor.document.getText();
    await vscode.commands.executeCommand('stratus.nextEdit.dismiss');
    assert.equal((await api()).current(), undefined);
    assert.equal((await api()).rendered(), undefined);
    assert.deepEqual((await api()).contextKeys(), { shown: false, atSuggestion: false });
    assert.equal(editor.document.getText(), text, 'nothing applied');
  });

  it('typing anything else discards it at once', async () => {
    const editor = await editorWith(SCALE);
    await rename(editor, 1, 'count', 'total');
    await shownSuggestion();
    const discarded = (await api()).counts().discarded ?? 0;
    assert.ok(await editor.edit((b) => b.insert(editor.selection.active, 'X')));
    assert.equal((await api()).current(), undefined, 'gone with the keystroke');
    assert.equal((await api()).rendered(), undefined);
    assert.deepEqual((await api()).contextKeys(), { shown: false, atSuggestion: false });
    assert.equal((await api()).counts().discarded, discarded + 1);
  });

  it('out of view: a hint at the cursor line and the status bar say where it is', async () => {
    const filler = Array.from({ length: 200 }, (_, k) => `const filler${k} = ${k};`).join('\n');
    const editor = await editorWith(`${SCALE}${filler}\n`);
    await rename(editor, 1, 'count', 'total');
    await shownSuggestion();
    editor.revealRange(new vscode.Range(180, 0, 180, 0), vscode.TextEditorRevealType.AtTop);
    const hint = await eventually(async () => (await api()).rendered()?.hint, 'the out-of-view hint');
    assert.equal(hint, 'Next edit: line 3 — Tab');
    assert.equal((await api()).statusText(), hint);
    await vscode.commands.executeCommand('stratus.nextEdit.jump');
    await eventually(async () => ((await api()).rendered()?.hint === undefined ? true : undefined), 'the hint to go once the suggestion is in view');
    assert.equal((await api()).statusText(), undefined);
  });

  it('an insertion at the cursor is offered as ordinary ghost text through the inline provider, not as a diff', async () => {
    const editor = await editorWith(SCALE);
    // The cursor at the end of the next use (line 2), the parameter renamed on line 1 (countAll): the next edit inserts at the cursor.
    const use = editor.document.lineAt(2).text.indexOf('count') + 'count'.length;
    const cursor = new vscode.Position(2, use);
    editor.selection = new vscode.Selection(cursor, cursor);
    const offered = (await api()).counts().ghostText ?? 0;
    assert.ok(await editor.edit((b) => b.insert(new vscode.Position(1, 'function scale(count'.length), 'All')));
    assert.deepEqual([editor.selection.active.line, editor.selection.active.character], [2, use]);
    await eventually(async () => ((await api()).counts().ghostText === offered + 1 ? true : undefined), 'the suggestion to be offered as ghost text');
    assert.equal((await api()).ghostTextAt(editor.document, cursor), 'All');
    assert.equal((await api()).current(), undefined, 'no diff for it');
    assert.equal((await api()).rendered(), undefined);
    const inline = (await stratus()).api.inlineCompletion;
    assert.ok(inline);
    const asked = inline.stats().requests;
    const result = await inline.provider.provideInlineCompletionItems(editor.document, cursor, { triggerKind: vscode.InlineCompletionTriggerKind.Automatic, selectedCompletionInfo: undefined }, new vscode.CancellationTokenSource().token);
    const items = Array.isArray(result) ? result : result?.items ?? [];
    assert.deepEqual(items.map((i) => i.insertText), ['All']);
    assert.equal(inline.stats().requests, asked, 'the ghost-text engine was not asked: one provider at a time');
  });

  it('a cursor moved while the model answered: no ghost text at the new cursor, the insertion shown as a diff where it goes', async () => {
    const editor = await editorWith(SCALE);
    const use = editor.document.lineAt(2).text.indexOf('count') + 'count'.length;
    const cursor = new vscode.Position(2, use);
    editor.selection = new vscode.Selection(cursor, cursor);
    const offered = (await api()).counts().ghostText ?? 0;
    const sent = (await nextEditRequests()).length;
    // The sandbox holds its answer: the cursor moves while the request is in flight.
    await control('/latency', { ms: 1_500, pathPrefix: '/v1/completions' });
    try {
      assert.ok(await editor.edit((b) => b.insert(new vscode.Position(1, 'function scale(count'.length), 'All')));
      await eventually(async () => ((await nextEditRequests()).length > sent ? true : undefined), 'the request to reach the sandbox');
      const moved = new vscode.Position(4, 1);
      editor.selection = new vscode.Selection(moved, moved);
      const suggestion = await shownSuggestion('the insertion shown as a diff');
      assert.equal((await api()).ghostTextAt(editor.document, moved), undefined, 'no ghost text at the new cursor');
      assert.equal((await api()).counts().ghostText, offered, 'no ghost text offered at all');
      assert.deepEqual(suggestion.edits.map((e) => [e.start, e.oldText, e.newText]), [[editor.document.offsetAt(cursor), '', 'All']], 'the insertion where it goes');
      assert.deepEqual((await api()).contextKeys(), { shown: true, atSuggestion: false }, 'Tab jumps first, it does not apply here');
      const text = editor.document.getText();
      await vscode.commands.executeCommand('stratus.nextEdit.jump');
      assert.equal(editor.document.getText(), text, 'nothing inserted at the new cursor');
      assert.deepEqual([editor.selection.active.line, editor.selection.active.character], [2, use]);
    } finally {
      await control('/latency', { ms: 0 });
    }
  });

  it('the toggle turns next edits on where the workspace settings turned them off (and off again there)', async () => {
    const editor = await editorWith(SCALE);
    const config = () => vscode.workspace.getConfiguration('stratus.nextEdit', editor.document);
    await config().update('enabled', false, vscode.ConfigurationTarget.Workspace);
    try {
      assert.equal(config().get('enabled'), false);
      await vscode.commands.executeCommand('stratus.nextEdit.toggle');
      assert.equal(config().get('enabled'), true, 'on for the document');
      assert.deepEqual([config().inspect('enabled')?.workspaceValue, config().inspect('enabled')?.globalValue], [true, undefined], 'written in the workspace settings, the user settings untouched');
      await vscode.commands.executeCommand('stratus.nextEdit.toggle');
      assert.equal(config().get('enabled'), false);
    } finally {
      await config().update('enabled', undefined, vscode.ConfigurationTarget.Workspace);
      await config().update('enabled', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('off with stratus.nextEdit.enabled: nothing is asked', async () => {
    await vscode.workspace.getConfiguration('stratus.nextEdit').update('enabled', false, vscode.ConfigurationTarget.Global);
    try {
      const editor = await editorWith(SCALE);
      const sent = (await nextEditRequests()).length;
      const off = (await api()).counts().off ?? 0;
      await rename(editor, 1, 'count', 'total');
      await eventually(async () => ((await api()).counts().off === off + 1 ? true : undefined), 'the request to be refused');
      assert.equal((await api()).lastOutcome(), 'off');
      assert.equal((await nextEditRequests()).length, sent);
      assert.equal((await api()).current(), undefined);
    } finally {
      await vscode.workspace.getConfiguration('stratus.nextEdit').update('enabled', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('in Restricted Mode nothing is asked (the ghost-text context gate)', async () => {
    const trust = (await stratus()).api.trust;
    assert.ok(trust);
    const fake = trust.fake(false);
    try {
      const editor = await editorWith(SCALE);
      const sent = (await nextEditRequests()).length;
      const excluded = (await api()).counts().excluded ?? 0;
      await rename(editor, 1, 'count', 'total');
      await eventually(async () => ((await api()).counts().excluded === excluded + 1 ? true : undefined), 'the request to be refused');
      assert.equal((await nextEditRequests()).length, sent);
      assert.equal((await api()).current(), undefined);
    } finally {
      fake.dispose();
    }
  });

  it('Tab keeps its meaning when nothing is shown: the keybindings need the context key, and Tab indents', async () => {
    const manifest = (await stratus()).extension.packageJSON as { contributes: { keybindings: { command: string; key: string; when?: string }[] } };
    const ours = manifest.contributes.keybindings.filter((k) => k.command.startsWith('stratus.nextEdit.'));
    assert.deepEqual(ours.map((k) => `${k.command} ${k.key}`).sort(), ['stratus.nextEdit.accept tab', 'stratus.nextEdit.dismiss escape', 'stratus.nextEdit.jump tab']);
    for (const binding of ours) {
      const terms = (binding.when ?? '').split('&&').map((t) => t.trim());
      assert.ok(terms.includes('stratus.nextEditShown'), `${binding.command}: only while a suggestion is shown`);
      for (const other of ['!suggestWidgetVisible', '!inlineSuggestionVisible', '!inSnippetMode']) assert.ok(terms.includes(other), `${binding.command}: ${other}`);
    }
    const editor = await editorWith('function f() {\nreturn 1;\n}\n');
    editor.selection = new vscode.Selection(2, 0, 2, 0);
    assert.deepEqual((await api()).contextKeys(), { shown: false, atSuggestion: false });
    await vscode.commands.executeCommand('tab');
    assert.match(editor.document.lineAt(2).text, /^\s+return 1;$/, 'Tab indented the line');
  });
});

describe('next edit suggestions: never in an ignored file', function () {
  this.timeout(60_000);
  let dir: vscode.Uri;

  before(async () => {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(root, 'the host opened a folder');
    dir = vscode.Uri.joinPath(root, 'next-edit-ignored');
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, '.gitignore'), new TextEncoder().encode('secret.ts\n'));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'secret.ts'), new TextEncoder().encode(SCALE));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'creds.ts'), new TextEncoder().encode(SCALE));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'app.ts'), new TextEncoder().encode(SCALE));
    await control('/reset', {});
    await control('/recorded-strings', { maxChars: 200_000 });
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
    await vscode.workspace.getConfiguration('stratus').update('chat.model', 'gpt-oss:120b', vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await revertAndCloseEditors();
    await control('/recorded-strings', { maxChars: 200 });
    await vscode.workspace.fs.delete(dir, { recursive: true, useTrash: false });
    await vscode.workspace.getConfiguration('stratus').update('chat.model', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('stratus.removeApiKey');
  });

  it('an edit in a file ignored by .gitignore asks for nothing', async () => {
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.joinPath(dir, 'secret.ts')), { preview: false });
    const sentBefore = (await nextEditRequests()).length;
    const excluded = (await api()).counts().excluded ?? 0;
    await rename(editor, 0, 'count', 'total');
    await eventually(async () => ((await api()).counts().excluded === excluded + 1 ? true : undefined), 'the ignored file to be seen');
    assert.equal((await api()).lastOutcome(), 'excluded');
    assert.equal((await nextEditRequests()).length, sentBefore, 'no next edit request');
    assert.equal((await api()).current(), undefined);
  });

  it('the edits of a file excluded since (files.exclude) are left out of the next request from another file', async () => {
    const open = async (name: string) => vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.joinPath(dir, name)), { preview: false });
    /** The next-edit request whose prompt holds `marker` (the edit just made). */
    const requestWith = async (marker: string) => eventually(async () => (await nextEditRequests()).map((r) => JSON.stringify(r.body?.json)).findLast((p) => p.includes(marker)), `a request with ${marker}`);
    const creds = await open('creds.ts');
    await rename(creds, 1, 'count', 'credsMarker');
    await requestWith('credsMarker');
    const app = await open('app.ts');
    await rename(app, 1, 'count', 'appFirst');
    assert.match(await requestWith('appFirst'), /credsMarker/, 'allowed at first: the other file\'s edit is in the prompt');
    await vscode.workspace.getConfiguration('files').update('exclude', { '**/next-edit-ignored/creds.ts': true }, vscode.ConfigurationTarget.Workspace);
    try {
      await rename(app, 1, 'appFirst', 'appSecond');
      assert.doesNotMatch(await requestWith('appSecond'), /credsMarker/, 'excluded now: left out');
    } finally {
      await vscode.workspace.getConfiguration('files').update('exclude', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });
});
