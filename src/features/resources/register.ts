import * as vscode from 'vscode';
import type { ResourceKind } from '../../core/console/catalog/kindSpecs';
import type { ResourceItem } from '../../core/console/types';
import { presentError } from '../../core/presentError';
import { DisposableStore } from '../../platform/disposables';
import type { BatchJobService } from '../../services/batchJobs';
import { showPresentedError } from '../../platform/errorNotification';
import { onFirstVisible } from '../../platform/firstVisible';
import { Commands } from '../commands';
import type { Deps } from '../deps';
import { ActivitiesTree } from './activitiesTree';
import { registerAskStratus } from './askStratus';
import { DETAILS_SCHEME, DetailsProvider } from './details';
import type { ResourceNode } from './nodes';
import { pickKind, pickResource } from './pickers';
import { ResourcesTree } from './resourcesTree';
import { ACTIVITY_TIMEOUT_SETTING, activityTimeoutMs } from '../../core/console/activities/followDeadline';
import { writeOptionsFrom } from '../../core/commandTestArguments';
import { runWrite, type WriteContext } from './writeFlow';
import { stratusSetting } from '../../platform/settings';

export const RESOURCES_VIEW_ID = 'stratus.resources';
export const ACTIVITIES_VIEW_ID = 'stratus.activities';

export interface ResourcesOptions {
  /** The extension runs in ExtensionMode.Test: command arguments may skip confirmations and input flows. */
  readonly testMode: boolean;
  /** Batch jobs shown in the Activities view (services/batchJobs.ts). */
  readonly batches?: BatchJobService;
}

