import * as vscode from 'vscode';
import type { ContextSnippet } from '../../core/inlineCompletion';
import { filterForPath, ignoredAlongPath } from '../../core/workspace/ignoreRules';
import { readWorkspaceBytes } from '../../platform/workspaceFiles';
import { readSearchSettings } from '../../platform/searchSettings';
import { DefinitionCollector, type DefinitionSearch } from './definitions';
import type { WorkspaceTrustGate } from '../../services/workspaceTrust';

/** Recent edits remembered (most recent first). */
const MAX_EDITS = 8;
/** Lines of context kept around a recent edit. */
const EDIT_RADIUS = 3;
/** Open editors of the same language offered to the prompt builder (which trims them to its budget). */
const MAX_OPEN_EDITORS = 4;
/** An open editor's text is cut here before the prompt builder sees it. */
const MAX_SNIPPET_CHARS = 8_000;
const GITIGNORE_MAX_BYTES = 64 * 1024;
/** How long a `.gitignore` read is reused (saving one in an editor forgets it at once). */
const GITIGNORE_TTL_MS = 10_000;

interface Edit {
  uri: string;
  line: number;
}

/**
 * Context snippets for the prompt: the ranges edited recently and the open editors of the same
 * language, read from the open TextDocuments (never from disk), and the definitions of the
 * identifiers near the cursor found through the search index (see DefinitionCollector). None at
 * all in an untrusted workspace; never from a file outside the workspace folders, excluded by
 * `files.exclude` / `search.exclude`, or ignored by a `.gitignore` (the rules the workspace
 * search uses).
 */
export class ContextCollector implements vscode.Disposable {
  private edits: Edit[] = [];
  private readonly definitions = new DefinitionCollector();
  private readonly gitignores = new Map<string, { at: number; text: string | undefined }>();
  private readonly subscriptions: vscode.Disposable[];

  /** Other files are context the person did not pick: the trust gate leaves them out in Restricted Mode. */
  constructor(private readonly trust: Pick<WorkspaceTrustGate, 'allows'>) {
    this.subscriptions = [
      vscode.workspace.onDidChangeTextDocument((event) => this.recordEdit(event)),
      vscode.workspace.onDidCloseTextDocument((document) => {
        const uri = document.uri.toString();
        this.edits = this.edits.filter((e) => e.uri !== uri);
      }),
      vscode.workspace.onDidSaveTextDocument((document) => {
        if (document.uri.path.endsWith('/.gitignore')) this.gitignores.clear();
      }),
    ];
  }

  private recordEdit(event: vscode.TextDocumentChangeEvent): void {
    const scheme = event.document.uri.scheme;
    if (scheme !== 'file' && scheme !== 'untitled') return;
    const uri = event.document.uri.toString();
    for (const change of event.contentChanges) {
      const line = change.range.start.line;
      this.edits = [{ uri, line }, ...this.edits.filter((e) => e.uri !== uri || Math.abs(e.line - line) > EDIT_RADIUS)].slice(0, MAX_EDITS);
    }
  }

  /** Whether snippets of other files may be sent now (the trust gate's `context` verdict). */
  mayReadContext(): boolean {
    return this.trust.allows('context');
  }

  /** Connects the workspace search index the definitions are looked up in. */
  setDefinitionSearch(search: DefinitionSearch | undefined): DefinitionSearch | undefined {
    return this.definitions.setSearch(search);
  }

  /** The snippets for a completion at `position` (without it, no definitions are looked up). */
  async collect(document: vscode.TextDocument, position?: vscode.Position, signal?: AbortSignal): Promise<ContextSnippet[]> {
    if (!this.mayReadContext()) return [];
    const current = document.uri.toString();
    const open = new Map(vscode.workspace.textDocuments.filter((d) => !d.isClosed).map((d) => [d.uri.toString(), d]));
    const candidates: { document: vscode.TextDocument; snippet: ContextSnippet }[] = [];
    this.edits.forEach((edit, index) => {
      const other = open.get(edit.uri);
      if (!other || edit.uri === current || edit.line >= other.lineCount) return;
      const from = Math.max(0, edit.line - EDIT_RADIUS);
      const to = Math.min(other.lineCount - 1, edit.line + EDIT_RADIUS);
      const text = other.getText(new vscode.Range(from, 0, to, other.lineAt(to).text.length));
      candidates.push({ document: other, snippet: { kind: 'recentEdit', path: vscode.workspace.asRelativePath(other.uri, false), text, priority: 20 - index } });
    });
    for (const uri of openEditorUris().slice(0, 32)) {
      if (candidates.filter((c) => c.snippet.kind === 'openEditor').length >= MAX_OPEN_EDITORS) break;
      const other = open.get(uri);
      if (!other || uri === current || other.languageId !== document.languageId) continue;
      candidates.push({ document: other, snippet: { kind: 'openEditor', path: vscode.workspace.asRelativePath(other.uri, false), text: other.getText().slice(0, MAX_SNIPPET_CHARS), priority: 10 } });
    }
    const allowed = new Map<string, boolean>();
    const snippets: ContextSnippet[] = [];
    for (const { document: other, snippet } of candidates) {
      if (signal?.aborted) return [];
      const key = other.uri.toString();
      let ok = allowed.get(key);
      if (ok === undefined) {
        ok = await this.mayContribute(other.uri);
        allowed.set(key, ok);
      }
      if (ok) snippets.push(snippet);
    }
    if (position && !signal?.aborted) snippets.push(...(await this.definitions.collect(document, position, (uri) => this.mayContribute(uri), signal)));
    return snippets;
  }

  /** Whether a document's text may be sent as context (untitled: yes; a file: inside a folder and not ignored). */
  async mayContribute(uri: vscode.Uri): Promise<boolean> {
    if (!this.mayReadContext()) return false;
    if (uri.scheme === 'untitled') return true;
    if (uri.scheme !== 'file') return false;
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder) return false;
    // Relative to its own folder (without the folder's name), forward slashes.
    const path = vscode.workspace.asRelativePath(uri, false).replace(/\\/g, '/');
    const settings = readSearchSettings(folder.uri);
    const filter = await filterForPath(settings.excludeGlobs, path, settings.useGitignore ? (dir) => this.gitignore(folder.uri, dir) : undefined);
    return ignoredAlongPath(filter, path) === undefined;
  }

  private async gitignore(root: vscode.Uri, dir: string): Promise<string | undefined> {
    const uri = vscode.Uri.joinPath(root, dir, '.gitignore');
    const key = uri.toString();
    const cached = this.gitignores.get(key);
    if (cached && Date.now() - cached.at < GITIGNORE_TTL_MS) return cached.text;
    const read = await readWorkspaceBytes(uri, { maxBytes: GITIGNORE_MAX_BYTES, overCap: 'truncate' });
    const text = read.ok ? new TextDecoder().decode(read.bytes) : undefined;
    this.gitignores.set(key, { at: Date.now(), text });
    return text;
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
  }
}

/** The documents of the editor tabs, active group first. */
function openEditorUris(): string[] {
  const groups = [...vscode.window.tabGroups.all].sort((a, b) => Number(b.isActive) - Number(a.isActive));
  const uris: string[] = [];
  for (const group of groups) {
    for (const tab of group.tabs) {
      if (tab.input instanceof vscode.TabInputText) uris.push(tab.input.uri.toString());
    }
  }
  return [...new Set(uris)];
}
