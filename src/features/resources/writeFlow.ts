import * as vscode from 'vscode';
import type { ActionSpec, ResourceKind } from '../../core/console/catalog-types';
import { ActivityFailedError, ActivityStillRunningError } from '../../core/console/errors';
import type { Activity, ResourceItem } from '../../core/console/types';
import type { Logger } from '../../core/log';
import { presentError } from '../../core/presentError';
import { toAbortSignal } from '../../platform/cancellation';
import type { ConsoleConnection } from '../../platform/consoleConnection';
import type { ActivitiesTree } from './activitiesTree';
import { describeState } from './activitiesTree';
import { collectInput } from './inputFlow';
import type { ResourceNode } from './nodes';
import { Commands } from '../commands';
import type { ResourcesTree } from './resourcesTree';
import type { WriteOptions } from './testArguments';
import { writeFailureActions, type WriteFailureAction } from './writeFailure';

export interface WriteOutcome {
  /**
   * `outcomeUnknown`: the connection broke after the request was sent; it was not sent again.
   * `stillRunning`: the follow deadline passed; the activity goes on on the server.
   */
  readonly status: 'completed' | 'failed' | 'stoppedFollowing' | 'stillRunning' | 'requestFailed' | 'outcomeUnknown';
  readonly activityId?: string;
  readonly activity?: Activity;
  /** The created or changed resource's id (the activity's `result`). */
  readonly resultId?: string;
  readonly message?: string;
}

export type { WriteOptions } from './testArguments';

export interface WriteContext {
  connection: ConsoleConnection;
  resources: ResourcesTree;
  activities: ActivitiesTree;
  view: vscode.TreeView<ResourceNode>;
  logger: Logger;
  showLog(): void;
  /** Overall deadline of following one activity (`stratus.console.activityTimeoutMinutes`). */
  activityTimeoutMs(): number;
}


/**
 * One write from the catalog: confirm, collect input, send, then follow the activity with a
 * cancellable progress notification until it completes (the resource is revealed) or fails.
 */
