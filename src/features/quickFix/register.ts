import * as vscode from 'vscode';
import { DisposableStore } from '../../platform/disposables';
import { openStratusChat, type ChatOutcome } from '../../platform/openChat';
import type { Deps } from '../deps';
import { diagnosticNow } from './diagnosticNow';
import { boundedExcerpt, DOCUMENTATION_INSTRUCTION, explainCodeQuery, explainDiagnosticQuery, generateTestsQuery, type CodeExcerpt } from './prompts';
import { EDIT_COMMAND, EXPLAIN_DIAGNOSTIC_COMMAND, StratusQuickFixes, type EditArgs, type ExplainDiagnosticArgs } from './provider';

export const QuickFixCommands = {
  explainDiagnostic: EXPLAIN_DIAGNOSTIC_COMMAND,
  explainSelection: 'stratus.explainSelection',
  addDocumentation: 'stratus.addDocumentation',
  generateTests: 'stratus.generateTests',
} as const;

/** Lines shown around a diagnostic when it is explained. */
const CONTEXT_LINES = 10;

export type { ChatOutcome } from '../../platform/openChat';

/** Quick fixes on diagnostics, and Explain / Add Documentation / Generate Tests in the editor's context menu. */
export function register(deps: Deps): vscode.Disposable {
  const store = new DisposableStore();
  const titles = { fix: vscode.l10n.t('Fix with Stratus'), explain: vscode.l10n.t('Explain with Stratus') };
  store.add(vscode.languages.registerCodeActionsProvider([{ scheme: 'file' }, { scheme: 'untitled' }, { scheme: 'vscode-remote' }], new StratusQuickFixes(titles), { providedCodeActionKinds: StratusQuickFixes.kinds }));
  store.add(vscode.commands.registerCommand(QuickFixCommands.explainDiagnostic, (args?: ExplainDiagnosticArgs) => explainDiagnostic(deps, args)));
  store.add(vscode.commands.registerCommand(QuickFixCommands.explainSelection, async () => {
    const excerpt = await selectionExcerpt();
    return excerpt ? openChat(deps, explainCodeQuery(excerpt)) : {};
  }));
  store.add(vscode.commands.registerCommand(QuickFixCommands.generateTests, async () => {
    const excerpt = await selectionExcerpt();
    return excerpt ? openChat(deps, generateTestsQuery(excerpt)) : {};
  }));
  store.add(vscode.commands.registerCommand(QuickFixCommands.addDocumentation, () => addDocumentation()));
  return store;
}

function pathOf(document: vscode.TextDocument): string {
  return document.isUntitled ? document.uri.path : vscode.workspace.asRelativePath(document.uri, false);
}

function excerptOf(document: vscode.TextDocument, range: vscode.Range): CodeExcerpt {
  const whole = new vscode.Range(range.start.line, 0, range.end.line, document.lineAt(range.end.line).text.length);
  const bounded = boundedExcerpt(document.getText(whole), range.start.line);
  return { path: pathOf(document), languageId: document.languageId, ...bounded };
}

/** The innermost function, method or class around `position`, from the document's symbols (none: undefined). */
async function enclosingSymbol(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Range | undefined> {
  const symbols = await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>('vscode.executeDocumentSymbolProvider', document.uri);
  const blocks = new Set([vscode.SymbolKind.Function, vscode.SymbolKind.Method, vscode.SymbolKind.Class, vscode.SymbolKind.Constructor, vscode.SymbolKind.Interface, vscode.SymbolKind.Enum, vscode.SymbolKind.Struct]);
  let found: vscode.Range | undefined;
  const visit = (list: readonly (vscode.DocumentSymbol | vscode.SymbolInformation)[]): void => {
    for (const symbol of list) {
      const range = 'range' in symbol ? symbol.range : symbol.location.range;
      if (!range.contains(position)) continue;
      if (blocks.has(symbol.kind)) found = range;
      if ('children' in symbol) visit(symbol.children);
    }
  };
  visit(symbols ?? []);
  return found;
}

/** The selection, else the enclosing block, else the cursor's line, of the active editor. */
async function selectionExcerpt(): Promise<CodeExcerpt | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Stratus: open an editor and select some code first.'));
    return undefined;
  }
  const { document, selection } = editor;
  const range = selection.isEmpty ? ((await enclosingSymbol(document, selection.active)) ?? document.lineAt(selection.active.line).range) : selection;
  return excerptOf(document, range);
}

async function explainDiagnostic(deps: Deps, args: ExplainDiagnosticArgs | undefined): Promise<ChatOutcome> {
  if (!args || typeof args.uri !== 'string' || !args.diagnostic || !args.range) return {};
  const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(args.uri));
  // The light bulb's range is from an earlier version if the user typed since: find it where it is now.
  const now = diagnosticNow(document, args);
  if (!now) {
    const message = vscode.l10n.t('Stratus: the code changed and this problem is no longer reported there. Open the light bulb again.');
    void vscode.window.showInformationMessage(message);
    return { error: message };
  }
  const last = document.lineCount - 1;
  const from = Math.max(0, Math.min(last, now.range.start.line - CONTEXT_LINES));
  const to = Math.max(from, Math.min(last, now.range.end.line + CONTEXT_LINES));
  return openChat(deps, explainDiagnosticQuery(now.info, excerptOf(document, new vscode.Range(from, 0, to, 0))));
}

/** Opens the Chat view with `query` sent to `@stratus`. */
function openChat(deps: Deps, query: string): Promise<ChatOutcome> {
  return openStratusChat(deps, query, vscode.l10n.t('Cannot explain:'));
}

/** "Add Documentation with Stratus": the edit command on the selection (none: the enclosing block) with a preset instruction. */
async function addDocumentation(): Promise<unknown> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Stratus: open an editor and select some code first.'));
    return undefined;
  }
  const { start, end } = editor.selection;
  const args: EditArgs = {
    uri: editor.document.uri.toString(),
    range: { start: { line: start.line, character: start.character }, end: { line: end.line, character: end.character } },
    instruction: DOCUMENTATION_INSTRUCTION,
    version: editor.document.version,
  };
  return vscode.commands.executeCommand(EDIT_COMMAND, args);
}
