import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { presentError } from '../../core/presentError';
import { demotedPaths, fuseSymbolDefinitions, INDEX_FILE, MAX_LIFTED_DEFINITIONS, searchInference, type IndexStats, type SearchHit, type SearchInference, type SearchResult, type SymbolDefinition, type WorkspaceIndex } from '../../core/search';
import { Commands } from '../commands';
import type { Deps } from '../deps';
import { createWorkspaceIndex } from './backend';
import { noteText } from './notes';
import { affectsSearch, backgroundIndexing, readSearchSettings } from '../../platform/searchSettings';
import { relativePath } from './workspaceFs';
import { readWorkspaceText } from '../../platform/workspaceFiles';
import { generatedDefinitionFiles, workspaceDefinitions } from './workspaceSymbols';

/** A symbol's file is read for its preview up to this size (the index's own cap is larger; a preview needs the top). */
const MAX_PREVIEW_FILE_BYTES = 1024 * 1024;

/** One place of a search answer, ready for VS Code. */
export interface WorkspaceSearchHit {
  uri: vscode.Uri;
  /** Whole lines of the chunk (0-based, VS Code's). */
  range: vscode.Range;
  /** Workspace-relative path. */
  path: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  preview: string;
  /** The rerank model's score, when reranked. */
  rerankScore?: number;
}

export interface WorkspaceSearchResult {
  query: string;
  hits: WorkspaceSearchHit[];
  reranked: boolean;
  /** Why the order is local, or what degraded, one sentence each. */
  notes: string[];
  searchUnits: number;
}

/** What other features (the language-model tool) call. */
export interface WorkspaceSearch {
  searchWorkspace(query: string, options?: { signal?: AbortSignal; onLocal?: (hits: WorkspaceSearchHit[]) => void }): Promise<WorkspaceSearchResult>;
}

/**
 * Owns the search index of the first workspace folder: built on first use of a search surface (or
 * at once when background indexing is on), with progress (notification the first time, status bar
 * always), file events, settings changes, persistence. The index itself lives in the index worker
 * for a local folder (see backend.ts).
 */
export class SearchService implements WorkspaceSearch, vscode.Disposable {
  private engine: WorkspaceIndex | undefined;
  private engineDisposables: vscode.Disposable | undefined;
  private folder: vscode.Uri | undefined;
  /** Whether the index of this folder was asked for (a build or load started). */
  private started = false;
  /** A search surface started the index: the next answer says how to have it built at once instead. */
  private firstUseNote = false;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly statusBar: vscode.StatusBarItem;
  private indexing: { cancel: vscode.CancellationTokenSource; done: Promise<IndexStats | undefined> } | undefined;
  private settingsKey = '';
  private readonly updated = new vscode.EventEmitter<string[]>();
  /** Fires after the index changed: a build or load finished, or file events were applied (the picker asks again; tests wait on it). */
  readonly onDidUpdateIndex = this.updated.event;

