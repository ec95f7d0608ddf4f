import * as vscode from 'vscode';
import type { EditArgs, EditDiagnostic } from '../../core/edit';
import { ValidationError } from '../../core/errors';

/** The whole lines an edit rewrites. */
export interface EditTarget {
  readonly document: vscode.TextDocument;
  readonly firstLine: number;
  readonly lineCount: number;
}

function symbolsAt(symbols: readonly vscode.DocumentSymbol[], position: vscode.Position): vscode.DocumentSymbol | undefined {
  const blockKinds = new Set([vscode.SymbolKind.Function, vscode.SymbolKind.Method, vscode.SymbolKind.Class, vscode.SymbolKind.Constructor, vscode.SymbolKind.Interface, vscode.SymbolKind.Enum, vscode.SymbolKind.Struct]);
  let found: vscode.DocumentSymbol | undefined;
  let level: readonly vscode.DocumentSymbol[] = symbols;
  for (;;) {
    const inside = level.find((s) => s.range.contains(position));
    if (!inside) return found;
    if (blockKinds.has(inside.kind)) found = inside;
    level = inside.children;
  }
}

/** The innermost function or class around `position` (document symbols), else its line. */
export async function enclosingBlock(document: vscode.TextDocument, position: vscode.Position): Promise<{ firstLine: number; lineCount: number }> {
  try {
    const symbols = await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>('vscode.executeDocumentSymbolProvider', document.uri);
    const tree = (symbols ?? []).filter((s): s is vscode.DocumentSymbol => 'children' in s);
    const block = symbolsAt(tree, position);
    if (block) return { firstLine: block.range.start.line, lineCount: block.range.end.line - block.range.start.line + 1 };
  } catch {
    // No symbol provider for this language: the line.
  }
  return { firstLine: position.line, lineCount: 1 };
}

/** Whole lines of a selection; a selection ending at column 0 of a line does not take that line. */
export function selectionLines(range: vscode.Range): { firstLine: number; lineCount: number } {
  const last = range.end.character === 0 && range.end.line > range.start.line ? range.end.line - 1 : range.end.line;
  return { firstLine: range.start.line, lineCount: last - range.start.line + 1 };
}

/** What to edit: the arguments' document and range, else the active editor's selection, else the enclosing block. */
export async function resolveTarget(args: EditArgs): Promise<EditTarget | undefined> {
  let document: vscode.TextDocument | undefined;
  let range: vscode.Range | undefined;
  if (args.uri !== undefined) {
    let uri: vscode.Uri;
    try {
      uri = vscode.Uri.parse(args.uri, true);
    } catch {
      throw new ValidationError(`uri is not a valid URI: ${args.uri.slice(0, 200)}`, 'uri');
    }
    document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()) ?? (await vscode.workspace.openTextDocument(uri));
    const editor = vscode.window.activeTextEditor;
    if (!args.range && editor?.document === document) range = editor.selection;
  } else {
    const editor = vscode.window.activeTextEditor;
    if (!editor) return undefined;
    document = editor.document;
    if (!args.range) range = editor.selection;
  }
  if (args.range) {
    const { start, end } = args.range;
    if (start.line >= document.lineCount || end.line >= document.lineCount) throw new ValidationError(`range is outside the document (it has ${document.lineCount} lines).`, 'range');
    range = new vscode.Range(start.line, start.character, end.line, end.character);
  }
  const at = range ?? new vscode.Range(0, 0, 0, 0);
  const lines = at.isEmpty ? await enclosingBlock(document, at.start) : selectionLines(at);
  return { document, ...lines };
}

function severity(s: vscode.DiagnosticSeverity): EditDiagnostic['severity'] {
  switch (s) {
    case vscode.DiagnosticSeverity.Error:
      return 'error';
    case vscode.DiagnosticSeverity.Warning:
      return 'warning';
    case vscode.DiagnosticSeverity.Information:
      return 'info';
    default:
      return 'hint';
  }
}

/** The problems VS Code reports on the target's lines. */
export function diagnosticsIn(target: EditTarget): EditDiagnostic[] {
  const last = target.firstLine + target.lineCount - 1;
  return vscode.languages
    .getDiagnostics(target.document.uri)
    .filter((d) => d.range.start.line <= last && d.range.end.line >= target.firstLine)
    .map((d) => ({ line: Math.max(target.firstLine, d.range.start.line), severity: severity(d.severity), message: d.message, source: d.source }));
}
