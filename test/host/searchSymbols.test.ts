// The improved search order in the real host (issue 34): a language server's workspace symbols
// fused with the index for an identifier (a fake WorkspaceSymbolProvider, so the test does not
// depend on which language extensions the host ships), the index alone when no provider answers,
// and the order reaching the agent's search tool and ghost text's definitions (the real code
// before its test fixture copy, which repeats its words more often).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DefinitionCollector } from '../../src/features/inlineCompletion/definitions';
import { SearchService } from '../../src/features/search/service';
import { RankedWorkspaceSearch } from '../../src/features/tools/rankedSearch';
import type { SearchHit, WorkspaceSearch } from '../../src/features/tools/search';
import { testDeps } from './fakes';
import { eventually, sandbox } from './sandbox';

const RECONCILE = 'export function reconcileLedgerTotals(rows: number[]): number {\n  return rows.reduce((sum, row) => sum + row, 0);\n}\n';
const FILES: Record<string, string> = {
  'symbols-demo/src/ledger/reconcile.ts': `// Sums a ledger's rows.\n${RECONCILE}`,
  // A fixture copy that repeats the words more than the real code: raw BM25 would put it first.
  'symbols-demo/test/fixtures/ledger/reconcile.ts': `${RECONCILE}// reconcile ledger totals, reconcile ledger totals again\n${RECONCILE.replace('reconcileLedgerTotals', 'reconcileLedgerTotalsCopy')}`,
  // Defined as a property (no declaration the index knows), used elsewhere many times.
  'symbols-demo/src/ledger/registry.ts': 'export const handlers = {\n  settleLedgerBatch: (batch: { close(): void }) => batch.close(),\n};\n',
  'symbols-demo/src/ledger/settle.ts': `import { handlers } from './registry';\n${Array.from({ length: 6 }, (_, i) => `// settleLedgerBatch ${i}: settle the ledger batch\nhandlers.settleLedgerBatch(batch${i});`).join('\n')}\n`,
};

function folder(): vscode.Uri {
  const f = vscode.workspace.workspaceFolders?.[0]?.uri;
  assert.ok(f, 'the host opened a folder');
  return f;
}

const uriOf = (path: string): vscode.Uri => vscode.Uri.joinPath(folder(), ...path.split('/'));
const noFallback: WorkspaceSearch = { search: () => Promise.resolve<SearchHit[]>([]) };

describe('search: workspace symbols and the improved order in the host', function () {
  this.timeout(90_000);
  const disposables: vscode.Disposable[] = [];
  let service: SearchService;
  const asked: string[] = [];

  before(async () => {
    for (const [path, text] of Object.entries(FILES)) await vscode.workspace.fs.writeFile(uriOf(path), new TextEncoder().encode(text));
    disposables.push(
      vscode.languages.registerWorkspaceSymbolProvider({
        provideWorkspaceSymbols(query) {
          asked.push(query);
          if (query === 'hangingLedgerName') return new Promise<vscode.SymbolInformation[]>(() => undefined); // never answers
          if (query !== 'settleLedgerBatch') return [];
          return [new vscode.SymbolInformation('settleLedgerBatch', vscode.SymbolKind.Property, 'handlers', new vscode.Location(uriOf('symbols-demo/src/ledger/registry.ts'), new vscode.Range(1, 2, 1, 60)))];
        },
      }),
    );
    const built = testDeps('Stratus search symbols test', sandbox().apiKey);
    service = new SearchService(built.deps, undefined);
    disposables.push(...built.disposables, service);
    service.start();
    await service.whenIndexed();
    await service.flush();
  });
  after(async () => {
    for (const d of disposables) d.dispose();
    await vscode.workspace.fs.delete(uriOf('symbols-demo'), { recursive: true, useTrash: false });
  });

  it("puts a symbol provider's exact definition of an identifier first (the picker's and the agent's order)", async () => {
    const indexAlone = await service.lexical('settleLedgerBatch', { symbols: false });
    assert.equal(indexAlone[0]?.path, 'symbols-demo/src/ledger/settle.ts', 'the index alone puts the file full of uses first');
    const local = await eventually(async () => {
      const hits = await service.lexical('settleLedgerBatch');
      return hits[0]?.path === 'symbols-demo/src/ledger/registry.ts' ? hits : undefined;
    }, 'the definition the provider reported to come first');
    assert.ok(local[0] && local[0].startLine <= 2 && local[0].endLine >= 2, `lines ${local[0]?.startLine}-${local[0]?.endLine}`);
    assert.ok(asked.includes('settleLedgerBatch'), 'the provider was asked');
    assert.ok(local.some((h) => h.path === 'symbols-demo/src/ledger/settle.ts'), "the index's hits follow");
    const tool = await new RankedWorkspaceSearch(service, noFallback).search({ query: 'settleLedgerBatch', maxResults: 5, maxFileBytes: 1 << 20 }, new vscode.CancellationTokenSource().token);
    assert.equal(tool[0]?.path, 'symbols-demo/src/ledger/registry.ts');
  });

  it('answers in the index order when the provider never answers, and for a question (no provider asked)', async () => {
    const hanging = await service.lexical('hangingLedgerName');
    assert.deepEqual(hanging.map((h) => h.path), (await service.lexical('hangingLedgerName', { symbols: false })).map((h) => h.path));
    asked.length = 0;
    await service.lexical('where are the ledger totals reconciled');
    assert.deepEqual(asked, [], 'not an identifier: no provider is asked');
  });

  it("the agent's search tool answers an identifier with the file defining it, above the fixture copy", async () => {
    const tool = new RankedWorkspaceSearch(service, noFallback);
    const hits = await tool.search({ query: 'reconcileLedgerTotals', maxResults: 5, maxFileBytes: 1 << 20 }, new vscode.CancellationTokenSource().token);
    const paths = hits.map((h) => h.path);
    assert.equal(paths[0], 'symbols-demo/src/ledger/reconcile.ts', paths.join(', '));
    assert.ok(paths.indexOf('symbols-demo/test/fixtures/ledger/reconcile.ts') > 0, 'the fixture is demoted, not dropped');
  });

  it("ghost text's definitions context takes the definition from the real code, not the fixture copy", async () => {
    const collector = new DefinitionCollector();
    collector.setSearch(service);
    const document = await vscode.workspace.openTextDocument({ language: 'typescript', content: 'const total = reconcileLedgerTotals(rows);\nconst next = ' });
    const end = document.positionAt(document.getText().length);
    const found = await eventually(async () => {
      const snippets = await collector.collect(document, end, () => Promise.resolve(true));
      return snippets.length > 0 ? snippets : undefined;
    }, 'the definition to be found');
    assert.deepEqual(found.map((s) => s.path), ['symbols-demo/src/ledger/reconcile.ts']);
    assert.match(found[0]?.text ?? '', /^export function reconcileLedgerTotals\(rows: number\[\]\): number \{/);
  });
});
