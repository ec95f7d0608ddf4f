import * as vscode from 'vscode';
import type { DiagnosticInfo } from './prompts';
import { fixInstruction } from './prompts';

/** Part 1's command: runs an edit with an instruction on a range at once (an empty range: the enclosing block). */
export const EDIT_COMMAND = 'stratus.editWithInstruction';
export const EXPLAIN_DIAGNOSTIC_COMMAND = 'stratus.explainDiagnostic';

/** The edit command's argument (JSON, 0-based positions). */
export interface EditArgs {
  uri: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  instruction: string;
  /** The document version the range was read in: the edit finds it where later edits moved it. */
  version: number;
}

/** The explain command's argument. */
export interface ExplainDiagnosticArgs {
  uri: string;
  diagnostic: DiagnosticInfo;
  range: EditArgs['range'];
  /** The document version the range was read in (the light bulb's); later edits move the diagnostic. */
  version?: number;
}

/** Diagnostics given actions per request: a line with more gets actions for its first ones only. */
export const MAX_DIAGNOSTICS = 5;

const SEVERITY: readonly DiagnosticInfo['severity'][] = ['error', 'warning', 'information', 'hint'];

export interface QuickFixTitles {
  fix: string;
  explain: string;
}

function codeText(code: vscode.Diagnostic['code']): string | undefined {
  if (code === undefined) return undefined;
  return typeof code === 'object' ? String(code.value) : String(code);
}

function shortMessage(message: string): string {
  const line = message.split('\n', 1)[0] ?? '';
  return line.length > 48 ? `${line.slice(0, 47)}…` : line;
}

/**
 * "Fix with Stratus" and "Explain with Stratus" on the diagnostics of the requested range. Builds
 * plain objects and nothing else: no request, no document read, no await, so the light bulb is as
 * fast with it as without (bench/codeActions.mjs measures it on 500 diagnostics). The model is
 * asked only when an action is chosen (its command runs).
 */
export class StratusQuickFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly titles: QuickFixTitles) {}

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] | undefined {
    if (context.only && !context.only.contains(vscode.CodeActionKind.QuickFix)) return undefined;
    const diagnostics = context.diagnostics;
    if (diagnostics.length === 0) return undefined;
    const uri = document.uri.toString();
    const actions: vscode.CodeAction[] = [];
    let given = 0;
    for (const diagnostic of diagnostics) {
      if (given === MAX_DIAGNOSTICS) break;
      // VS Code passes the range's diagnostics; a caller may pass more, so check (two comparisons).
      if (diagnostic.range.end.isBefore(range.start) || diagnostic.range.start.isAfter(range.end)) continue;
      given++;
      const info: DiagnosticInfo = {
        message: diagnostic.message,
        source: diagnostic.source,
        code: codeText(diagnostic.code),
        severity: SEVERITY[diagnostic.severity] ?? 'error',
        line: diagnostic.range.start.line,
      };
      const start = { line: diagnostic.range.start.line, character: diagnostic.range.start.character };
      const end = { line: diagnostic.range.end.line, character: diagnostic.range.end.character };
      const suffix = diagnostics.length > 1 ? `: ${shortMessage(diagnostic.message)}` : '';
      const fix = new vscode.CodeAction(this.titles.fix + suffix, vscode.CodeActionKind.QuickFix);
      fix.diagnostics = [diagnostic];
      // An empty range: the edit works on the block that encloses the diagnostic.
      const edit: EditArgs = { uri, range: { start, end: start }, instruction: fixInstruction(info), version: document.version };
      fix.command = { command: EDIT_COMMAND, title: fix.title, arguments: [edit] };
      const explain = new vscode.CodeAction(this.titles.explain + suffix, vscode.CodeActionKind.QuickFix);
      explain.diagnostics = [diagnostic];
      const args: ExplainDiagnosticArgs = { uri, diagnostic: info, range: { start, end }, version: document.version };
      explain.command = { command: EXPLAIN_DIAGNOSTIC_COMMAND, title: explain.title, arguments: [args] };
      actions.push(fix, explain);
    }
    return actions.length > 0 ? actions : undefined;
  }
}
