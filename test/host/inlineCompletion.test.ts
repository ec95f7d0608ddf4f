import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ContextSnippet } from '../../src/core/inlineCompletion';
import type { DefinitionSearch, IndexedPlace, InlineCompletionTestApi } from '../../src/features/inlineCompletion/register';
import { setLanguageEnabled } from '../../src/features/inlineCompletion/settings';
import { SearchService } from '../../src/features/search/service';
import { testDeps } from './fakes';
import { stratus } from './extension';
import { control, eventually, requests, sandbox } from './sandbox';
import { revertAndCloseEditors, untitledDocument } from './editors';
import { setGlobal } from './settingsState';

interface StreamRecord { seq: number; model: string; tokensPlanned: number; tokensStreamed: number; abortedByClient: boolean; complete: boolean }

async function streams(): Promise<StreamRecord[]> {
  return ((await control('/completions')) as { streams: StreamRecord[] }).streams;
}

async function lastSeq(): Promise<number> {
  return Math.max(0, ...(await streams()).map((s) => s.seq));
}

async function api(): Promise<InlineCompletionTestApi> {
  const { api: stratusApi } = await stratus();
  assert.ok(stratusApi.inlineCompletion, 'the inline completion test API is exported in test mode');
  return stratusApi.inlineCompletion;
}

/** A fresh document (its own prompt, so no cache hit from another test) with the cursor at the end. */
async function documentWith(content: string, language = 'typescript'): Promise<{ document: vscode.TextDocument; end: vscode.Position }> {
  const unique = `// ${Math.random().toString(36).slice(2)}\n${content}`;
  const document = await untitledDocument(unique, language);
  return { document, end: document.positionAt(unique.length) };
}

const automatic: vscode.InlineCompletionContext = { triggerKind: vscode.InlineCompletionTriggerKind.Automatic, selectedCompletionInfo: undefined };

async function provide(document: vscode.TextDocument, position: vscode.Position, token = new vscode.CancellationTokenSource().token): Promise<vscode.InlineCompletionItem[]> {
  const result = await (await api()).provider.provideInlineCompletionItems(document, position, automatic, token);
  if (!result) return [];
  return Array.isArray(result) ? result : result.items;
}

const text = (item: vscode.InlineCompletionItem | undefined): string => (typeof item?.insertText === 'string' ? item.insertText : item?.insertText.value ?? '');

/** Replaces showErrorMessage (the extension shares this API object) with a recorder. */
function recordErrors(): { messages: string[]; restore(): void } {
  const win = vscode.window as unknown as Record<string, unknown>;
  const original = win.showErrorMessage;
  const messages: string[] = [];
  win.showErrorMessage = (message: string) => {
    messages.push(message);
    return Promise.resolve(undefined);
  };
  return { messages, restore: () => void (win.showErrorMessage = original) };
}

const inline = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('stratus.completion.inline');

