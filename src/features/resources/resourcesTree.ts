import * as vscode from 'vscode';
import type { ResourceKind } from '../../core/console/catalog/kindSpecs';
import type { ResourceItem } from '../../core/console/types';
import type { Logger } from '../../core/log';
import { escapeMarkdown, inlineCode } from '../../core/markdown';
import { presentError } from '../../core/presentError';
import type { ConsoleConnection } from '../../services/consoleConnection';
import { Commands } from '../commands';
import { PagedList, type ScanProgress } from '../../core/console/lists/pagedList';
import { PAGE_SIZE, type ResourceNode } from './nodes';

export interface ResourcesTreeOptions {
  /** Told while a filter the server ignores is searched for through several pages. */
  onSearchProgress?: (kind: ResourceKind, filter: string, progress: ScanProgress) => void;
  /** Pages one search reads before "Load more…" takes over (default 100, i.e. 10,000 items). */
  maxScanPages?: number;
}

/**
 * The Cloud view: one collapsible node per resource kind of the catalog, pages of resources below.
 * Each kind's pages live in a PagedList (src/core/console/lists/pagedList.ts): one load in flight per
 * collection, joined by repeated expands and "Load more…" clicks, aborted by a refresh, a new
 * filter, a collapse or a sign-out.
 */
export class ResourcesTree implements vscode.TreeDataProvider<ResourceNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ResourceNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private collections = new Map<string, PagedList<ResourceItem>>();
  private kindNodes = new Map<string, ResourceNode & { type: 'kind' }>();
  private resourceNodes = new Map<string, ResourceNode & { type: 'resource' }>();
  /** The error each collection last logged, so one failure is logged once however often it is drawn. */
  private readonly logged = new WeakMap<PagedList<ResourceItem>, unknown>();

  constructor(
    private readonly connection: ConsoleConnection,
    private readonly logger: Logger,
    private readonly options: ResourcesTreeOptions = {},
  ) {}

  /** Forgets everything (sign-in, sign-out, another endpoint): loads in flight are aborted, the root is built again. */
  reset(): void {
    for (const list of this.collections.values()) list.reset();
    this.collections = new Map();
    this.kindNodes = new Map();
    this.resourceNodes = new Map();
    this.changed.fire(undefined);
  }

  collection(kindId: string): PagedList<ResourceItem> {
    let list = this.collections.get(kindId);
    if (!list) {
      const created: PagedList<ResourceItem> = new PagedList<ResourceItem>({
        pageSize: PAGE_SIZE,
        ...(this.options.maxScanPages !== undefined ? { maxScanPages: this.options.maxScanPages } : {}),
        idOf: (item) => item.id,
        fetch: (r) => this.connection.client().list(kindId, { offset: r.offset, limit: r.limit, ...(r.name ? { name: r.name } : {}), signal: r.signal }),
        onProgress: (progress) => {
          const filter = created.filter;
          if (filter !== undefined) this.options.onSearchProgress?.(this.connection.client().catalog.kind(kindId), filter, progress);
        },
      });
      list = created;
      this.collections.set(kindId, list);
    }
    return list;
  }

  kindNode(kind: ResourceKind): ResourceNode & { type: 'kind' } {
    let node = this.kindNodes.get(kind.id);
    if (!node) {
      node = { type: 'kind', kind };
      this.kindNodes.set(kind.id, node);
    }
    return node;
  }

  resourceNode(kind: ResourceKind, item: ResourceItem): ResourceNode & { type: 'resource' } {
    const key = `${kind.id}/${item.id}`;
    const node = this.resourceNodes.get(key);
    if (node) {
      node.item = item;
      return node;
    }
    const created = { type: 'resource' as const, kind, item };
    this.resourceNodes.set(key, created);
    return created;
  }

  /** Reloads one collection from its first page (keeping its filter), aborting its load in flight; without a kind, every collection. */
  async refresh(kindId?: string): Promise<void> {
    if (!kindId) {
      // Forgotten now, loaded again when drawn (collapsed collections cost nothing).
      for (const list of this.collections.values()) list.reset();
      this.changed.fire(undefined);
      return;
    }
    const kind = this.connection.client().catalog.kind(kindId);
    const list = this.collection(kindId);
    await list.refresh();
    this.settled(kind, list);
    this.changed.fire(this.kindNode(kind));
  }

  async setFilter(kindId: string, filter: string | undefined): Promise<void> {
    const kind = this.connection.client().catalog.kind(kindId);
    const list = this.collection(kindId);
    await list.setFilter(filter);
    this.settled(kind, list);
    this.changed.fire(this.kindNode(kind));
  }

  /** "Load more…": the next page (or, for a filter the server ignores, the next pages up to a match). */
  async loadMore(kindId: string): Promise<void> {
    const list = this.collection(kindId);
    if (list.nextOffset === undefined && !list.loading) return;
    const kind = this.connection.client().catalog.kind(kindId);
    await list.loadMore();
    this.settled(kind, list);
    this.changed.fire(this.kindNode(kind));
  }

  /** The kind's node was collapsed: its load in flight is aborted (asked for again on the next expand). */
  collapsed(kindId: string): void {
    this.collections.get(kindId)?.cancel();
  }

  /** Puts a resource (new or changed) into its loaded collection, first when new, and returns its node. */
  upsert(kind: ResourceKind, item: ResourceItem): ResourceNode & { type: 'resource' } {
    this.collection(kind.id).upsert(item);
    const node = this.resourceNode(kind, item);
    this.changed.fire(this.kindNode(kind));
    return node;
  }

  remove(kindId: string, id: string): void {
    this.collection(kindId).remove(id);
    this.resourceNodes.delete(`${kindId}/${id}`);
    const kind = this.kindNodes.get(kindId);
    this.changed.fire(kind);
  }

  /** Logs a load's failure once. */
  private settled(kind: ResourceKind, list: PagedList<ResourceItem>): void {
    if (list.error === undefined || this.logged.get(list) === list.error) return;
    this.logged.set(list, list.error);
    this.logger.error(`Listing ${kind.label.plural.toLowerCase()} failed: ${presentError(list.error).message}`);
  }

  getParent(node: ResourceNode): ResourceNode | undefined {
    if (node.type === 'resource' || node.type === 'more') return this.kindNode(node.kind);
    if (node.type === 'message' && node.kind) return this.kindNode(node.kind);
    return undefined;
  }

  async getChildren(node?: ResourceNode): Promise<ResourceNode[]> {
    if (!node) return this.rootChildren();
    if (node.type !== 'kind') return [];
    const list = this.collection(node.kind.id);
    // Joins a load in flight: an expand that repeats, or a refresh racing it, sends nothing more;
    // when a refresh replaces the load awaited, its pages are what is shown (never a stale "empty").
    await list.ensureLoaded();
    await list.idle();
    this.settled(node.kind, list);
    const plural = node.kind.label.plural.toLowerCase();
    const children: ResourceNode[] = list.items.map((item) => this.resourceNode(node.kind, item));
    if (list.error !== undefined) {
      children.push({ type: 'message', id: `${node.kind.id}/error`, kind: node.kind, text: vscode.l10n.t('Could not list {0}', plural), detail: presentError(list.error).message, icon: 'error', severity: 'error' });
    } else if (list.nextOffset !== undefined) {
      const searching = list.filter !== undefined && list.items.length === 0;
      children.push({ type: 'more', kind: node.kind, nextOffset: list.nextOffset, ...(searching ? { label: vscode.l10n.t('Search further… (no match in the first {0})', list.checked.toLocaleString('en-US')) } : {}) });
    } else if (list.items.length === 0) {
      const text = list.filter ? vscode.l10n.t('No {0} match "{1}"', plural, list.filter) : vscode.l10n.t('No {0} yet', plural);
      children.push({ type: 'message', id: `${node.kind.id}/empty`, kind: node.kind, text, icon: 'info', severity: 'info' });
    }
    return children;
  }

  private rootChildren(): ResourceNode[] {
    const state = this.connection.state;
    switch (state.kind) {
      case 'signedIn':
        return this.connection.client().catalog.kinds.map((kind) => this.kindNode(kind));
      case 'signingIn':
        return [{ type: 'message', id: 'signing-in', text: vscode.l10n.t('Signing in…'), icon: 'loading~spin', severity: 'info' }];
      case 'rejected':
        return [{ type: 'message', id: 'rejected', text: vscode.l10n.t('Sign in again: the access token was rejected'), detail: state.message, icon: 'key', severity: 'signIn' }];
      case 'error':
        return [{ type: 'message', id: 'sign-in-error', text: vscode.l10n.t('Could not sign in to the console'), detail: state.message, icon: 'error', severity: 'error' }];
      default:
        // Signed out or not configured: the view's welcome content offers the next step.
        return [];
    }
  }

  getTreeItem(node: ResourceNode): vscode.TreeItem {
    switch (node.type) {
      case 'kind':
        return this.kindItem(node.kind);
      case 'resource':
        return resourceItem(this.connection, node.kind, node.item);
      case 'more': {
        const item = new vscode.TreeItem(node.label ?? vscode.l10n.t('Load more…'), vscode.TreeItemCollapsibleState.None);
        item.id = `${node.kind.id}/more/${node.nextOffset}`;
        item.iconPath = new vscode.ThemeIcon('ellipsis');
        item.command = { command: Commands.resourcesLoadMore, title: vscode.l10n.t('Load more'), arguments: [node.kind.id] };
        item.contextValue = 'stratus.more';
        return item;
      }
      case 'message': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        item.id = `message/${node.id}`;
        item.description = node.detail;
        item.tooltip = node.detail ? `${node.text}\n${node.detail}` : node.text;
        item.iconPath = new vscode.ThemeIcon(node.icon, node.severity === 'error' ? new vscode.ThemeColor('problemsErrorIcon.foreground') : undefined);
        item.contextValue = node.severity === 'error' ? 'stratus.error' : node.severity === 'signIn' ? 'stratus.signIn' : 'stratus.info';
        if (node.severity === 'signIn') item.command = { command: Commands.signIn, title: vscode.l10n.t('Sign In to Console') };
        else if (node.severity === 'error') item.command = { command: Commands.resourcesRetry, title: vscode.l10n.t('Retry'), arguments: [node.kind?.id] };
        return item;
      }
    }
  }

  private kindItem(kind: ResourceKind): vscode.TreeItem {
    const list = this.collection(kind.id);
    const item = new vscode.TreeItem(kind.label.plural, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `kind/${kind.id}`;
    item.iconPath = new vscode.ThemeIcon(kind.icon);
    const count = list.loaded && list.error === undefined ? (list.total !== undefined ? vscode.l10n.t('{0} of {1}', list.items.length, list.total) : `${list.items.length}${list.nextOffset !== undefined || list.partial ? '+' : ''}`) : undefined;
    item.description = [count, list.filter ? vscode.l10n.t('filter: "{0}"', list.filter) : undefined].filter(Boolean).join(' · ') || undefined;
    // The path in use (production's once a read found it there), not only the contract's.
    const inUse = this.connection.client().kindInUse(kind.id);
    item.tooltip = `${kind.label.plural} — ${inUse.module} v${inUse.version}, ${inUse.collection}${kind.readOnly ? ` (${vscode.l10n.t('read-only')})` : ''}`;
    const creatable = kind.actions.some((a) => a.target === 'collection');
    item.contextValue = `stratus.kind;${creatable ? 'creatable;' : ''}${list.filter ? 'filtered;' : ''}`;
    return item;
  }

  dispose(): void {
    for (const list of this.collections.values()) list.reset();
    this.changed.dispose();
  }
}

function resourceItem(connection: ConsoleConnection, kind: ResourceKind, resource: ResourceItem): vscode.TreeItem {
  const catalog = connection.client().catalog;
  const presentation = catalog.present(kind.id, resource);
  const item = new vscode.TreeItem(presentation.label, vscode.TreeItemCollapsibleState.None);
  item.id = `resource/${kind.id}/${resource.id}`;
  item.description = presentation.description;
  const tooltip = new vscode.MarkdownString(`**${escapeMarkdown(presentation.label)}** — ${kind.label.singular}\n\n`);
  for (const line of presentation.details) tooltip.appendMarkdown(`- ${escapeMarkdown(line.label)}: ${inlineCode(line.value)}\n`);
  tooltip.appendMarkdown(`- ${vscode.l10n.t('ID: {0}', inlineCode(resource.id))}`);
  item.tooltip = tooltip;
  item.iconPath = new vscode.ThemeIcon(presentation.icon);
  const actions = catalog.actionsFor(kind.id, resource).map((a) => a.id);
  item.contextValue = `stratus.resource;kind=${kind.id};${actions.join(';')};`;
  return item;
}
