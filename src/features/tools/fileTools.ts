import * as vscode from 'vscode';
import { confineGlob } from '../../core/agent/paths';
import { isCredentialFile } from '../../core/workspace/credentialFiles';
import type { WorkspaceSearch } from '../../platform/workspaceTextSearch';
import { displayPath, maxFileBytes, readCapped, resolveWorkspacePath, textResult, ToolFailure } from '../../platform/toolWorkspace';

/** Read-only workspace tools: they only show what they do, and ask only before reading a credential file. */

const MAX_LINES = 2000;

interface ReadFileInput { path: string; startLine?: number; endLine?: number }
interface ListFilesInput { glob: string; maxResults?: number }
interface SearchInput { query: string; include?: string; maxResults?: number }
interface DiagnosticsInput { path?: string; severity?: 'error' | 'warning' | 'all' }

export class ReadFileTool implements vscode.LanguageModelTool<ReadFileInput> {
  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ReadFileInput>): vscode.PreparedToolInvocation {
    const invocationMessage = options.input.startLine
      ? vscode.l10n.t('Reading {0} (lines {1}–{2})', options.input.path, options.input.startLine, options.input.endLine ?? vscode.l10n.t('end'))
      : vscode.l10n.t('Reading {0}', options.input.path);
    // A file named like one that holds credentials (`.env`, a private key): what is read goes to the model.
    if (typeof options.input.path === 'string' && isCredentialFile(options.input.path)) {
      const message = vscode.l10n.t('{0} is named like a file that holds credentials (passwords, tokens, private keys). What is read goes to the model as part of this chat.', options.input.path);
      return { invocationMessage, confirmationMessages: { title: vscode.l10n.t('Read a file that may hold secrets?'), message } };
    }
    return { invocationMessage };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<ReadFileInput>): Promise<vscode.LanguageModelToolResult> {
    const { input } = options;
    const file = await resolveWorkspacePath(input.path);
    const cap = maxFileBytes();
    const read = await readCapped(file.uri, cap);
    if (read.binary) throw new ToolFailure(`"${file.relative}" is a binary file (${read.size.toLocaleString('en')} bytes); only text files can be read.`);
    const lines = read.text.split(/\r?\n/);
    if (read.truncated) lines.pop(); // the last line may be cut mid-way
    const start = Math.max(1, input.startLine ?? 1);
    if (start > lines.length && !(read.truncated && input.startLine)) {
      throw new ToolFailure(`"${file.relative}" has ${lines.length} lines; startLine ${start} is past the end.`);
    }
    const requestedEnd = Math.min(lines.length, input.endLine ?? lines.length);
    if (requestedEnd < start) throw new ToolFailure(`endLine (${requestedEnd}) is before startLine (${start}).`);
    const end = Math.min(requestedEnd, start + MAX_LINES - 1);
    const width = String(end).length;
    const body = lines.slice(start - 1, end).map((l, k) => `${String(start + k).padStart(width)}: ${l}`).join('\n');
    const notes: string[] = [];
    if (end < requestedEnd) notes.push(`[Showing lines ${start}–${end} of ${requestedEnd}; read from line ${end + 1} for more.]`);
    if (read.truncated && end >= lines.length) notes.push(`[The file has ${read.size.toLocaleString('en')} bytes; only the first ${cap.toLocaleString('en')} were read (setting stratus.tools.maxFileBytes).]`);
    return textResult(`File: ${file.relative} (lines ${start}–${end}${read.truncated ? '' : ` of ${lines.length}`})\n${body}${notes.length ? `\n${notes.join('\n')}` : ''}`);
  }
}

export class ListFilesTool implements vscode.LanguageModelTool<ListFilesInput> {
  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ListFilesInput>): vscode.PreparedToolInvocation {
    return { invocationMessage: vscode.l10n.t('Listing files matching {0}', options.input.glob) };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<ListFilesInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const glob = confineGlob(String(options.input.glob ?? ''));
    if (!glob.ok) throw new ToolFailure(glob.reason);
    if ((vscode.workspace.workspaceFolders?.length ?? 0) === 0) throw new ToolFailure('No workspace folder is open, so there are no files to list.');
    const max = Math.min(500, Math.max(1, options.input.maxResults ?? 100));
    const found = await vscode.workspace.findFiles(glob.glob, undefined, max + 1, token);
    const paths = found.map(displayPath).sort();
    if (paths.length === 0) return textResult(`No files match "${glob.glob}" (the user's files.exclude and search.exclude apply). Try a broader glob, e.g. "**/${glob.glob.split('/').pop() ?? '*'}".`);
    const more = paths.length > max;
    return textResult(`${more ? `First ${max}` : paths.length} file(s) matching "${glob.glob}":\n${paths.slice(0, max).join('\n')}${more ? `\n[More files match; narrow the glob or raise maxResults.]` : ''}`);
  }
}

