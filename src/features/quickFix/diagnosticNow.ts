import * as vscode from 'vscode';
import type { DiagnosticInfo } from './prompts';
import type { ExplainDiagnosticArgs } from './provider';

/** Where a diagnostic offered by the light bulb is now: its info (with the current line) and range. */
export interface DiagnosticNow {
  readonly info: DiagnosticInfo;
  readonly range: vscode.Range;
}

const codeText = (code: vscode.Diagnostic['code']): string | undefined =>
  code === undefined ? undefined : typeof code === 'object' ? String(code.value) : String(code);

/**
 * The light bulb's diagnostic where it is when the command runs: as offered when the document has
 * not changed since (same version, or no version given by an older caller), else the same
 * diagnostic (message, source and code) among the document's current ones, the nearest to where it
 * was; undefined when it is gone (the code changed under it: the caller refuses as stale).
 */
export function diagnosticNow(document: vscode.TextDocument, args: ExplainDiagnosticArgs): DiagnosticNow | undefined {
  const offered = new vscode.Range(args.range.start.line, args.range.start.character, args.range.end.line, args.range.end.character);
  if (args.version === undefined || args.version === document.version) return { info: args.diagnostic, range: offered };
  const same = vscode.languages
    .getDiagnostics(document.uri)
    .filter((d) => d.message === args.diagnostic.message && d.source === args.diagnostic.source && codeText(d.code) === args.diagnostic.code);
  const nearest = same.sort((a, b) => Math.abs(a.range.start.line - offered.start.line) - Math.abs(b.range.start.line - offered.start.line))[0];
  return nearest ? { info: { ...args.diagnostic, line: nearest.range.start.line }, range: nearest.range } : undefined;
}