describe('inline completion (ghost text, against the sandbox)', function () {
  this.timeout(60_000);

  // The key and settings once for the suite (storing a key lists the models again; a settings write
  // saves settings.json and fires a change): a test that changes one puts it back itself.
  let keyChanged = false;
  before(async () => {
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
  });
  beforeEach(async () => {
    if (keyChanged) await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
    keyChanged = false;
    await control('/reset', {});
    await setGlobal('stratus', 'chat.model', 'gpt-oss:120b');
    await setGlobal('stratus.completion.inline', 'debounceMs', 0);
    await vscode.commands.executeCommand('stratus.inlineCompletion.snooze', 0);
    (await api()).retry();
  });
  after(async () => {
    await control('/reset', {});
    await vscode.workspace.getConfiguration('stratus').update('chat.model', undefined, vscode.ConfigurationTarget.Global);
    await inline().update('debounceMs', undefined, vscode.ConfigurationTarget.Global);
    (await api()).setTelemetry({ shown: () => undefined, accepted: () => undefined, requested: () => undefined });
    await vscode.commands.executeCommand('stratus.removeApiKey');
  });

  it('returns the deterministic single-line continuation, and stops the stream at the line break', async () => {
    // Paced like a real model, so the early stop can close the stream before its end.
    await control('/latency', { ms: 0, chunkDelayMs: 30, pathPrefix: '/v1/completions' });
    const before = await lastSeq();
    const { document, end } = await documentWith('const answer = ');
    const items = await provide(document, end);
    assert.equal(items.length, 1);
    assert.match(text(items[0]), /^value_[0-9a-f]{6}\(\)$/);
    assert.deepEqual(items[0]?.range, new vscode.Range(end, end));
    const stream = await eventually(async () => (await streams()).find((s) => s.seq > before && s.abortedByClient), 'the stream closed by the client');
    assert.equal(stream.model, 'gpt-oss:120b');
    assert.ok(stream.tokensStreamed < stream.tokensPlanned, `read ${stream.tokensStreamed} of ${stream.tokensPlanned} tokens: stopped once the line was decided`);
  });

  it('completes a block after a line that opens it, and ends where the block ends', async () => {
    const { document, end } = await documentWith('function area(r: number) {');
    const items = await provide(document, end);
    const suggestion = text(items[0]);
    assert.match(suggestion, /^\n {4}body_[0-9a-f]{6}\(\)\n {4}return 0\n\}/);
    assert.doesNotMatch(suggestion, /filler_/);
  });

  it('a cancellation aborts the request: the sandbox stops generating', async () => {
    await control('/latency', { ms: 0, chunkDelayMs: 300, pathPrefix: '/v1/completions' });
    const before = await lastSeq();
    const { document, end } = await documentWith('let total = ');
    const source = new vscode.CancellationTokenSource();
    const pending = provide(document, end, source.token);
    await eventually(async () => (await streams()).find((s) => s.seq > before), 'the request to start streaming');
    source.cancel();
    assert.deepEqual(await pending, [], 'a cancelled request shows nothing');
    const stream = await eventually(async () => (await streams()).find((s) => s.seq > before && s.abortedByClient), 'the sandbox to see the abort');
    assert.ok(stream.tokensStreamed < 4, `only ${stream.tokensStreamed} tokens streamed (the line needed 4)`);
    assert.ok(stream.tokensStreamed < stream.tokensPlanned);
  });

  it('the next keystroke cancels the request in flight and answers for the new text', async () => {
    await control('/latency', { ms: 0, chunkDelayMs: 300, pathPrefix: '/v1/completions' });
    const before = await lastSeq();
    const { document, end } = await documentWith('let count = ');
    const first = provide(document, end);
    const started = await eventually(async () => (await streams()).find((s) => s.seq > before), 'the first request to start streaming');
    const edit = new vscode.WorkspaceEdit();
    edit.insert(document.uri, end, 'n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const second = provide(document, end.translate(0, 1));
    assert.deepEqual(await first, [], 'the superseded request shows nothing');
    const aborted = await eventually(async () => (await streams()).find((s) => s.seq === started.seq && s.abortedByClient), 'the first stream to be aborted');
    assert.ok(aborted.tokensStreamed < 4, `the first stream stopped after ${aborted.tokensStreamed} tokens`);
    assert.match(text((await second)[0]), /^value_[0-9a-f]{6}\(\)$/);
  });

  it('an explicit request (Alt+\\, or cycling) returns a fresh suggestion and the one typed ahead: two items', async () => {
    const { document, end } = await documentWith('const pair = ');
    const shown = text((await provide(document, end))[0]);
    assert.match(shown, /^value_[0-9a-f]{6}\(\)$/);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(document.uri, end, 'v');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const at = end.translate(0, 1);
    assert.deepEqual((await provide(document, at)).map(text), [shown.slice(1)], 'typing what it shows: the rest of it, no request');
    const invoked = await (await api()).provider.provideInlineCompletionItems(document, at, { triggerKind: vscode.InlineCompletionTriggerKind.Invoke, selectedCompletionInfo: undefined }, new vscode.CancellationTokenSource().token);
    const items = (Array.isArray(invoked) ? invoked : invoked?.items ?? []).map(text);
    assert.equal(items.length, 2, JSON.stringify(items));
    assert.match(items[0] ?? '', /^value_[0-9a-f]{6}\(\)$/, 'the fresh suggestion first');
    assert.equal(items[1], shown.slice(1), 'then the one typed ahead');
    assert.notEqual(items[0], items[1]);
  });

  describe('in an editor (VS Code\'s own commands)', () => {
    afterEach(async () => {
      await revertAndCloseEditors();
    });
    async function editorWith(content: string): Promise<vscode.TextEditor> {
      const { document, end } = await documentWith(content);
      const editor = await vscode.window.showTextDocument(document, { preview: false });
      editor.selection = new vscode.Selection(end, end);
      return editor;
    }
    /** Runs `command` (after asking for ghost text) until the document changes; returns what was inserted. */
    async function insertedBy(editor: vscode.TextEditor, command: string, before?: () => Promise<void>): Promise<string> {
      const original = editor.document.getText();
      return eventually(async () => {
        await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
        await new Promise((r) => setTimeout(r, 300));
        await before?.();
        await vscode.commands.executeCommand(command);
        const now = editor.document.getText();
        return now !== original ? now.slice(original.length) : undefined;
      }, `${command} to insert ghost text`);
    }

    it('Ctrl+Right (accept next word) inserts the first word of the suggestion only', async () => {
      const editor = await editorWith('const word = ');
      const inserted = await insertedBy(editor, 'editor.action.inlineSuggest.acceptNextWord');
      assert.match(inserted, /^value_/, inserted);
      assert.ok(!inserted.endsWith('()'), `only part of "value_<h>()": ${inserted}`);
    });

    it('Alt+] shows the next item and Tab inserts that one', async () => {
      const editor = await editorWith('const cycle = ');
      const shown = text((await provide(editor.document, editor.selection.active))[0]);
      await editor.edit((b) => b.insert(editor.selection.active, 'v'));
      const invoked = await (await api()).provider.provideInlineCompletionItems(editor.document, editor.selection.active, { triggerKind: vscode.InlineCompletionTriggerKind.Invoke, selectedCompletionInfo: undefined }, new vscode.CancellationTokenSource().token);
      const items = (Array.isArray(invoked) ? invoked : invoked?.items ?? []).map(text);
      assert.deepEqual(items.length, 2);
      // Accepting clears the suggestions kept for type-ahead, so only Alt+] then Tab is run here.
      const next = await insertedBy(editor, 'editor.action.inlineSuggest.commit', async () => {
        await vscode.commands.executeCommand('editor.action.inlineSuggest.showNext');
      });
      assert.equal(next, items[1], 'after Alt+], Tab inserts the second item');
      assert.equal(next, shown.slice(1));
    });
  });

  it('is off by default for plaintext and markdown (no request), and on once the language is enabled', async () => {
    const before = await lastSeq();
    for (const language of ['plaintext', 'markdown']) {
      const { document, end } = await documentWith('Dear reader, ', language);
      assert.deepEqual(await provide(document, end), [], `${language} is off by default`);
    }
    assert.equal((await streams()).filter((s) => s.seq > before).length, 0, 'no request was sent');
    await inline().update('languages', { plaintext: true }, vscode.ConfigurationTarget.Global);
    try {
      const { document, end } = await documentWith('Dear reader, ', 'plaintext');
      assert.equal((await provide(document, end)).length, 1);
    } finally {
      await inline().update('languages', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a snooze or the global switch stops it, and the status bar says so', async () => {
    const { document, end } = await documentWith('const snoozed = ');
    await vscode.commands.executeCommand('stratus.inlineCompletion.snooze', 15);
    assert.deepEqual(await provide(document, end), []);
    const snoozed = await (await api()).status();
    assert.equal(snoozed.status?.kind, 'snoozed');
    assert.match(snoozed.text, /15 min/);
    await vscode.commands.executeCommand('stratus.inlineCompletion.snooze', 0);
    await inline().update('enabled', false, vscode.ConfigurationTarget.Global);
    try {
      assert.deepEqual(await provide(document, end), []);
      assert.equal((await (await api()).status()).status?.kind, 'off');
    } finally {
      await inline().update('enabled', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.equal((await provide(document, end)).length, 1);
  });

  it('the toggle and the language switch write where the value in force comes from (a workspace value is not shadowed)', async () => {
    const { document } = await documentWith('const toggled = ', 'typescript');
    await vscode.window.showTextDocument(document);
    const config = () => vscode.workspace.getConfiguration('stratus.completion.inline', document);
    await config().update('enabled', false, vscode.ConfigurationTarget.Workspace);
    await config().update('languages', { typescript: false, go: true }, vscode.ConfigurationTarget.Workspace);
    try {
      await vscode.commands.executeCommand('stratus.inlineCompletion.toggle');
      assert.equal(config().get('enabled'), true, 'on for the document');
      assert.deepEqual([config().inspect('enabled')?.workspaceValue, config().inspect('enabled')?.globalValue], [true, undefined], 'written in the workspace settings, the user settings untouched');
      await vscode.commands.executeCommand('stratus.inlineCompletion.toggle');
      assert.equal(config().get('enabled'), false);
      await setLanguageEnabled('typescript', true, document);
      assert.deepEqual(config().inspect('languages')?.workspaceValue, { typescript: true, go: true }, "the workspace's map, its other entries kept");
      assert.equal(config().inspect('languages')?.globalValue, undefined);
    } finally {
      for (const target of [vscode.ConfigurationTarget.Workspace, vscode.ConfigurationTarget.Global]) {
        await config().update('enabled', undefined, target);
        await config().update('languages', undefined, target);
      }
    }
  });

  it('records requested, shown and accepted suggestions through the telemetry sink', async () => {
    const seen = { requested: 0, shown: [] as { chars: number; lines: number }[], accepted: [] as { chars: number; lines: number }[] };
    (await api()).setTelemetry({ requested: () => void seen.requested++, shown: (n) => void seen.shown.push(n), accepted: (n) => void seen.accepted.push(n) });
    const { document, end } = await documentWith('const shown = ');
    const [item] = await provide(document, end);
    assert.ok(item?.command, 'the item records its acceptance');
    await vscode.commands.executeCommand(item.command.command, ...(item.command.arguments ?? []));
    assert.equal(seen.requested, 1);
    assert.deepEqual(seen.shown, [{ chars: text(item).length, lines: 1 }]);
    assert.deepEqual(seen.accepted, seen.shown);
  });

  it('a 429 pauses completions silently (no notification, no further request) and the status bar shows the pause', async () => {
    await control('/burst', { status: 429, count: 5, retryAfterSeconds: 120, pathPrefix: '/v1/completions' });
    const errors = recordErrors();
    const stoppedBefore = (await api()).stopNotifications();
    try {
      const { document, end } = await documentWith('const limited = ');
      assert.deepEqual(await provide(document, end), []);
      const sent = (await requests('/v1/completions')).length;
      const again = await documentWith('const limitedAgain = ');
      assert.deepEqual(await provide(again.document, again.end), []);
      assert.equal((await requests('/v1/completions')).length, sent, 'no request while paused: never a 429 loop');
    } finally {
      errors.restore();
    }
    assert.deepEqual(errors.messages, []);
    assert.equal((await api()).stopNotifications(), stoppedBefore);
    const status = await (await api()).status();
    assert.equal(status.status?.kind, 'throttled');
    assert.match(status.tooltip, /paused until .*rate limited/);
    (await api()).retry();
  });

  it('a 401 stops completions with one notification, not one per keystroke, and the reason in the status bar', async () => {
    keyChanged = true;
    await vscode.commands.executeCommand('stratus.setApiKey', 'not-the-key');
    const errors = recordErrors();
    const stoppedBefore = (await api()).stopNotifications();
    try {
      for (const code of ['const a = ', 'const b = ', 'const c = ']) {
        const { document, end } = await documentWith(code);
        assert.deepEqual(await provide(document, end), []);
      }
    } finally {
      errors.restore();
    }
    assert.equal((await api()).stopNotifications() - stoppedBefore, 1);
    const ours = errors.messages.filter((m) => m.includes('Inline completion stopped'));
    assert.equal(ours.length, 1, JSON.stringify(errors.messages));
    const status = await (await api()).status();
    assert.equal(status.status?.kind, 'error');
    assert.match(status.tooltip, /stopped/);
    // A new key is a fresh start.
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
    keyChanged = false;
    await eventually(async () => ((await (await api()).status()).status?.kind === 'on' ? true : undefined), 'completions back on');
    const { document, end } = await documentWith('const d = ');
    assert.equal((await provide(document, end)).length, 1);
  });
});

describe('inline completion context: open editors and recent edits, never ignored files', function () {
  this.timeout(60_000);
  const files = {
    '.gitignore': 'hidden.ts\n',
    'visible.ts': 'export const visibleMarker = 1;\n',
    'hidden.ts': 'export const hiddenMarker = 2;\nexport function hiddenWidth(): number {\n  return 2;\n}\n',
    'excluded.ts': 'export const excludedMarker = 3;\nexport function excludedWidth(): number {\n  return 3;\n}\n',
    'geometry.ts': '// Layout helpers.\nexport function computeTotalWidth(columns: number[], gap: number): number {\n  return columns.reduce((a, b) => a + b, 0) + gap * (columns.length - 1);\n}\n',
  };
  let dir: vscode.Uri;

  before(async () => {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(root, 'the host opened a folder');
    dir = vscode.Uri.joinPath(root, 'inline-context');
    for (const [name, content] of Object.entries(files)) await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, name), new TextEncoder().encode(content));
    await vscode.workspace.getConfiguration('files').update('exclude', { '**/inline-context/excluded.ts': true }, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await revertAndCloseEditors();
    await vscode.workspace.getConfiguration('files').update('exclude', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.fs.delete(dir, { recursive: true, useTrash: false });
  });

  it('sends the open editors of the same language and recent edits, but not files ignored by .gitignore or files.exclude', async () => {
    const opened: vscode.TextDocument[] = [];
    for (const name of ['visible.ts', 'hidden.ts', 'excluded.ts']) {
      const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(dir, name));
      await vscode.window.showTextDocument(document, { preview: false, preserveFocus: false });
      opened.push(document);
    }
    // Recent edits in every one of them.
    for (const document of opened) {
      const edit = new vscode.WorkspaceEdit();
      edit.insert(document.uri, new vscode.Position(1, 0), '// edited\n');
      assert.ok(await vscode.workspace.applyEdit(edit));
    }
    const { document } = await documentWith('const here = ');
    const snippets = await (await api()).context(document);
    const text = snippets.map((s) => `${s.kind} ${s.path}\n${s.text}`).join('\n');
    assert.match(text, /openEditor inline-context\/visible\.ts\nexport const visibleMarker/);
    assert.match(text, /recentEdit inline-context\/visible\.ts/);
    assert.doesNotMatch(text, /hiddenMarker|hidden\.ts/, 'a file ignored by .gitignore never contributes');
    assert.doesNotMatch(text, /excludedMarker|excluded\.ts/, 'a file excluded by files.exclude never contributes');
  });

  describe('definitions of the identifiers near the cursor, through the search index', () => {
    const line = 'const w = computeTotalWidth(c, 8) + hiddenWidth() + excludedWidth();\nconst next = ';
    let previous: DefinitionSearch | undefined;
    const disposables: vscode.Disposable[] = [];
    before(async () => {
      previous = (await api()).setDefinitionSearch(undefined);
    });
    after(async () => {
      (await api()).setDefinitionSearch(previous);
      for (const d of disposables) d.dispose();
    });
    const definitions = async (search: DefinitionSearch): Promise<ContextSnippet[]> => {
      (await api()).setDefinitionSearch(search);
      const { document, end } = await documentWith(line);
      return (await (await api()).context(document, end)).filter((s) => s.kind === 'definition');
    };

    it('finds the definition in the workspace index (the search feature\'s own engine), never one from an ignored file', async () => {
      const built = testDeps('Stratus inline definitions test', sandbox().apiKey);
      const service = new SearchService(built.deps, undefined);
      disposables.push(...built.disposables, service);
      service.start();
      await service.whenIndexed();
      await service.flush();
      assert.ok(service.ready, 'the index is built');
      // The first lookup may outlast the time box: it goes on and serves the next keystroke.
      const found = await eventually(async () => {
        const snippets = await definitions(service);
        return snippets.length > 0 ? snippets : undefined;
      }, 'the definition to be found');
      assert.deepEqual(found.map((s) => s.path), ['inline-context/geometry.ts']);
      assert.match(found[0]?.text ?? '', /^export function computeTotalWidth\(columns: number\[\], gap: number\): number \{\n {2}return columns/);
    });

    it('a file ignored by .gitignore or files.exclude never contributes, even when the index returns it', async () => {
      const place = (path: string): IndexedPlace => {
        const root = vscode.workspace.workspaceFolders?.[0]?.uri;
        assert.ok(root);
        return { uri: vscode.Uri.joinPath(root, ...path.split('/')), path, startLine: 1, endLine: 4 };
      };
      const index: Record<string, IndexedPlace[]> = {
        hiddenWidth: [place('inline-context/hidden.ts')],
        excludedWidth: [place('inline-context/excluded.ts')],
        computeTotalWidth: [place('inline-context/geometry.ts')],
      };
      const asked: string[] = [];
      const found = await eventually(async () => {
        const snippets = await definitions({ ready: true, lexical: (q) => (asked.push(q), index[q] ?? []) });
        return snippets.length > 0 ? snippets : undefined;
      }, 'the allowed definition');
      assert.deepEqual(found.map((s) => s.path), ['inline-context/geometry.ts']);
      assert.deepEqual([...new Set(asked)].sort(), ['computeTotalWidth', 'excludedWidth', 'hiddenWidth']);
    });

    it('an index not built yet is not queried (ghost text never starts a build)', async () => {
      let asked = 0;
      const snippets = await definitions({ ready: false, lexical: () => (asked++, []) });
      assert.deepEqual(snippets, []);
      assert.equal(asked, 0);
    });
  });
});
