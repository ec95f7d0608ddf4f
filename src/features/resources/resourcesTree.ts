import * as vscode from 'vscode';
import type { ResourceKind } from '../../core/console/catalog-types';
import type { ResourceItem } from '../../core/console/types';
import type { Logger } from '../../core/log';
import { presentError } from '../../core/presentError';
import type { ConsoleConnection } from '../../platform/consoleConnection';
import { Commands } from '../commands';
import { emptyCollection, PAGE_SIZE, type CollectionState, type ResourceNode } from './nodes';

/** The Cloud view: one collapsible node per resource kind of the catalog, pages of resources below. */
export class ResourcesTree implements vscode.TreeDataProvider<ResourceNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ResourceNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private collections = new Map<string, CollectionState>();
  private kindNodes = new Map<string, ResourceNode & { type: 'kind' }>();
  private resourceNodes = new Map<string, ResourceNode & { type: 'resource' }>();

  constructor(
    private readonly connection: ConsoleConnection,
    private readonly logger: Logger,
  ) {}

  /** Forgets everything (sign-in, sign-out, another endpoint): the root is built again. */
  reset(): void {
    this.collections = new Map();
    this.kindNodes = new Map();
    this.resourceNodes = new Map();
    this.changed.fire(undefined);
  }

  collection(kindId: string): CollectionState {
    let state = this.collections.get(kindId);
    if (!state) {
      state = emptyCollection();
      this.collections.set(kindId, state);
    }
    return state;
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

  /** Reloads one collection from its first page (keeping its filter). */
  async refresh(kindId?: string): Promise<void> {
    if (!kindId) {
      for (const state of this.collections.values()) Object.assign(state, { ...emptyCollection(), filter: state.filter, generation: state.generation + 1 });
      this.changed.fire(undefined);
      return;
    }
    const state = this.collection(kindId);
    Object.assign(state, { ...emptyCollection(), filter: state.filter, generation: state.generation + 1 });
    const kind = this.connection.client().catalog.kind(kindId);
    await this.load(kind, 0);
    this.changed.fire(this.kindNode(kind));
  }

  async setFilter(kindId: string, filter: string | undefined): Promise<void> {
    this.collection(kindId).filter = filter?.trim() ? filter.trim() : undefined;
    await this.refresh(kindId);
  }

  async loadMore(kindId: string): Promise<void> {
    const state = this.collection(kindId);
    if (state.nextOffset === undefined) return;
    const kind = this.connection.client().catalog.kind(kindId);
    await this.load(kind, state.nextOffset);
    this.changed.fire(this.kindNode(kind));
  }

  /** Puts a resource (new or changed) into its loaded collection, first when new, and returns its node. */
  upsert(kind: ResourceKind, item: ResourceItem): ResourceNode & { type: 'resource' } {
    const state = this.collection(kind.id);
    const at = state.items.findIndex((i) => i.id === item.id);
    if (at >= 0) state.items[at] = item;
    else {
      state.items.unshift(item);
      if (state.total !== undefined) state.total += 1;
    }
    state.loaded = true;
    const node = this.resourceNode(kind, item);
    this.changed.fire(this.kindNode(kind));
    return node;
  }

  remove(kindId: string, id: string): void {
    const state = this.collection(kindId);
    const before = state.items.length;
    state.items = state.items.filter((i) => i.id !== id);
    if (state.total !== undefined && state.items.length < before) state.total -= 1;
    this.resourceNodes.delete(`${kindId}/${id}`);
    const kind = this.kindNodes.get(kindId);
    this.changed.fire(kind);
  }

  private async load(kind: ResourceKind, offset: number): Promise<void> {
    const state = this.collection(kind.id);
    const generation = state.generation;
    try {
      const page = await this.connection.client().list(kind.id, { offset, limit: PAGE_SIZE, ...(state.filter ? { name: state.filter } : {}) });
      if (generation !== state.generation) return;
      const known = new Set(state.items.map((i) => i.id));
      state.items.push(...page.items.filter((i) => !known.has(i.id)));
      state.total = page.total;
      state.partial = page.partial;
      state.nextOffset = page.nextOffset;
      state.error = undefined;
      state.loaded = true;
    } catch (error) {
      if (generation !== state.generation) return;
      const presented = presentError(error);
      if (presented.cancelled) return;
      this.logger.error(`Listing ${kind.label.plural.toLowerCase()} failed: ${presented.message}`);
      state.error = presented.message;
      state.loaded = true;
    }
  }

  getParent(node: ResourceNode): ResourceNode | undefined {
    if (node.type === 'resource' || node.type === 'more') return this.kindNode(node.kind);
    if (node.type === 'message' && node.kind) return this.kindNode(node.kind);
    return undefined;
  }

  async getChildren(node?: ResourceNode): Promise<ResourceNode[]> {
    if (!node) return this.rootChildren();
    if (node.type !== 'kind') return [];
    const state = this.collection(node.kind.id);
    if (!state.loaded) await this.load(node.kind, 0);
    const children: ResourceNode[] = state.items.map((item) => this.resourceNode(node.kind, item));
    if (state.error) {
      children.push({ type: 'message', id: `${node.kind.id}/error`, kind: node.kind, text: `Could not list ${node.kind.label.plural.toLowerCase()}`, detail: state.error, icon: 'error', severity: 'error' });
    } else if (state.nextOffset !== undefined) {
      children.push({ type: 'more', kind: node.kind, nextOffset: state.nextOffset });
    } else if (state.items.length === 0) {
      const text = state.filter ? `No ${node.kind.label.plural.toLowerCase()} match "${state.filter}"` : `No ${node.kind.label.plural.toLowerCase()} yet`;
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
        return [{ type: 'message', id: 'signing-in', text: 'Signing in…', icon: 'loading~spin', severity: 'info' }];
      case 'rejected':
        return [{ type: 'message', id: 'rejected', text: 'Sign in again: the access token was rejected', detail: state.message, icon: 'key', severity: 'signIn' }];
      case 'error':
        return [{ type: 'message', id: 'sign-in-error', text: 'Could not sign in to the console', detail: state.message, icon: 'error', severity: 'error' }];
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
        const item = new vscode.TreeItem('Load more…', vscode.TreeItemCollapsibleState.None);
        item.id = `${node.kind.id}/more/${node.nextOffset}`;
        item.iconPath = new vscode.ThemeIcon('ellipsis');
        item.command = { command: Commands.resourcesLoadMore, title: 'Load more', arguments: [node.kind.id] };
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
        if (node.severity === 'signIn') item.command = { command: Commands.signIn, title: 'Sign In to Console' };
        else if (node.severity === 'error') item.command = { command: Commands.resourcesRetry, title: 'Retry', arguments: [node.kind?.id] };
        return item;
      }
    }
  }

  private kindItem(kind: ResourceKind): vscode.TreeItem {
    const state = this.collection(kind.id);
    const item = new vscode.TreeItem(kind.label.plural, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `kind/${kind.id}`;
    item.iconPath = new vscode.ThemeIcon(kind.icon);
    const count = state.loaded && !state.error ? (state.total !== undefined ? `${state.items.length} of ${state.total}` : `${state.items.length}${state.nextOffset !== undefined || state.partial ? '+' : ''}`) : undefined;
    item.description = [count, state.filter ? `filter: "${state.filter}"` : undefined].filter(Boolean).join(' · ') || undefined;
    item.tooltip = `${kind.label.plural} — ${kind.module} v${kind.version}, ${kind.collection}${kind.readOnly ? ' (read-only)' : ''}`;
    const creatable = kind.actions.some((a) => a.target === 'collection');
    item.contextValue = `stratus.kind;${creatable ? 'creatable;' : ''}${state.filter ? 'filtered;' : ''}`;
    return item;
  }

  dispose(): void {
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
  for (const line of presentation.details) tooltip.appendMarkdown(`- ${escapeMarkdown(line.label)}: \`${line.value.replace(/`/g, "'")}\`\n`);
  tooltip.appendMarkdown(`- ID: \`${resource.id}\``);
  item.tooltip = tooltip;
  item.iconPath = new vscode.ThemeIcon(presentation.icon);
  const actions = catalog.actionsFor(kind.id, resource).map((a) => a.id);
  item.contextValue = `stratus.resource;kind=${kind.id};${actions.join(';')};`;
  return item;
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
