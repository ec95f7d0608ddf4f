import * as vscode from 'vscode';
import { exactDefinitions, hasGeneratedHeader, isIdentifierQuery, type SymbolDefinition } from '../../core/search';
import { readWorkspaceText } from '../../platform/workspaceFiles';
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

/** Header bytes read per file (the index reads as many: text/generatedHeader.ts). */
const HEADER_BYTES = 2048;
/** Files whose header is read at most per query (definitions lifted are fewer still). */
const MAX_HEADERS_READ = 8;

/**
 * The files among `paths` that hold one of the query's exact definitions and whose header says
 * they are generated: the index demotes them by that header, so fusion must not lift them back.
 */
export async function generatedDefinitionFiles(folder: vscode.Uri, query: string, definitions: readonly SymbolDefinition[], paths: ReadonlySet<string>): Promise<Set<string>> {
  const candidates = [...new Set(exactDefinitions(query, definitions).filter((d) => paths.has(d.path)).map((d) => d.path))].slice(0, MAX_HEADERS_READ);
  const reads = await Promise.all(
    candidates.map(async (path) => {
      const read = await readWorkspaceText(vscode.Uri.joinPath(folder, ...path.split('/')), HEADER_BYTES);
      return read.ok && !read.binary && hasGeneratedHeader(read.text) ? path : undefined;
    }),
  );
  return new Set(reads.filter((p): p is string => p !== undefined));
}
