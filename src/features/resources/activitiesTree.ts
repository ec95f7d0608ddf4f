import * as vscode from 'vscode';
import type { Activity, ConcernedItem } from '../../core/console/types';
import type { Logger } from '../../core/log';
import { escapeMarkdown, inlineCode } from '../../core/markdown';
import { presentError } from '../../core/presentError';
import type { BatchJobService } from '../../services/batchJobs';
import type { ConsoleConnection } from '../../services/consoleConnection';
import { batchTreeItem, type BatchNode } from './batchNodes';
import { Commands } from '../commands';

interface Entry {
  activity: Activity;
  /** Started by a write in this window. */
  local: boolean;
  /** When this window first saw it (for durations of activities without dates). */
  seenAt: number;
}

export type ActivityNode = { type: 'activity'; id: string } | { type: 'item'; activityId: string; item: ConcernedItem } | { type: 'message'; text: string; detail?: string } | BatchNode;

const MAX_ENTRIES = 200;

/** The Activities view: this window's writes, live, and the tenant's recent activities from the server. */
export class ActivitiesTree implements vscode.TreeDataProvider<ActivityNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ActivityNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private entries = new Map<string, Entry>();
  private loaded = false;
  private error: string | undefined;
  private readonly nodes = new Map<string, ActivityNode & { type: 'activity' }>();
  private load: { controller: AbortController; promise: Promise<void> } | undefined;
  private generation = 0;

  private readonly batchNodes = new Map<string, BatchNode>();
  private readonly batchSubscription: vscode.Disposable | undefined;

  constructor(
    private readonly connection: ConsoleConnection,
    private readonly logger: Logger,
    /** Batch jobs (services/batchJobs.ts), listed first whether or not the console is signed in. */
    private readonly batches?: BatchJobService,
  ) {
    this.batchSubscription = batches?.onDidChange(() => this.changed.fire(undefined));
  }

  get(id: string): Activity | undefined {
    return this.entries.get(id)?.activity;
  }

  /** Records a state of an activity (a write of this window, or a follow update). */
  update(activity: Activity, local = false): void {
    const entry = this.entries.get(activity.id);
    if (entry) {
      entry.activity = activity;
      entry.local ||= local;
    } else {
      this.entries.set(activity.id, { activity, local, seenAt: Date.now() });
      this.trim();
    }
    this.changed.fire(undefined);
  }

  reset(): void {
    this.abortLoad();
    this.entries = new Map();
    this.nodes.clear();
    this.loaded = false;
    this.error = undefined;
    this.changed.fire(undefined);
  }

  /**
   * Reads the tenant's recent activities again (a read in flight is aborted, not doubled) and the
   * provider's state of every running batch now (one check in flight per job): a Refresh shows
   * what is true now, not what the next scheduled poll would find.
   */
  async refresh(): Promise<void> {
    this.abortLoad();
    this.loaded = false;
    await Promise.all([this.loadServerList(), this.batches?.checkNow()]);
    this.changed.fire(undefined);
  }

  private abortLoad(): void {
    this.generation++;
    const load = this.load;
    this.load = undefined;
    load?.controller.abort();
  }

  /** One read of the tenant's list at a time: an expand during a refresh joins it. */
  private loadServerList(): Promise<void> {
    if (this.load) return this.load.promise;
    if (this.connection.state.kind !== 'signedIn') return Promise.resolve();
    const generation = this.generation;
    const controller = new AbortController();
    const promise = (async (): Promise<void> => {
      try {
        const page = await this.connection.client().activities.list({ limit: 50, signal: controller.signal });
        if (generation !== this.generation) return;
        for (const activity of page.items) {
          const entry = this.entries.get(activity.id);
          if (entry) entry.activity = activity;
          else this.entries.set(activity.id, { activity, local: false, seenAt: Date.now() });
        }
        this.trim();
        this.error = undefined;
      } catch (error) {
        if (generation !== this.generation) return;
        const presented = presentError(error);
        if (!presented.cancelled) {
          this.error = presented.message;
          this.logger.warn(`Listing activities failed: ${presented.message}`);
        }
      }
      this.loaded = true;
    })().finally(() => {
      if (this.load?.controller === controller) this.load = undefined;
    });
    this.load = { controller, promise };
    return promise;
  }

  private trim(): void {
    if (this.entries.size <= MAX_ENTRIES) return;
    const oldest = [...this.entries.entries()].sort((a, b) => a[1].seenAt - b[1].seenAt).slice(0, this.entries.size - MAX_ENTRIES);
    for (const [id] of oldest) this.entries.delete(id);
  }

  /** The node of an activity this view knows (for reveal). */
  nodeOf(id: string): ActivityNode | undefined {
    return this.entries.has(id) ? this.node(id) : undefined;
  }

  getParent(node: ActivityNode): ActivityNode | undefined {
    return node.type === 'item' ? this.node(node.activityId) : undefined;
  }

  async getChildren(node?: ActivityNode): Promise<ActivityNode[]> {
    if (node?.type === 'activity') {
      return (this.entries.get(node.id)?.activity.concernedItems ?? []).map((item) => ({ type: 'item', activityId: node.id, item }));
    }
    if (node) return [];
    const jobs: ActivityNode[] = (this.batches?.jobs() ?? []).map((job) => this.batchNode(job.id));
    if (this.connection.state.kind !== 'signedIn') return jobs;
    if (!this.loaded) await this.loadServerList();
    const sorted = [...this.entries.values()].sort((a, b) => Number(b.local) - Number(a.local) || time(b) - time(a));
    const nodes: ActivityNode[] = [...jobs, ...sorted.map((e) => this.node(e.activity.id))];
    if (this.error) nodes.push({ type: 'message', text: vscode.l10n.t("Could not list the tenant's activities"), detail: this.error });
    return nodes;
  }

  private batchNode(jobId: string): BatchNode {
    let node = this.batchNodes.get(jobId);
    if (!node) {
      node = { type: 'batch', jobId };
      this.batchNodes.set(jobId, node);
    }
    return node;
  }

  private node(id: string): ActivityNode & { type: 'activity' } {
    let node = this.nodes.get(id);
    if (!node) {
      node = { type: 'activity', id };
      this.nodes.set(id, node);
    }
    return node;
  }

  getTreeItem(node: ActivityNode): vscode.TreeItem {
    if (node.type === 'batch') {
      const job = this.batches?.job(node.jobId);
      return job ? batchTreeItem(job) : new vscode.TreeItem(node.jobId);
    }
    if (node.type === 'message') {
      const item = new vscode.TreeItem(node.text);
      item.description = node.detail;
      item.iconPath = new vscode.ThemeIcon('error');
      item.command = { command: Commands.activitiesRefresh, title: vscode.l10n.t('Retry') };
      return item;
    }
    if (node.type === 'item') {
      const item = new vscode.TreeItem(node.item.id);
      item.description = node.item.type;
      item.iconPath = new vscode.ThemeIcon('symbol-field');
      item.contextValue = 'stratus.concernedItem';
      return item;
    }
    const entry = this.entries.get(node.id);
    const activity = entry?.activity;
    const item = new vscode.TreeItem(activity?.description || activity?.type || node.id, activity?.concernedItems.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = `activity/${node.id}`;
    if (!activity) return item;
    item.description = describeState(activity);
    item.iconPath = stateIcon(activity);
    // Every value here comes from the server: shown as text or code, never as Markdown or HTML.
    item.tooltip = new vscode.MarkdownString([
      `**${escapeMarkdown(activity.description || activity.type || activity.id)}**`,
      '',
      `- ${vscode.l10n.t('State: {0}', escapeMarkdown(describeState(activity)))}`,
      `- ${vscode.l10n.t('Type: {0}', escapeMarkdown(activity.type))}`,
      `- ${vscode.l10n.t('ID: {0}', inlineCode(activity.id))}`,
      activity.creationDate ? `- ${vscode.l10n.t('Created: {0}', escapeMarkdown(activity.creationDate))}` : '',
      activity.concernedItems.length ? `- ${vscode.l10n.t('Concerns: {0}', activity.concernedItems.map((c) => `${escapeMarkdown(c.type)} ${inlineCode(c.id)}`).join(', '))}` : '',
      entry.local ? `- ${vscode.l10n.t('Started from this window')}` : '',
    ].filter(Boolean).join('\n'));
    item.contextValue = `stratus.activity;${activity.state.kind};`;
    item.command = { command: Commands.activitiesOpenDetails, title: vscode.l10n.t('Open Details'), arguments: [node.id] };
    return item;
  }

  dispose(): void {
    this.abortLoad();
    this.batchSubscription?.dispose();
    this.changed.dispose();
  }
}

