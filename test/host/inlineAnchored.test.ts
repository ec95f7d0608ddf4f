import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { InlineCompletionTestApi } from '../../src/features/inlineCompletion/register';
import { stratus } from './extension';
import { control, eventually, sandbox } from './sandbox';
import { untitledDocument } from './editors';

// Issue 31, item 5 (audit of ghost text): a suggestion is requested for the text and cursor of one
// moment; it is placed only if the document is still that text when the answer arrives.

describe('Anchored ranges: ghost text is placed only in the text it was asked for', function () {
  this.timeout(60_000);
  const inline = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('stratus.completion.inline');

  async function api(): Promise<InlineCompletionTestApi> {
    const { api: stratusApi } = await stratus();
    assert.ok(stratusApi.inlineCompletion);
    return stratusApi.inlineCompletion;
  }

  beforeEach(async () => {
    await control('/reset', {});
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
    await vscode.workspace.getConfiguration('stratus').update('chat.model', 'gpt-oss:120b', vscode.ConfigurationTarget.Global);
    await inline().update('debounceMs', 0, vscode.ConfigurationTarget.Global);
    (await api()).retry();
  });
  after(async () => {
    await control('/reset', {});
    await vscode.workspace.getConfiguration('stratus').update('chat.model', undefined, vscode.ConfigurationTarget.Global);
    await inline().update('debounceMs', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('stratus.removeApiKey');
  });

  it('a line inserted above while the model answers: no suggestion at the old position (VS Code asks again)', async () => {
    await control('/latency', { ms: 0, chunkDelayMs: 300, pathPrefix: '/v1/completions' });
    const before = Math.max(0, ...((await control('/completions')) as { streams: { seq: number }[] }).streams.map((s) => s.seq));
    const content = `// ${Math.random().toString(36).slice(2)}\nconst answer = `;
    const document = await untitledDocument(content, 'typescript');
    const end = document.positionAt(content.length);
    const pending = (await api()).provider.provideInlineCompletionItems(document, end, { triggerKind: vscode.InlineCompletionTriggerKind.Automatic, selectedCompletionInfo: undefined }, new vscode.CancellationTokenSource().token);
    await eventually(async () => ((await control('/completions')) as { streams: { seq: number }[] }).streams.find((s) => s.seq > before), 'the request to start streaming');
    const above = new vscode.WorkspaceEdit();
    above.insert(document.uri, new vscode.Position(0, 0), 'import { x } from "y";\n');
    assert.ok(await vscode.workspace.applyEdit(above));
    const result = await pending;
    const items = result ? (Array.isArray(result) ? result : result.items) : [];
    assert.deepEqual(items.map((i) => i.range), [], 'nothing placed at line 1, which is now other text');
  });
});