  constructor(
    private readonly deps: Deps,
    private readonly storageUri: vscode.Uri | undefined,
    private readonly placement: { workerDir?: string; folder?: vscode.Uri } = {},
  ) {
    this.statusBar = vscode.window.createStatusBarItem('stratus.search', vscode.StatusBarAlignment.Left, 0);
    this.statusBar.name = vscode.l10n.t('Stratus Search Index');
    this.statusBar.command = 'stratus.searchWorkspace';
    this.disposables.push(
      this.statusBar,
      this.updated,
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.restart()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('stratus.search.backgroundIndexing') && this.folder && backgroundIndexing(this.folder)) this.ensureIndexed('background');
        if (!affectsSearch(event) || !this.folder || !this.started) return;
        const key = this.engine?.settingsKey() ?? '';
        if (key !== this.settingsKey) void this.index('rebuild');
      }),
    );
  }

  /**
   * Takes the first folder; builds (or loads) its index at once only when background indexing is
   * on for it, otherwise on first use of a search surface (`ensureIndexed`). Returns at once.
   */
  start(): void {
    this.restart();
  }

  private restart(): void {
    this.indexing?.cancel.cancel();
    this.indexing = undefined;
    this.disposeEngine();
    this.started = false;
    const folder = this.placement.folder ?? vscode.workspace.workspaceFolders?.[0]?.uri;
    this.folder = folder;
    if (!folder) {
      this.statusBar.hide();
      return;
    }
    if (backgroundIndexing(folder)) this.ensureIndexed('background');
  }

  private disposeEngine(): void {
    this.engineDisposables?.dispose();
    this.engineDisposables = undefined;
    this.engine?.dispose();
    this.engine = undefined;
  }

  /** The index of the folder, created on first use (no thread, no watcher before). */
  private ensureEngine(): WorkspaceIndex | undefined {
    const folder = this.folder;
    if (this.engine || !folder) return this.engine;
    let crashReported = false;
    const engine = createWorkspaceIndex({
      folder,
      storageUri: this.storageUri,
      ...(this.placement.workerDir ? { workerDir: this.placement.workerDir } : {}),
      logger: this.deps.logger,
      inference: () => this.inference(),
      onCrash: (message) => {
        if (crashReported) return;
        crashReported = true;
        this.deps.logger.error(message);
        void vscode.window.showWarningMessage(vscode.l10n.t('Stratus: the search index stopped unexpectedly and was restarted from what is on disk. Details are in the log.'));
      },
    });
    engine.onDidUpdate = (paths) => {
      this.showReady();
      this.updated.fire(paths);
    };
    this.engine = engine;
    this.engineDisposables = this.watch(folder, engine);
    return engine;
  }

  /**
   * Starts loading or building the index unless that was done already; returns whether this call
   * started it (the first search says so in a note).
   */
  ensureIndexed(why: 'use' | 'background' = 'use'): boolean {
    if (this.started || !this.ensureEngine()) return false;
    this.started = true;
    if (why === 'use' && this.folder && !backgroundIndexing(this.folder)) this.firstUseNote = true;
    void this.index('open');
    return true;
  }

  private inference(): SearchInference {
    return searchInference(() => this.deps.inference.client());
  }

  private watch(folder: vscode.Uri, engine: WorkspaceIndex): vscode.Disposable {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '**/*'));
    const rel = (uri: vscode.Uri): string | undefined => relativePath(folder, uri);
    const subscriptions = [
      watcher,
      watcher.onDidCreate((uri) => { const p = rel(uri); if (p) engine.notifyChanged(p); }),
      watcher.onDidChange((uri) => { const p = rel(uri); if (p) engine.notifyChanged(p); }),
      watcher.onDidDelete((uri) => { const p = rel(uri); if (p) engine.notifyDeleted(p); }),
      vscode.workspace.onDidRenameFiles((event) => {
        for (const f of event.files) {
          const from = rel(f.oldUri);
          const to = rel(f.newUri);
          if (from && to) engine.notifyRenamed(from, to);
          else if (from) engine.notifyDeleted(from);
          else if (to) engine.notifyChanged(to);
        }
      }),
    ];
    return vscode.Disposable.from(...subscriptions);
  }

  /** Builds (or loads and updates) the index with progress; cancellable; never throws. */
  index(mode: 'open' | 'rebuild'): Promise<IndexStats | undefined> {
    const engine = this.ensureEngine();
    if (!engine) return Promise.resolve(undefined);
    this.started = true;
    this.indexing?.cancel.cancel();
    const cancel = new vscode.CancellationTokenSource();
    const firstTime = mode === 'rebuild' || !this.storageUri || !existsSync(join(this.storageUri.fsPath, INDEX_FILE));
    const run = async (report: (message: string, increment?: number) => void, token: vscode.CancellationToken): Promise<IndexStats | undefined> => {
      const controller = new AbortController();
      const subs = [token.onCancellationRequested(() => controller.abort()), cancel.token.onCancellationRequested(() => controller.abort())];
      let last = 0;
      this.statusBar.text = `$(sync~spin) ${vscode.l10n.t('Indexing…')}`;
      this.statusBar.tooltip = vscode.l10n.t('Stratus is indexing the workspace for search. Click to search what is indexed so far.');
      this.statusBar.show();
      try {
        const onProgress = (p: { done: number; total: number }): void => {
          const pct = p.total === 0 ? 100 : (p.done / p.total) * 100;
          report(vscode.l10n.t('{0} / {1} files', p.done.toLocaleString('en'), p.total.toLocaleString('en')), pct - last);
          last = pct;
          this.statusBar.text = `$(sync~spin) ${vscode.l10n.t('Indexing {0}/{1}', p.done.toLocaleString('en'), p.total.toLocaleString('en'))}`;
        };
        const stats = mode === 'rebuild' ? await engine.rebuild({ signal: controller.signal, onProgress }) : await engine.open({ signal: controller.signal, onProgress });
        this.settingsKey = engine.settingsKey();
        this.showReady();
        this.updated.fire([]);
        return stats;
      } catch (error) {
        const presented = presentError(error);
        if (presented.cancelled) {
          this.deps.logger.info('Search indexing cancelled; searches use what was indexed so far. Run "Stratus: Rebuild Search Index" to index again.');
          this.statusBar.text = `$(search-stop) ${vscode.l10n.t('Index incomplete')}`;
          this.statusBar.tooltip = vscode.l10n.t('Indexing was cancelled. Run "Stratus: Rebuild Search Index" to finish it.');
          this.statusBar.command = 'stratus.rebuildSearchIndex';
        } else {
          this.deps.logger.error(`Search indexing failed: ${presented.message}`);
          this.statusBar.text = `$(error) ${vscode.l10n.t('Index failed')}`;
          this.statusBar.tooltip = presented.message;
          this.statusBar.command = Commands.showLog;
        }
        return undefined;
      } finally {
        for (const s of subs) s.dispose();
      }
    };
    const done = firstTime
      ? Promise.resolve(
          vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Stratus: indexing the workspace for search'), cancellable: true }, (progress, token) =>
            run((message, increment) => progress.report({ message, ...(increment !== undefined ? { increment } : {}) }), token),
          ),
        )
      : run(() => undefined, cancel.token);
    const tracked = done.finally(() => cancel.dispose());
    this.indexing = { cancel, done: tracked };
    return tracked;
  }

  private showReady(): void {
    const engine = this.engine;
    if (!engine) return;
    const { files, chunks } = engine.stats;
    this.statusBar.text = `$(search) ${vscode.l10n.t('{0} files', files.toLocaleString('en'))}`;
    this.statusBar.tooltip = vscode.l10n.t('Stratus search index: {0} files, {1} chunks. Click to search the workspace.', files.toLocaleString('en'), chunks.toLocaleString('en'));
    this.statusBar.command = 'stratus.searchWorkspace';
    this.statusBar.show();
  }

  /** The index as it stands, whether the build is done or not. */
  get ready(): boolean {
    return this.engine?.isReady ?? false;
  }

  /** Starts the index if it was not, and waits for the build or load. */
  async whenIndexed(): Promise<void> {
    this.ensureIndexed();
    await this.indexing?.done;
  }

  /** Applies pending file events now (tests). */
  async flush(): Promise<void> {
    await this.engine?.flush();
  }

  /** The folder indexed (the first workspace folder), once started. */
  get indexedFolder(): vscode.Uri | undefined {
    return this.folder ?? this.placement.folder ?? vscode.workspace.workspaceFolders?.[0]?.uri;
  }

  /** The index brought up to date (events applied), for a batch job of its embeddings; undefined without a folder. */
  async currentIndex(): Promise<WorkspaceIndex | undefined> {
    await this.whenIndexed();
    await this.engine?.flush();
    return this.engine;
  }

  /**
   * The lexical order (the picker, as you type; ghost text's definitions); starts the index on
   * first use. `symbols`: a language server's definitions of an identifier first (default).
   */
  async lexical(query: string, options: { symbols?: boolean } = {}): Promise<WorkspaceSearchHit[]> {
    this.ensureIndexed();
    const engine = this.engine;
    const folder = this.folder;
    if (!engine || !folder) return [];
    const limit = readSearchSettings(folder).candidates;
    const [hits, definitions] = await Promise.all([engine.query(query, limit), options.symbols === false ? [] : workspaceDefinitions(folder, query)]);
    return await this.withDefinitions(folder, query, hits, definitions, limit);
  }

  /** The index's hits with a language server's exact definitions of an identifier first (core/search/query/symbolFusion.ts). */
  private async withDefinitions(folder: vscode.Uri, query: string, hits: readonly SearchHit[], definitions: readonly SymbolDefinition[], limit: number): Promise<WorkspaceSearchHit[]> {
    const placed = hits.map((h) => this.toHit(folder, h));
    // What the index demotes beyond the path (the user's globs, a generated header) stays down.
    const userDemoted = demotedPaths(readSearchSettings(folder).demoteGlobs);
    const generated = definitions.length > 0 ? await generatedDefinitionFiles(folder, query, definitions, new Set(hits.map((h) => h.path))) : new Set<string>();
    const demoted = (path: string): boolean => generated.has(path) || userDemoted?.(path) === true;
    const fused = fuseSymbolDefinitions(query, placed, definitions, (d) => this.toHit(folder, { ...d, preview: d.name }), limit, demoted);
    // A place made from a symbol shows the definition's first lines, as the index's previews do.
    for (const h of fused.filter((f) => !placed.includes(f))) {
      const read = await readWorkspaceText(h.uri, MAX_PREVIEW_FILE_BYTES);
      const lines = read.ok && !read.binary ? read.text.split(/\r\n|\r|\n/).slice(h.startLine - 1, Math.min(h.endLine, h.startLine + 4)) : [];
      if (lines.length > 0) h.preview = lines.join('\n');
    }
    return fused;
  }

  async searchWorkspace(query: string, options: { signal?: AbortSignal; onLocal?: (hits: WorkspaceSearchHit[]) => void } = {}): Promise<WorkspaceSearchResult> {
    this.ensureIndexed();
    const engine = this.engine;
    const folder = this.folder;
    if (!engine || !folder) return { query, hits: [], reranked: false, notes: [vscode.l10n.t('No folder is open: open a folder to search it.')], searchUnits: 0 };
    const definitions = workspaceDefinitions(folder, query);
    const result: SearchResult = await engine.search(query, {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onLocal ? { onLocal: (hits: SearchHit[]) => options.onLocal?.(hits.map((h) => this.toHit(folder, h))) } : {}),
    });
    const notes = result.notes.map(noteText);
    if (this.firstUseNote) {
      this.firstUseNote = false;
      notes.push(vscode.l10n.t('Stratus indexes this workspace on first search. To keep the index ready when the workspace opens, turn on stratus.search.backgroundIndexing.'));
    }
    for (const n of notes) this.deps.logger.info(`Search "${query.slice(0, 80)}": ${n}`);
    const hits = await this.withDefinitions(folder, query, result.hits, await definitions, Math.max(result.hits.length, MAX_LIFTED_DEFINITIONS));
    return { query, hits, reranked: result.reranked, notes, searchUnits: result.searchUnits };
  }

  private toHit(folder: vscode.Uri, h: Pick<SearchHit, 'path' | 'startLine' | 'endLine' | 'preview' | 'rerankScore'>): WorkspaceSearchHit {
    const uri = vscode.Uri.joinPath(folder, ...h.path.split('/'));
    const hit: WorkspaceSearchHit = {
      uri,
      range: new vscode.Range(h.startLine - 1, 0, h.endLine - 1, Number.MAX_SAFE_INTEGER),
      path: h.path,
      startLine: h.startLine,
      endLine: h.endLine,
      preview: h.preview,
    };
    if (h.rerankScore !== undefined) hit.rerankScore = h.rerankScore;
    return hit;
  }

  dispose(): void {
    this.indexing?.cancel.cancel();
    this.disposeEngine();
    for (const d of this.disposables) d.dispose();
  }
}
