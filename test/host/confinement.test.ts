// Workspace files behind symbolic links that leave the workspace, in a real extension host: the
// search tool (ranked index and lexical fallback), readFile, and the search index's file events
// must never return (or send to the rerank endpoint) the text of a file outside the workspace.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { SearchService } from '../../src/features/search/service';
import { ReadFileTool } from '../../src/features/tools/fileTools';
import { ToolNames } from '../../src/core/agent/toolNames';
import { testDeps } from './fakes';
import { control, eventually, requests, sandbox } from './sandbox';

/** An obviously fake secret, one search term. */
const SECRET = 'fakeoutsidesecretvalue';
const WORD = 'confinecanary';

const token = (): vscode.CancellationToken => new vscode.CancellationTokenSource().token;
const text = (result: vscode.LanguageModelToolResult | null | undefined): string =>
  (result?.content ?? []).map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
const invokeOptions = <T>(input: T): vscode.LanguageModelToolInvocationOptions<T> => ({ input, toolInvocationToken: undefined });

describe('confinement: workspace files behind symbolic links that leave the workspace', function () {
  this.timeout(90_000);
  let root: string;
  let outside: string;
  const created = ['confine-escape.txt', 'confine-escape-dir', 'confine-notes.txt', 'confine-docs'];

  before(async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the host opens a workspace folder');
    root = folder.uri.fsPath;
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
    outside = mkdtempSync(join(tmpdir(), 'stratus-outside-'));
    writeFileSync(join(outside, 'secret.txt'), `${WORD} token = ${SECRET}\n`);
    writeFileSync(join(outside, 'credentials'), `[default]\n${WORD} aws_secret_access_key = ${SECRET}\n`);
    // The links first, then an ordinary file: once the index has the file, it has seen the links' events.
    symlinkSync(join(outside, 'secret.txt'), join(root, 'confine-escape.txt'));
    symlinkSync(outside, join(root, 'confine-escape-dir'));
    writeFileSync(join(root, 'confine-notes.txt'), `The ${WORD} note inside the workspace.\n`);
    mkdirSync(join(root, 'confine-docs'), { recursive: true });
  });

  after(async () => {
    for (const name of created) rmSync(join(root, name), { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
    await control('/reset', {});
  });

  it('stratus_searchWorkspace (the ranked index) finds the file inside and never the text behind the links', async () => {
    const found = await eventually(async () => {
      const t = text(await vscode.lm.invokeTool(ToolNames.searchWorkspace, { input: { query: `${WORD} token` }, toolInvocationToken: undefined }, token()));
      return t.includes('confine-notes.txt') ? t : undefined;
    }, 'the search tool to find confine-notes.txt', 60_000);
    assert.ok(!found.includes(SECRET), found);
    assert.ok(!found.includes('confine-escape'), found);
  });

  it('stratus_searchWorkspace with an include glob (the lexical scan over findFiles) skips the links', async () => {
    for (const include of ['**/*', 'confine-escape*', 'confine-escape-dir/**']) {
      const t = text(await vscode.lm.invokeTool(ToolNames.searchWorkspace, { input: { query: `${WORD} token`, include, maxResults: 50 }, toolInvocationToken: undefined }, token()));
      assert.ok(!t.includes(SECRET), `${include}: ${t}`);
      assert.ok(!/^confine-escape/m.test(t), `${include}: ${t}`);
    }
  });

  it('stratus_readFile refuses both links with a sentence, and reads the file inside', async () => {
    for (const path of ['confine-escape.txt', 'confine-escape-dir/secret.txt', 'confine-escape-dir/credentials']) {
      await assert.rejects(Promise.resolve(new ReadFileTool().invoke(invokeOptions({ path }))), (error: Error) => /outside the workspace/.test(error.message) && !error.message.includes(SECRET));
      await assert.rejects(Promise.resolve(vscode.lm.invokeTool(ToolNames.readFile, { input: { path }, toolInvocationToken: undefined }, token())), (error: Error) => !error.message.includes(SECRET));
    }
    const inside = text(await vscode.lm.invokeTool(ToolNames.readFile, { input: { path: 'confine-notes.txt' }, toolInvocationToken: undefined }, token()));
    assert.match(inside, new RegExp(`${WORD} note inside`));
    // An editor's unsaved text still wins over the disk.
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(join(root, 'confine-notes.txt')));
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(0, 0), 'unsaved first line\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    try {
      const dirty = text(await vscode.lm.invokeTool(ToolNames.readFile, { input: { path: 'confine-notes.txt' }, toolInvocationToken: undefined }, token()));
      assert.match(dirty, /^File: confine-notes.txt \(lines 1–3 of 3\)\n1: unsaved first line\n2: The confinecanary note/);
    } finally {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      assert.equal(doc.isDirty, false);
    }
  });

  describe('the search index after the first build', () => {
    const disposables: vscode.Disposable[] = [];
    let service: SearchService;

    before(async () => {
      const built = testDeps('Stratus confinement test', sandbox().apiKey);
      service = new SearchService(built.deps, undefined);
      disposables.push(...built.disposables, service);
      service.start();
      await service.whenIndexed();
    });

    after(() => {
      for (const d of disposables) d.dispose();
    });

    it('a link added by a checkout (docs/setup.md -> credentials outside) is not indexed on its change event, nor sent to rerank', async () => {
      const rerankBefore = (await requests('/v1/rerank')).length;
      const updated = new Promise<string[]>((resolve) => {
        const sub = service.onDidUpdateIndex((paths) => {
          if (paths.includes('confine-docs/setup.md')) {
            sub.dispose();
            resolve(paths);
          }
        });
      });
      symlinkSync(join(outside, 'credentials'), join(root, 'confine-docs', 'setup.md'));
      await updated;
      const result = await service.searchWorkspace(`${WORD} aws_secret_access_key`);
      assert.ok(!result.hits.some((h) => h.path.startsWith('confine-docs/') || h.preview.includes(SECRET)), JSON.stringify(result.hits));
      const sent = (await requests('/v1/rerank')).slice(rerankBefore);
      assert.ok(!JSON.stringify(sent).includes(SECRET), 'the rerank endpoint never received the text');
    });
  });
});
