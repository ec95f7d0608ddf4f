import * as vscode from 'vscode';
import type { EditArgs, EditDiagnostic } from '../../core/edit';
import { ValidationError } from '../../core/errors';
import { AnchoredLines } from '../../platform/anchoredLines';
import type { DocumentChangeLog } from '../../platform/documentChangeLog';

/**
 * The whole lines an edit rewrites, anchored from the moment they are chosen: read `lines.span`
 * after every await (undefined: their text changed). The owner disposes `lines`.
 */
export interface EditTarget {
  readonly document: vscode.TextDocument;
  readonly lines: AnchoredLines;
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

/** The arguments' range, read in `args.version` of the document, where it is now (its lines moved, its columns kept). */
function rangeNow(args: EditArgs, document: vscode.TextDocument, changes: DocumentChangeLog): vscode.Range | undefined {
  if (!args.range) return undefined;
  const { start, end } = args.range;
  if (args.version === undefined) return new vscode.Range(start.line, start.character, end.line, end.character);
  const moved = changes.linesNow(document, args.version, { firstLine: start.line, lineCount: end.line - start.line + 1 });
  if (!moved) throw new ValidationError(`the document changed inside the range since it was read (version ${args.version}, now ${document.version}), so nothing was changed. Try again.`, 'range');
  const by = moved.firstLine - start.line;
  return new vscode.Range(start.line + by, start.character, end.line + by, end.character);
}

/** What to edit: the arguments' document and range, else the active editor's selection, else the enclosing block. */
export async function resolveTarget(args: EditArgs, changes: DocumentChangeLog): Promise<EditTarget | undefined> {
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
  const given = rangeNow(args, document, changes);
  if (given) {
    if (given.start.line >= document.lineCount || given.end.line >= document.lineCount) throw new ValidationError(`range is outside the document (it has ${document.lineCount} lines).`, 'range');
    range = given;
  }
  const at = range ?? new vscode.Range(0, 0, 0, 0);
  if (!at.isEmpty) return { document, lines: new AnchoredLines(document, selectionLines(at)) };
  // The symbols describe the text as it was when asked for: a block found in text changed since is refused as stale.
  const version = document.version;
  const block = await enclosingBlock(document, at.start);
  const lines = new AnchoredLines(document, block);
  if (document.version !== version) lines.markStale();
  return { document, lines };
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

/** The problems VS Code reports on the lines `firstLine`.. of `document`. */
export function diagnosticsIn(document: vscode.TextDocument, firstLine: number, lineCount: number): EditDiagnostic[] {
  const last = firstLine + lineCount - 1;
  return vscode.languages
    .getDiagnostics(document.uri)
    .filter((d) => d.range.start.line <= last && d.range.end.line >= firstLine)
    .map((d) => ({ line: Math.max(firstLine, d.range.start.line), severity: severity(d.severity), message: d.message, source: d.source }));
}