export class SearchTool implements vscode.LanguageModelTool<SearchInput> {
  constructor(private readonly engine: () => WorkspaceSearch) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<SearchInput>): vscode.PreparedToolInvocation {
    return { invocationMessage: vscode.l10n.t('Searching the workspace for "{0}"', options.input.query) };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<SearchInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const query = String(options.input.query ?? '').trim();
    if (!query) throw new ToolFailure('The query is empty; give the words or identifier to look for.');
    let include: string | undefined;
    if (options.input.include) {
      const glob = confineGlob(options.input.include);
      if (!glob.ok) throw new ToolFailure(glob.reason);
      include = glob.glob;
    }
    const max = Math.min(50, Math.max(1, options.input.maxResults ?? 10));
    const hits = await this.engine().search({ query, include, maxResults: max, maxFileBytes: maxFileBytes() }, token);
    if (hits.length === 0) return textResult(`No file contains "${query}"${include ? ` in ${include}` : ''}. Try other words or a broader include glob.`);
    const blocks = hits.map((h) => `${h.path}\n${h.lines.map((l) => `  ${l.line}: ${l.text}`).join('\n')}`);
    return textResult(`${hits.length} file(s) match "${query}", best first:\n${blocks.join('\n')}`);
  }
}

const SEVERITY: Record<number, string> = { 0: 'error', 1: 'warning', 2: 'info', 3: 'hint' };

export class DiagnosticsTool implements vscode.LanguageModelTool<DiagnosticsInput> {
  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<DiagnosticsInput>): vscode.PreparedToolInvocation {
    return { invocationMessage: options.input.path ? vscode.l10n.t('Getting the problems of {0}', options.input.path) : vscode.l10n.t('Getting the problems of the workspace') };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<DiagnosticsInput>): Promise<vscode.LanguageModelToolResult> {
    const limit = options.input.severity === 'error' ? 0 : options.input.severity === 'warning' ? 1 : 3;
    let entries: Array<[vscode.Uri, readonly vscode.Diagnostic[]]>;
    if (options.input.path) {
      const file = await resolveWorkspacePath(options.input.path);
      entries = [[file.uri, vscode.languages.getDiagnostics(file.uri)]];
    } else {
      entries = vscode.languages.getDiagnostics().filter(([uri]) => vscode.workspace.getWorkspaceFolder(uri) !== undefined);
    }
    const lines: string[] = [];
    for (const [uri, diagnostics] of entries) {
      for (const d of diagnostics) {
        if (d.severity > limit) continue;
        const source = d.source ? ` (${d.source}${d.code !== undefined ? ` ${typeof d.code === 'object' ? String(d.code.value) : String(d.code)}` : ''})` : '';
        lines.push(`${displayPath(uri)}:${d.range.start.line + 1}:${d.range.start.character + 1} ${SEVERITY[d.severity] ?? 'info'}: ${d.message.split('\n')[0] ?? ''}${source}`);
      }
    }
    const where = options.input.path ?? 'the workspace';
    if (lines.length === 0) return textResult(`No problems reported for ${where}.`);
    const shown = lines.slice(0, 200);
    return textResult(`${lines.length} problem(s) in ${where}:\n${shown.join('\n')}${lines.length > shown.length ? `\n[${lines.length - shown.length} more not shown; ask for one file.]` : ''}`);
  }
}

export class ActiveEditorTool implements vscode.LanguageModelTool<Record<string, never>> {
  prepareInvocation(): vscode.PreparedToolInvocation {
    return { invocationMessage: vscode.l10n.t('Looking at the active editor') };
  }

  invoke(): vscode.LanguageModelToolResult {
    const editor = vscode.window.activeTextEditor;
    if (!editor) return textResult('No editor is active: the user has no file open in front. Ask which file they mean, or use stratus_listFiles.');
    const doc = editor.document;
    const sel = editor.selection;
    const where = doc.uri.scheme === 'file' ? displayPath(doc.uri) : doc.uri.scheme === 'untitled' ? `untitled (${doc.fileName})` : doc.uri.toString(true);
    const parts = [`File: ${where}`, `Language: ${doc.languageId}`, `Lines: ${doc.lineCount}`, `Cursor: line ${sel.active.line + 1}, column ${sel.active.character + 1}`];
    if (sel.isEmpty) {
      parts.push('Selection: none');
      const line = doc.lineAt(sel.active.line).text;
      parts.push(`Line ${sel.active.line + 1}: ${line}`);
    } else {
      const text = doc.getText(sel);
      const capped = text.length > 20_000 ? `${text.slice(0, 20_000)}\n[selection cut at 20,000 characters]` : text;
      parts.push(`Selection: lines ${sel.start.line + 1}–${sel.end.line + 1}`, capped.split('\n').map((l, k) => `${sel.start.line + 1 + k}: ${l}`).join('\n'));
    }
    return textResult(parts.join('\n'));
  }
}