function time(entry: Entry): number {
  const created = entry.activity.creationDate ? Date.parse(entry.activity.creationDate) : NaN;
  return Number.isNaN(created) ? entry.seenAt : created;
}

export function describeState(activity: Activity): string {
  const state = activity.state;
  switch (state.kind) {
    case 'waiting':
      return vscode.l10n.t('waiting');
    case 'running':
      return `${state.progression !== undefined ? vscode.l10n.t('running {0}%', Math.round(state.progression)) : vscode.l10n.t('running')}${state.status ? ` · ${state.status}` : ''}`;
    case 'completed':
      return `${vscode.l10n.t('completed')}${duration(state.startDate, state.stopDate)}`;
    case 'failed':
      return `${state.reason ? vscode.l10n.t('failed: {0}', state.reason) : vscode.l10n.t('failed')}${duration(state.startDate, state.stopDate)}`;
  }
}

function duration(start: string | undefined, stop: string | undefined): string {
  if (!start || !stop) return '';
  const ms = Date.parse(stop) - Date.parse(start);
  if (!Number.isFinite(ms) || ms < 0) return '';
  return ` ${ms < 60_000 ? vscode.l10n.t('in {0} s', (ms / 1000).toFixed(ms < 10_000 ? 1 : 0)) : vscode.l10n.t('in {0} min', Math.round(ms / 60_000))}`;
}

function stateIcon(activity: Activity): vscode.ThemeIcon {
  switch (activity.state.kind) {
    case 'waiting':
      return new vscode.ThemeIcon('clock');
    case 'running':
      return new vscode.ThemeIcon('sync~spin');
    case 'completed':
      return new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'));
    case 'failed':
      return new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
  }
}