export async function runWrite(ctx: WriteContext, kind: ResourceKind, action: ActionSpec, target: ResourceItem | undefined, options: WriteOptions = {}): Promise<WriteOutcome | undefined> {
  const OPEN_ACTIVITIES = vscode.l10n.t('Open Activities');
  const SHOW_LOG = vscode.l10n.t('Show Log');
  const SHOW_IN_ACTIVITIES = vscode.l10n.t('Show in Activities');
  const RETRY = vscode.l10n.t('Retry');
  const catalog = ctx.connection.client().catalog;
  const verb = action.label.replace(/(\.\.\.|…)$/, '');
  const title = target ? `${verb} ${kind.label.singular.toLowerCase()} "${target.name}"` : verb;

  const confirmation = options.confirmed ? undefined : catalog.confirmation(kind.id, action.id, target);
  if (confirmation) {
    const answer = await vscode.window.showWarningMessage(confirmation, { modal: true, detail: `${kind.label.singular}: ${target?.name ?? ''} (${target?.id ?? ''})` }, action.label);
    if (answer !== action.label) return undefined;
  }
  const input = options.input ?? (action.fields?.length ? await collectInput(title, action.fields, catalog.initialInput(kind.id, action.id, target)) : {});
  if (input === undefined) return undefined;

  let activityId: string;
  try {
    activityId = (await ctx.connection.client().perform(kind.id, action.id, { ...(target ? { target } : {}), input })).activityId;
  } catch (error) {
    const presented = presentError(error);
    if (presented.cancelled) return undefined;
    ctx.logger.error(`${title} failed: ${presented.message}`);
    const actions = writeFailureActions(error, presented.actions);
    if (actions.includes('openActivities')) {
      // The request may have reached the server: never send it again by itself. The activity, if
      // one was created, shows in the Activities view.
      void vscode.window.showWarningMessage(vscode.l10n.t('Stratus: the outcome of "{0}" is unknown. {1}', title, presented.message), OPEN_ACTIVITIES, SHOW_LOG).then((choice) => {
        if (choice === OPEN_ACTIVITIES) void vscode.commands.executeCommand(Commands.activitiesShow);
        else if (choice === SHOW_LOG) ctx.showLog();
      });
      return { status: 'outcomeUnknown', message: presented.message };
    }
    const labels: Record<Exclude<WriteFailureAction, 'openActivities'>, string> = { retry: RETRY, signIn: vscode.l10n.t('Sign In to Console'), showLog: SHOW_LOG };
    const buttons = actions.flatMap((a) => (a === 'openActivities' ? [] : [labels[a]]));
    void vscode.window.showErrorMessage(vscode.l10n.t('Stratus: {0} failed. {1}', title, presented.message), ...buttons).then((choice) => {
      if (choice === SHOW_LOG) ctx.showLog();
      else if (choice === labels.signIn) void vscode.commands.executeCommand(Commands.signIn);
      // The server refused it or it never left: sending it again on request cannot apply it twice.
      else if (choice === labels.retry) void runWrite(ctx, kind, action, target, { input, confirmed: true });
    });
    return { status: 'requestFailed', message: presented.message };
  }
  ctx.logger.info(`${title}: activity ${activityId} created.`);
  ctx.activities.update(placeholderActivity(activityId, title), true);

  const followTimeoutMs = options.followTimeoutMs ?? ctx.activityTimeoutMs();
  const outcome = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Stratus: ${title}`, cancellable: true }, async (progress, token) => {
    const abort = toAbortSignal(token);
    let shown = 0;
    progress.report({ message: vscode.l10n.t('waiting…') });
    try {
      const activity = await ctx.connection.client().activities.follow(activityId, {
        signal: abort.signal,
        timeoutMs: followTimeoutMs,
        onUpdate: (update) => {
          ctx.activities.update(update, true);
          const percent = update.state.kind === 'running' ? update.state.progression ?? shown : shown;
          progress.report({ message: describeState(update), increment: Math.max(0, percent - shown) });
          shown = Math.max(shown, percent);
        },
      });
      ctx.activities.update(activity, true);
      const resultId = activity.state.kind === 'completed' ? activity.state.result : undefined;
      return { status: 'completed' as const, activityId, activity, ...(resultId ? { resultId } : {}) };
    } catch (error) {
      if (error instanceof ActivityFailedError) {
        ctx.activities.update(error.activity, true);
        return { status: 'failed' as const, activityId, activity: error.activity, message: error.reason ?? vscode.l10n.t('no reason given') };
      }
      if (error instanceof ActivityStillRunningError) {
        if (error.activity) ctx.activities.update(error.activity, true);
        return { status: 'stillRunning' as const, activityId, ...(error.activity ? { activity: error.activity } : {}), message: vscode.l10n.t('still running on the server') };
      }
      const presented = presentError(error);
      if (presented.cancelled) return { status: 'stoppedFollowing' as const, activityId };
      return { status: 'stoppedFollowing' as const, activityId, message: presented.message };
    } finally {
      abort.dispose();
    }
  });

  switch (outcome.status) {
    case 'completed':
      ctx.logger.info(`${title} completed (activity ${activityId}${outcome.resultId ? `, result ${outcome.resultId}` : ''}).`);
      await showResult(ctx, kind, action, target, outcome.resultId);
      void vscode.window.showInformationMessage(vscode.l10n.t('Stratus: {0} completed.', title));
      break;
    case 'failed':
      ctx.logger.error(`${title} failed: ${outcome.message ?? ''} (activity ${activityId}).`);
      void vscode.window.showErrorMessage(vscode.l10n.t('Stratus: {0} failed: {1}', title, outcome.message ?? ''), SHOW_LOG, RETRY).then((choice) => {
        if (choice === SHOW_LOG) ctx.showLog();
        else if (choice === RETRY) void runWrite(ctx, kind, action, target, { input, confirmed: true });
      });
      break;
    case 'stillRunning': {
      const waited = followTimeoutMs >= 60_000 ? `${Math.round(followTimeoutMs / 60_000)} min` : `${Math.round(followTimeoutMs / 1000)} s`;
      ctx.logger.info(`${title}: still running on the server after ${waited} (activity ${activityId}); stopped following.`);
      void vscode.window.showInformationMessage(vscode.l10n.t('Stratus: "{0}" is still running on the server after {1}. Stratus stopped following it; the Activities view shows its state.', title, waited), SHOW_IN_ACTIVITIES).then((choice) => {
        if (choice === SHOW_IN_ACTIVITIES) void vscode.commands.executeCommand(Commands.activitiesShow, activityId);
      });
      break;
    }
    case 'stoppedFollowing':
      ctx.logger.warn(`Stopped following activity ${activityId}${outcome.message ? `: ${outcome.message}` : ''}.`);
      void vscode.window.showInformationMessage(vscode.l10n.t('Stratus: stopped following "{0}". The operation continues on the server; the Activities view shows its state.', title) + (outcome.message ? ` (${outcome.message})` : ''), SHOW_IN_ACTIVITIES).then((choice) => {
        if (choice === SHOW_IN_ACTIVITIES) void vscode.commands.executeCommand(Commands.activitiesShow, activityId);
      });
      break;
  }
  return outcome;
}

/** After a completed write: only the affected collection changes; the new or changed resource is selected. */
async function showResult(ctx: WriteContext, kind: ResourceKind, action: ActionSpec, target: ResourceItem | undefined, resultId: string | undefined): Promise<void> {
  if (action.method === 'DELETE' && target) {
    ctx.resources.remove(kind.id, target.id);
    return;
  }
  const id = action.target === 'collection' ? resultId : target?.id;
  try {
    const item = id && kind.item !== undefined ? await ctx.connection.client().get(kind.id, id) : undefined;
    if (!item) {
      await ctx.resources.refresh(kind.id);
      return;
    }
    const node = ctx.resources.upsert(kind, item);
    await ctx.view.reveal(node, { select: true, focus: false, expand: false });
  } catch (error) {
    ctx.logger.warn(`Could not show the result of ${action.label}: ${presentError(error).message}`);
    await ctx.resources.refresh(kind.id);
  }
}

function placeholderActivity(id: string, description: string): Activity {
  return { id, description, type: '', tenantId: undefined, creationDate: new Date().toISOString(), concernedItems: [], state: { kind: 'waiting' }, raw: { id } };
}
