import * as vscode from 'vscode';
import { webviewPageHtml } from '../../platform/webviewPage';
import type { Logger } from '../../core/log';
import type { UsageMeter } from '../../core/usage/meter';
import { parseFromWebview, type FromWebview, type ToWebview } from '../../core/usage/protocol';
import type { UsageSnapshot } from '../../core/usage/summary';

export const USAGE_VIEW_ID = 'stratus.usage';

export interface UsageViewActions {
  exportCsv(): Promise<void>;
  reset(): Promise<void>;
}

/** The Usage webview view: strict CSP with a nonce, local resources only, typed messages, ready handshake. */
export class UsageViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private readonly subscriptions: vscode.Disposable[] = [];
  private viewSubscriptions: vscode.Disposable[] = [];
  /** What the webview was last sent (host tests read it). */
  lastState: UsageSnapshot | undefined;
  /** The webview's own time to first drawn state, ms from its document start. */
  firstPaintMs: number | undefined;
  /** Messages from the webview that were not part of the protocol (ignored). */
  ignoredMessages = 0;
  statesPosted = 0;
  private meterSubscribed = false;

  constructor(
    private readonly extensionUri: vscode.Uri,
    /** Read when needed: the meter is built after activation. */
    private readonly meter: () => UsageMeter,
    private readonly actions: UsageViewActions,
    private readonly logger: Logger,
  ) {
    this.subscriptions.push(vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('stratus.usage')) this.postState();
    }));
  }

  get isReady(): boolean {
    return this.ready && this.view !== undefined;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    if (!this.meterSubscribed) {
      this.meterSubscribed = true;
      const sub = this.meter().onDidChange(() => this.postState());
      this.subscriptions.push({ dispose: () => sub.dispose() });
    }
    for (const d of this.viewSubscriptions.splice(0)) d.dispose();
    this.view = view;
    this.ready = false;
    const root = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    view.webview.options = { enableScripts: true, localResourceRoots: [root] };
    view.webview.html = this.html(view.webview, root);
    this.viewSubscriptions.push(
      view.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      view.onDidChangeVisibility(() => {
        if (view.visible) {
          // Other windows may have counted meanwhile.
          void this.meter().refresh().catch(() => undefined);
          this.postState();
        }
      }),
      view.onDidDispose(() => {
        if (this.view === view) {
          this.view = undefined;
          this.ready = false;
        }
      }),
    );
  }

  private html(webview: vscode.Webview, root: vscode.Uri): string {
    return webviewPageHtml({ webview, root, name: 'usage', title: 'Stratus Usage', mainContent: '<p class="muted">Loading usage…</p>' });
  }

  private receive(raw: unknown): void {
    const message = parseFromWebview(raw);
    if (!message) {
      // Logged once per view: a page that keeps sending junk must not flood the log.
      if (this.ignoredMessages++ === 0) this.logger.warn('Usage view: ignored a message that is not part of its protocol (further ones are ignored silently).');
      return;
    }
    this.handle(message);
  }

  private handle(message: FromWebview): void {
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.postState();
        return;
      case 'painted':
        this.firstPaintMs ??= message.ms;
        return;
      case 'exportCsv':
        void this.actions.exportCsv().catch((error: unknown) => this.notice(vscode.l10n.t('Export failed: {0}', error instanceof Error ? error.message : String(error))));
        return;
      case 'reset':
        void this.actions.reset().catch((error: unknown) => this.notice(vscode.l10n.t('Reset failed: {0}', error instanceof Error ? error.message : String(error))));
        return;
      case 'openSettings':
        void vscode.commands.executeCommand('workbench.action.openSettings', 'stratus.usage');
        return;
    }
  }

  private post(message: ToWebview): void {
    if (!this.view || !this.ready) return;
    void this.view.webview.postMessage(message);
  }

  private notice(text: string): void {
    this.post({ type: 'notice', text });
  }

  postState(): void {
    if (!this.view || !this.ready) return;
    const snapshot = this.meter().snapshot();
    this.lastState = snapshot;
    this.statesPosted++;
    this.post({ type: 'state', snapshot });
  }

  dispose(): void {
    for (const d of [...this.viewSubscriptions.splice(0), ...this.subscriptions.splice(0)]) d.dispose();
  }
}
