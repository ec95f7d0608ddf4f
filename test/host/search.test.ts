// Workspace search in the real host: the command (picker -> Enter opens the range), the index
// following an edit, and `@stratus /search` against the sandbox's rerank endpoint.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { searchChatCommand } from '../../src/features/search/chat';
import { linkTo } from '../../src/features/search/quickPick';
import { SearchService, type WorkspaceSearchHit } from '../../src/features/search/service';
import { stratus } from './extension';
import { control, eventually, requests, sandbox } from './sandbox';
import { RecordingStream, testDeps } from './fakes';

const FIXTURES = ['src/auth/tokenRefresher.ts', 'src/billing/invoice.ts', 'src/storage/uploadQueue.ts', 'docs/operations.md'];

function folder(): vscode.Uri {
  const f = vscode.workspace.workspaceFolders?.[0]?.uri;
  assert.ok(f, 'the host opened a folder');
  return f;
}

async function copyFixtures(): Promise<void> {
  const { extension } = await stratus();
  for (const path of FIXTURES) {
    const from = vscode.Uri.joinPath(extension.extensionUri, 'test', 'fixtures', 'search', 'workspace', ...path.split('/'));
    await vscode.workspace.fs.copy(from, vscode.Uri.joinPath(folder(), ...path.split('/')), { overwrite: true });
  }
}

/** Runs "Stratus: Search Workspace" for `query`, accepts the first item, returns what opened. */
async function searchAndOpen(query: string): Promise<WorkspaceSearchHit | undefined> {
  const chosen = vscode.commands.executeCommand<WorkspaceSearchHit | undefined>('stratus.searchWorkspace', query);
  // The lexical items are there as soon as the picker shows; Enter takes the first one.
  await new Promise((resolve) => setTimeout(resolve, 300));
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  const timeout = new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), 3000));
  const outcome = await Promise.race([chosen, timeout]);
  if (outcome === 'open') {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    return (await chosen) ?? undefined;
  }
  return outcome ?? undefined;
}

describe('workspace search in the host', function () {
  this.timeout(90_000);

  before(async () => {
    // Each suite sets up what it needs: the fixtures and the sandbox's fake API key (rerank).
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
    await copyFixtures();
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await control('/reset', {});
  });

  it('"Stratus: Search Workspace" finds the file for a question and Enter opens its range', async () => {
    const hit = await eventually(async () => {
      const h = await searchAndOpen('where do we refresh the auth token before it expires');
      return h?.path === 'src/auth/tokenRefresher.ts' ? h : undefined;
      // Each try waits for the picker and the first index build: give a loaded machine time.
    }, 'the picker to offer src/auth/tokenRefresher.ts first', 50_000);
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor);
    assert.equal(editor.document.uri.path, vscode.Uri.joinPath(folder(), 'src/auth/tokenRefresher.ts').path);
    assert.equal(editor.selection.start.line, hit.startLine - 1, 'the range is selected');
    assert.ok(editor.selection.end.line >= editor.selection.start.line);
    // The picker's link button copies this: the file URI with the line range as fragment.
    assert.equal(linkTo(hit), `${vscode.Uri.joinPath(folder(), 'src/auth/tokenRefresher.ts').toString()}#L${hit.startLine}-L${hit.endLine}`);
  });

  it('"Stratus: Rebuild Search Index" builds from scratch and reports what it indexed', async () => {
    const stats = await vscode.commands.executeCommand<{ source: string; files: number; skipped: Record<string, number> } | undefined>('stratus.rebuildSearchIndex');
    assert.ok(stats, 'the rebuild finished');
    assert.equal(stats.source, 'built');
    assert.ok(stats.files >= FIXTURES.length + 1, `${stats.files} files`);
  });

  it('editing a file updates the index (file watcher, debounced)', async () => {
    const uri = vscode.Uri.joinPath(folder(), 'src/billing/invoice.ts');
    const before = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(`${before}\n/** Applies a loyalty voucher to the basket. */\nexport function redeemLoyaltyVoucher(total: number, voucherPercent: number): number {\n  return total * (1 - voucherPercent / 100);\n}\n`));
    const hit = await eventually(async () => {
      const h = await searchAndOpen('redeem a loyalty voucher');
      return h?.path === 'src/billing/invoice.ts' ? h : undefined;
    }, 'the edited file to be found by its new words');
    assert.ok(hit.startLine > 10, `the new function's chunk (lines ${hit.startLine}-${hit.endLine})`);
  });
});



describe('@stratus /search in the host (against the sandbox)', function () {
  this.timeout(60_000);
  const disposables: vscode.Disposable[] = [];
  let service: SearchService;

  const ask = async (prompt: string, cancel?: vscode.CancellationTokenSource): Promise<{ stream: RecordingStream; result: vscode.ChatResult }> => {
    const stream = new RecordingStream();
    const request = { prompt, command: 'search', references: [], toolReferences: [] } as unknown as vscode.ChatRequest;
    const result = await searchChatCommand(service).handle(request, { history: [] } as unknown as vscode.ChatContext, stream.asStream(), (cancel ?? new vscode.CancellationTokenSource()).token);
    return { stream, result };
  };

  before(async () => {
    await copyFixtures();
    const built = testDeps('Stratus search test', sandbox().apiKey);
    service = new SearchService(built.deps, undefined);
    disposables.push(...built.disposables, service);
    service.start();
    await service.whenIndexed();
  });
  after(async () => {
    for (const d of disposables) d.dispose();
    await control('/reset', {});
  });

  it('answers with the ranked places as anchors, reranked by the service', async () => {
    const before = (await requests('/v1/rerank')).length;
    const { stream, result } = await ask('how is the VAT added to the invoice total');
    assert.equal(result.errorDetails, undefined);
    assert.match(stream.text, /reranked/);
    const first = stream.anchors[0]?.value;
    assert.ok(first instanceof vscode.Location, 'anchors are locations (file + range)');
    assert.ok(first.uri.path.endsWith('/src/billing/invoice.ts'), first.uri.path);
    assert.ok(stream.references.length >= 1);
    assert.ok((await requests('/v1/rerank')).length > before, 'the rerank endpoint was called');
  });

  it('falls back to the local order with a visible note when reranking fails', async () => {
    await control('/burst', { status: 500, count: 20, pathPrefix: '/v1/rerank' });
    const { stream } = await ask('rotate the database password');
    assert.ok(stream.anchors.some((a) => a.value instanceof vscode.Location && a.value.uri.path.endsWith('/docs/operations.md')));
    assert.match(stream.text, /Best local matches/);
    assert.match(stream.text, /Local order: reranking failed\. The service failed \(500/);
    await control('/reset', {});
  });

  it('an empty question explains the usage instead of searching', async () => {
    const { stream } = await ask('   ');
    assert.match(stream.text, /Ask a question about this workspace after `\/search`/);
  });
});