/** The Cloud and Activities views, their commands, and the details documents. */
export function register(deps: Deps, options: ResourcesOptions): { disposable: vscode.Disposable; resources: ResourcesTree; activities: ActivitiesTree } {
  const store = new DisposableStore();
  const connection = deps.console;
  const messages: { view?: vscode.TreeView<ResourceNode> } = {};
  const resources = store.add(new ResourcesTree(connection, deps.logger, {
    // A search through pages for a filter the server ignores: say how far it got, above the tree.
    onSearchProgress: (kind, filter, progress) => {
      if (messages.view) messages.view.message = progress.done ? undefined : `Searching ${kind.label.plural.toLowerCase()} for "${filter}": ${progress.checked.toLocaleString('en-US')} checked…`;
    },
  }));
  const activities = store.add(new ActivitiesTree(connection, deps.logger, options.batches));
  const view = store.add(vscode.window.createTreeView(RESOURCES_VIEW_ID, { treeDataProvider: resources, showCollapseAll: true }));
  messages.view = view;
  // A collapsed collection stops loading; its next expand asks again.
  store.add(view.onDidCollapseElement((event) => {
    if (event.element.type === 'kind') resources.collapsed(event.element.kind.id);
  }));
  const activitiesView = store.add(vscode.window.createTreeView(ACTIVITIES_VIEW_ID, { treeDataProvider: activities }));
  const details = new DetailsProvider(connection, resources, activities);
  store.add(vscode.workspace.registerTextDocumentContentProvider(DETAILS_SCHEME, details));
  const ctx: WriteContext = {
    connection,
    resources,
    activities,
    view,
    logger: deps.logger,
    log: deps.logChannel,
    activityTimeoutMs: () => activityTimeoutMs(stratusSetting<unknown>(ACTIVITY_TIMEOUT_SETTING, undefined)),
  };

  const describe = (): void => {
    const state = connection.state;
    const tenant = connection.session?.tenantId;
    view.description = state.kind === 'signedIn' ? (tenant ? vscode.l10n.t('tenant {0}', tenant) : vscode.l10n.t('signed in')) : state.kind === 'signingIn' ? vscode.l10n.t('signing in…') : undefined;
    activitiesView.description = view.description;
    void vscode.commands.executeCommand('setContext', 'stratus.console.state', state.kind);
  };
  // Only a new identity, endpoint or sign-out reloads the views; token refreshes never reach here.
  store.add(connection.onDidChangeState(() => {
    describe();
    resources.reset();
    activities.reset();
  }));
  describe();
  // The views are one consumer of the console among others (the chat's cloud tools, the commands):
  // their first show signs in from the stored PAT, unless another consumer already did.
  store.add(onFirstVisible([view, activitiesView], () => void connection.ensureSignedIn()));
  // The walkthrough's "Open the Cloud view" step, however the view came to show.
  store.add(onFirstVisible([view], () => deps.walkthrough?.reach('cloudViewShown')));

  /** Resolves a command's target from a tree node or from (kindId, resourceId) arguments. */
  const target = async (arg: unknown, resourceId: unknown, actionId: string, title: string): Promise<{ kind: ResourceKind; item: ResourceItem } | undefined> => {
    if (isNode(arg) && arg.type === 'resource') return { kind: arg.kind, item: arg.item };
    const kind = typeof arg === 'string' ? connection.client().catalog.kind(arg) : await pickKind(connection, title, actionId);
    if (!kind) return undefined;
    if (typeof resourceId === 'string') {
      const loaded = resources.collection(kind.id).items.find((i) => i.id === resourceId);
      return { kind, item: loaded ?? (await connection.client().get(kind.id, resourceId)) };
    }
    const item = await pickResource(connection, kind, title);
    return item ? { kind, item } : undefined;
  };

  const itemAction = (command: string, actionId: string, title: string): vscode.Disposable =>
    vscode.commands.registerCommand(command, async (arg?: unknown, resourceId?: unknown, testArgs?: unknown) => {
      if (!(await ensureSignedIn(deps))) return undefined;
      const resolved = await target(arg, resourceId, actionId, title);
      if (!resolved) return undefined;
      const action = connection.client().catalog.actionsFor(resolved.kind.id, resolved.item).find((a) => a.id === actionId);
      if (!action) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Stratus: "{0}" is not available for {1}.', title, resolved.item.name));
        return undefined;
      }
      return runWrite(ctx, resolved.kind, action, resolved.item, writeOptionsFrom(testArgs, options.testMode));
    });

  // A finished batch job of a feature's own kind: its results through that feature (services/batchJobs.ts).
  store.add(vscode.commands.registerCommand(Commands.batchOpenJobResults, async (target?: unknown) => {
    const jobId = typeof target === 'string' ? target : typeof target === 'object' && target !== null && typeof (target as { jobId?: unknown }).jobId === 'string' ? (target as { jobId: string }).jobId : undefined;
    if (jobId !== undefined) await options.batches?.openKindResults(jobId);
  }));
  store.add(vscode.commands.registerCommand(Commands.resourcesCreate, async (arg?: unknown, testArgs?: unknown) => {
    if (!(await ensureSignedIn(deps))) return undefined;
    const kind = isNode(arg) ? arg.kind : typeof arg === 'string' ? connection.client().catalog.kind(arg) : await pickKind(connection, vscode.l10n.t('Stratus: Create Resource'), 'create');
    const action = kind?.actions.find((a) => a.target === 'collection');
    if (!kind || !action) return undefined;
    return runWrite(ctx, kind, action, undefined, writeOptionsFrom(testArgs, options.testMode));
  }));
  store.add(itemAction(Commands.resourcesModify, 'modify', vscode.l10n.t('Stratus: Modify Resource')));
  store.add(itemAction(Commands.resourcesDelete, 'delete', vscode.l10n.t('Stratus: Delete Resource')));
  store.add(itemAction(Commands.resourcesPowerOn, 'powerOn', vscode.l10n.t('Stratus: Power On Virtual Machine')));
  store.add(itemAction(Commands.resourcesPowerOff, 'powerOff', vscode.l10n.t('Stratus: Power Off Virtual Machine')));
  store.add(vscode.commands.registerCommand(Commands.resourcesAction, async () => {
    if (!(await ensureSignedIn(deps))) return undefined;
    const kind = await pickKind(connection, vscode.l10n.t('Stratus: Run Resource Action'));
    if (!kind) return undefined;
    const item = await pickResource(connection, kind, `Stratus: ${kind.label.plural}`);
    if (!item) return undefined;
    const actions = connection.client().catalog.actionsFor(kind.id, item).filter((a) => a.target === 'item');
    const choice = await vscode.window.showQuickPick(actions.map((a) => ({ label: a.icon ? `$(${a.icon}) ${a.label}` : a.label, action: a })), { title: `Stratus: ${item.name}`, placeHolder: vscode.l10n.t('Action') });
    return choice ? runWrite(ctx, kind, choice.action, item) : undefined;
  }));

  store.add(vscode.commands.registerCommand(Commands.resourcesRefresh, async (arg?: unknown) => {
    if (isNode(arg) && arg.type === 'kind') return resources.refresh(arg.kind.id);
    if (typeof arg === 'string') return resources.refresh(arg);
    if (connection.state.kind !== 'signedIn') {
      await connection.resume();
      return;
    }
    await resources.refresh();
  }));
  store.add(vscode.commands.registerCommand(Commands.resourcesRetry, async (kindId?: unknown) => {
    if (typeof kindId === 'string') return resources.refresh(kindId);
    await connection.resume();
  }));
  store.add(vscode.commands.registerCommand(Commands.resourcesLoadMore, (kindId: unknown) => (typeof kindId === 'string' ? resources.loadMore(kindId) : undefined)));
  store.add(vscode.commands.registerCommand(Commands.resourcesFilter, async (arg?: unknown, value?: unknown) => {
    const kind = isNode(arg) && arg.type === 'kind' ? arg.kind : typeof arg === 'string' ? connection.client().catalog.kind(arg) : await pickKind(connection, vscode.l10n.t('Stratus: Filter Resources'));
    if (!kind) return;
    const filter = typeof value === 'string' ? value : await vscode.window.showInputBox({
      title: vscode.l10n.t('Filter {0}', kind.label.plural),
      prompt: vscode.l10n.t('Show only resources whose name contains this text (case-insensitive). Empty clears the filter.'),
      value: resources.collection(kind.id).filter ?? '',
    });
    if (filter === undefined) return;
    await resources.setFilter(kind.id, filter);
    await view.reveal(resources.kindNode(kind), { expand: true, focus: false, select: false });
  }));
  store.add(vscode.commands.registerCommand(Commands.resourcesClearFilter, async (arg?: unknown) => {
    const kindId = isNode(arg) && arg.type === 'kind' ? arg.kind.id : typeof arg === 'string' ? arg : undefined;
    if (kindId) await resources.setFilter(kindId, undefined);
  }));
  store.add(vscode.commands.registerCommand(Commands.resourcesCopyId, async (arg?: unknown) => {
    if (!isNode(arg) || arg.type !== 'resource') return;
    await vscode.env.clipboard.writeText(arg.item.id);
    vscode.window.setStatusBarMessage(vscode.l10n.t('Copied the ID of {0}', arg.item.name), 3000);
  }));
  store.add(vscode.commands.registerCommand(Commands.resourcesOpenDetails, async (arg?: unknown, resourceId?: unknown) => {
    if (!(await ensureSignedIn(deps))) return;
    const resolved = await target(arg, resourceId, 'details', vscode.l10n.t('Stratus: Open Resource Details'));
    if (!resolved) return;
    const document = await vscode.workspace.openTextDocument(DetailsProvider.resourceUri(resolved.kind.id, resolved.item.id));
    await vscode.window.showTextDocument(document, { preview: true });
  }));
  store.add(vscode.commands.registerCommand(Commands.activitiesRefresh, () => activities.refresh()));
  // A click passes the activity's id; the context menu passes its tree node.
  store.add(vscode.commands.registerCommand(Commands.activitiesOpenDetails, async (target?: unknown) => {
    const id = typeof target === 'string' ? target : activityIdOf(target);
    if (id === undefined) return;
    const document = await vscode.workspace.openTextDocument(DetailsProvider.activityUri(id));
    await vscode.window.showTextDocument(document, { preview: true });
  }));
  /** Brings the Activities view up to date and into sight, selecting `id` when it is listed. */
  store.add(vscode.commands.registerCommand(Commands.activitiesShow, async (id?: unknown) => {
    await vscode.commands.executeCommand(`${ACTIVITIES_VIEW_ID}.focus`);
    await connection.ensureSignedIn();
    await activities.refresh();
    if (typeof id === 'string' && connection.state.kind === 'signedIn') {
      // The tenant's list may not hold it (paged, or not yet consistent): read this one.
      try {
        activities.update(await connection.client().activities.get(id), true);
      } catch (error) {
        deps.logger.warn(`Could not read activity ${id}: ${presentError(error).message}`);
      }
    }
    const node = typeof id === 'string' ? activities.nodeOf(id) : undefined;
    if (node) await activitiesView.reveal(node, { select: true, focus: false, expand: false });
    return node !== undefined;
  }));
  store.add(registerAskStratus(deps, activities));
  store.add(vscode.commands.registerCommand(Commands.showConsoleEndpoints, async () => {
    const document = await vscode.workspace.openTextDocument(DetailsProvider.endpointsUri());
    await vscode.window.showTextDocument(document, { preview: true });
    return connection.client().endpointsInUse();
  }));

  return { disposable: store, resources, activities };
}

function isNode(value: unknown): value is ResourceNode {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string' && 'kind' in value;
}

async function ensureSignedIn(deps: Deps): Promise<boolean> {
  const state = await deps.console.ensureSignedIn();
  if (state.kind === 'signedIn') return true;
  const message = vscode.l10n.t('Stratus: sign in to the console first.');
  void showPresentedError({ message, actions: ['signIn'] }, { log: deps.logChannel, text: message });
  return false;
}

/** The id of an activity node of the Activities view (what its context menu passes), if it is one. */
function activityIdOf(node: unknown): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const { type, id } = node as { type?: unknown; id?: unknown };
  return type === 'activity' && typeof id === 'string' ? id : undefined;
}
