import * as vscode from 'vscode';
import type { FeatureTraffic, HostTraffic, NetworkActivity } from '../../core/http/networkActivity';
import { formatBytes } from '../../core/inference/chat/images';

export const NETWORK_VIEW_ID = 'stratus.network';

/** A host (its features below it) or one feature's traffic to that host. */
export type NetworkNode = { kind: 'host'; traffic: HostTraffic } | { kind: 'feature'; host: string; traffic: FeatureTraffic };

/** The Network Activity tree: hosts of this window, most recent first, each with its features. */
export class NetworkTreeProvider implements vscode.TreeDataProvider<NetworkNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly unsubscribe: () => void;
  private pending: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly activity: NetworkActivity) {
    // A streamed answer changes the counts on every chunk: the tree redraws at most twice a second.
    this.unsubscribe = activity.onDidChange(() => {
      this.pending ??= setTimeout(() => {
        this.pending = undefined;
        this.changed.fire(undefined);
      }, 500);
    });
  }

  getChildren(node?: NetworkNode): NetworkNode[] {
    if (!node) return this.activity.snapshot().map((traffic) => ({ kind: 'host', traffic }));
    if (node.kind === 'host') return node.traffic.features.map((traffic) => ({ kind: 'feature', host: node.traffic.host, traffic }));
    return [];
  }

  getTreeItem(node: NetworkNode): vscode.TreeItem {
    if (node.kind === 'host') {
      const item = new vscode.TreeItem(node.traffic.host, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `host:${node.traffic.host}`;
      item.description = describe(node.traffic);
      item.iconPath = new vscode.ThemeIcon(node.traffic.expected ? 'globe' : 'warning');
      item.tooltip = node.traffic.expected
        ? vscode.l10n.t('A configured Stratus host')
        : vscode.l10n.t('Not a configured inference or console host');
      return item;
    }
    const item = new vscode.TreeItem(featureLabel(node.traffic.feature), vscode.TreeItemCollapsibleState.None);
    item.id = `feature:${node.host}:${node.traffic.feature}`;
    item.description = describe(node.traffic);
    return item;
  }

  dispose(): void {
    if (this.pending) clearTimeout(this.pending);
    this.unsubscribe();
    this.changed.dispose();
  }
}

function describe(t: { requests: number; sentBytes: number; receivedBytes: number; lastAt: number }): string {
  return vscode.l10n.t('{0} requests, {1} sent, {2} received, last at {3}', t.requests, formatBytes(t.sentBytes), formatBytes(t.receivedBytes), new Date(t.lastAt).toLocaleTimeString());
}

export function featureLabel(feature: string): string {
  switch (feature) {
    case 'chat':
      return vscode.l10n.t('Chat');
    case 'completion':
      return vscode.l10n.t('Inline completion');
    case 'edit':
      return vscode.l10n.t('Edit by instruction');
    case 'commit':
      return vscode.l10n.t('Commit message');
    case 'ocr':
      return vscode.l10n.t('Document reading (OCR)');
    case 'nextEdit':
      return vscode.l10n.t('Next edit suggestion');
    case 'review':
      return vscode.l10n.t('Review of changes');
    case 'embeddings':
      return vscode.l10n.t('Embeddings (search)');
    case 'rerank':
      return vscode.l10n.t('Reranking (search)');
    case 'transcription':
      return vscode.l10n.t('Transcription');
    case 'models':
      return vscode.l10n.t('Model list');
    case 'console':
      return vscode.l10n.t('Cloud console');
    default:
      return vscode.l10n.t('Other');
  }
}
