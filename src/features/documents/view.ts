import * as vscode from 'vscode';
import { webviewPageHtml } from '../../platform/webviewPage';
import type { Logger } from '../../core/log';
import { parseFromWebview, type FromWebview, type ToWebview } from '../../core/documents/protocol';
import { DOCUMENT_VIEW_TYPE } from './ids';
import type { DocumentSession } from './session';

export interface DocumentViewActions {
  openMarkdown(session: DocumentSession): Promise<unknown>;
  save(session: DocumentSession): Promise<unknown>;
}

/**
 * The document view: a webview panel (strict CSP with a nonce, local script and style only,
 * theme colours from VS Code's CSS variables) with the pages as thumbnails and the selected page's
 * Markdown, filled in as pages are read. Every message from the webview is checked first.
 */
export class DocumentPanel implements vscode.Disposable {
  private readonly panel: vscode.WebviewPanel;
  private readonly subscriptions: vscode.Disposable[] = [];
  private ready = false;
  /** Messages from the webview that were not part of the protocol (ignored; host tests read it). */
  ignoredMessages = 0;
  /** Messages posted to the webview (host tests read them). */
  readonly posted: ToWebview[] = [];
  private disposed = false;
  private readonly onDisposed = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.onDisposed.event;

  constructor(
    extensionUri: vscode.Uri,
    readonly session: DocumentSession,
    private readonly actions: DocumentViewActions,
    private readonly logger: Logger,
  ) {
    const root = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
    this.panel = vscode.window.createWebviewPanel(DOCUMENT_VIEW_TYPE, vscode.l10n.t('{0} (text)', session.fileName), vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [root],
      retainContextWhenHidden: true,
    });
    this.panel.webview.html = this.html(this.panel.webview, root);
    this.subscriptions.push(
      this.panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      session.onDidChange((page) => this.post({ type: 'page', page })),
      this.panel.onDidDispose(() => this.dispose()),
    );
  }

  get isReady(): boolean {
    return this.ready;
  }

  reveal(): void {
    this.panel.reveal();
  }

  /** Sends the whole document (on ready, and when reading starts or ends). */
  refresh(): void {
    this.post({ type: 'document', fileName: this.session.fileName, pageCount: this.session.pageCount, pages: this.session.pages(), busy: this.session.busy });
  }

  private html(webview: vscode.Webview, root: vscode.Uri): string {
    const lang = vscode.env.language.startsWith('fr') ? 'fr' : 'en';
    return webviewPageHtml({ webview, root, name: 'documents', title: 'Stratus Document', lang, mainAttributes: `data-labels="${encodeURIComponent(JSON.stringify(labels()))}"` });
  }

  private receive(raw: unknown): void {
    const message = parseFromWebview(raw, this.session.pageCount);
    if (!message) {
      if (this.ignoredMessages++ === 0) this.logger.warn('Document view: ignored a message that is not part of its protocol (further ones are ignored silently).');
      return;
    }
    this.handle(message);
  }

  private handle(message: FromWebview): void {
    const failed = (error: unknown): void => {
      void vscode.window.showErrorMessage(vscode.l10n.t('Stratus: {0}', error instanceof Error ? error.message : String(error)));
    };
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.refresh();
        return;
      case 'retry':
        this.post({ type: 'busy', busy: true });
        void this.session.retry(message.page).catch(failed).finally(() => this.post({ type: 'busy', busy: this.session.busy }));
        return;
      case 'openMarkdown':
        void this.actions.openMarkdown(this.session).catch(failed);
        return;
      case 'save':
        void this.actions.save(this.session).catch(failed);
        return;
      case 'cancel':
        this.session.cancel();
        return;
    }
  }

  post(message: ToWebview): void {
    if (this.disposed) return;
    this.posted.push(message);
    if (this.posted.length > 500) this.posted.splice(0, 250);
    if (this.ready) void this.panel.webview.postMessage(message);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.subscriptions.splice(0)) d.dispose();
    this.panel.dispose();
    this.onDisposed.fire();
    this.onDisposed.dispose();
  }
}

/** The view's words, translated here (the webview has no l10n of its own). */
function labels(): Record<string, string> {
  return {
    pages: vscode.l10n.t('Pages'),
    progress: vscode.l10n.t('{0} of {1} page(s) read'),
    ofDocument: vscode.l10n.t('the document has {0} pages'),
    openMarkdown: vscode.l10n.t('Open as Markdown'),
    save: vscode.l10n.t('Save next to the file'),
    cancel: vscode.l10n.t('Cancel'),
    retry: vscode.l10n.t('Retry'),
    page: vscode.l10n.t('Page {0}'),
    queued: vscode.l10n.t('Queued'),
    reading: vscode.l10n.t('Reading…'),
    done: vscode.l10n.t('Done'),
    failed: vscode.l10n.t('Failed'),
    cancelled: vscode.l10n.t('Not read'),
    text: vscode.l10n.t('Text layer'),
    ocr: vscode.l10n.t('OCR'),
    empty: vscode.l10n.t('Blank page'),
    nothingYet: vscode.l10n.t('This page has not been read yet.'),
    blank: vscode.l10n.t('Nothing on this page.'),
  };
}
