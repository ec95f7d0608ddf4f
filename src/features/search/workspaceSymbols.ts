import * as vscode from 'vscode';
import { isIdentifierQuery, type SymbolDefinition } from '../../core/search';
import { relativePath } from './workspaceFs';

/**
 * How long the symbol providers get: a warm language server answers in tens of milliseconds; a
 * cold one (a project still loading) can take seconds, and the index's order alone is used then.
 */
export const SYMBOL_BUDGET_MS = 300;

/**
 * The workspace symbols (`vscode.executeWorkspaceSymbolProvider`) in `folder` for an
 * identifier-like query, as definitions the core fuses with the index (query/symbolFusion.ts).
 * None for another query, when no provider answers within the budget, or when one fails.
 */
export async function workspaceDefinitions(folder: vscode.Uri, query: string, budgetMs = SYMBOL_BUDGET_MS): Promise<SymbolDefinition[]> {
  if (!isIdentifierQuery(query)) return [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), budgetMs);
  });
  try {
    const asked = Promise.resolve(vscode.commands.executeCommand<readonly vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', query.trim())).then(
      (found) => found,
      () => undefined,
    );
    const symbols = await Promise.race([asked, timedOut]);
    const out: SymbolDefinition[] = [];
    for (const s of Array.isArray(symbols) ? (symbols as readonly vscode.SymbolInformation[]) : []) {
      const range = s.location?.range;
      const path = s.location?.uri ? relativePath(folder, s.location.uri) : undefined;
      if (!range || path === undefined || typeof s.name !== 'string') continue;
      out.push({ name: s.name, path, startLine: range.start.line + 1, endLine: range.end.line + 1 });
    }
    return out;
  } finally {
    clearTimeout(timer);
  }
}
