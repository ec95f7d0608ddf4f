import * as vscode from 'vscode';
import type { ActionSpec, ResourceKind } from '../../core/console/catalog/kindSpecs';
import { ActivityFailedError, ActivityStillRunningError } from '../../core/console/errors';
import type { Activity, ResourceItem } from '../../core/console/types';
import type { Logger } from '../../core/log';
import { presentError } from '../../core/presentError';
import { toAbortSignal } from '../../platform/cancellation';
import { showPresentedError, type ErrorNotificationOptions } from '../../platform/errorNotification';
import type { ConsoleConnection } from '../../services/consoleConnection';
import type { ActivitiesTree } from './activitiesTree';
import { describeState } from './activitiesTree';
import { collectInput } from './inputFlow';
import type { ResourceNode } from './nodes';
import { Commands } from '../commands';
import type { ResourcesTree } from './resourcesTree';
import type { WriteOptions } from '../../core/commandTestArguments';
import { findWriteActivities } from '../../core/console/activities/writes';
import { isErrorAction, unknownOutcomeReason, writeFailureActions } from './writeFailure';

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
  /** After an unknown outcome: a recent activity that may be this write. */
  readonly matchingActivity?: Activity;
}

/** A second attempt after an unknown outcome: the fresh confirmation it must pass. */
interface SendAgain {
  readonly question: string;
  readonly detail: string;
}

export type { WriteOptions } from '../../core/commandTestArguments';

export interface WriteContext {
  connection: ConsoleConnection;
  resources: ResourcesTree;
  activities: ActivitiesTree;
  view: vscode.TreeView<ResourceNode>;
  logger: Logger;
  /** The Stratus log channel ("Show Log"). */
  log: ErrorNotificationOptions['log'];
  /** Overall deadline of following one activity (`stratus.console.activityTimeoutMinutes`). */
  activityTimeoutMs(): number;
}


/**
 * One write from the catalog: confirm, collect input, send, then follow the activity with a
 * cancellable progress notification until it completes (the resource is revealed) or fails.
 */
export async function runWrite(ctx: WriteContext, kind: ResourceKind, action: ActionSpec, target: ResourceItem | undefined, options: WriteOptions = {}, again?: SendAgain): Promise<WriteOutcome | undefined> {
  const SHOW_IN_ACTIVITIES = vscode.l10n.t('Show in Activities');
  const catalog = ctx.connection.client().catalog;
  const verb = action.label.replace(/(\.\.\.|…)$/, '');
  const title = target ? `${verb} ${kind.label.singular.toLowerCase()} "${target.name}"` : verb;

  if (again) {
    // After an unknown outcome: always a fresh modal, whatever the action or the options say.
    const answer = await vscode.window.showWarningMessage(again.question, { modal: true, detail: again.detail }, action.label);
    if (answer !== action.label) return undefined;
  }
  const confirmation = options.confirmed || again ? undefined : catalog.confirmation(kind.id, action.id, target);
  if (confirmation) {
    const answer = await vscode.window.showWarningMessage(confirmation, { modal: true, detail: `${kind.label.singular}: ${target?.name ?? ''} (${target?.id ?? ''})` }, action.label);
    if (answer !== action.label) return undefined;
  }
  const input = options.input ?? (action.fields?.length ? await collectInput(title, action.fields, catalog.initialInput(kind.id, action.id, target)) : {});
  if (input === undefined) return undefined;

  let activityId: string;
  const startedAt = Date.now();
  try {
    activityId = (await ctx.connection.client().perform(kind.id, action.id, { ...(target ? { target } : {}), input })).activityId;
  } catch (error) {
    const presented = presentError(error);
    if (presented.cancelled) return undefined;
    ctx.logger.error(`${title} failed: ${presented.message}`);
    const actions = writeFailureActions(error, presented.actions);
    if (actions.includes('sendAgain')) {
      // It may have been applied: never sent again by itself, and never without a new confirmation.
      return unknownOutcome(ctx, { kind, action, target, input, options, title, startedAt, error });
    }
    void showPresentedError({ message: presented.message, actions: actions.filter(isErrorAction) }, {
      log: ctx.log,
      text: vscode.l10n.t('Stratus: {0} failed. {1}', title, presented.message),
      // The server refused it or it never left (writeSafety.provablyNotApplied): sending it again cannot apply it twice.
      on: { retry: () => runWrite(ctx, kind, action, target, { input, confirmed: true }) },
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
      void showPresentedError({ message: outcome.message ?? '', actions: ['showLog', 'retry'] }, {
        log: ctx.log,
        text: vscode.l10n.t('Stratus: {0} failed: {1}', title, outcome.message ?? ''),
        on: { retry: () => runWrite(ctx, kind, action, target, { input, confirmed: true }) },
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

/** Longest wait for the activity list when looking for the write whose outcome is unknown. */
const LOOKUP_TIMEOUT_MS = 15_000;

interface Attempt {
  kind: ResourceKind;
  action: ActionSpec;
  target: ResourceItem | undefined;
  input: Record<string, unknown>;
  options: WriteOptions;
  title: string;
  startedAt: number;
  error: unknown;
}

/**
 * A write that may or may not have been applied (a reset or timeout after sending, a 5xx): say so,
 * look for a recent activity that matches it, offer to show it (or the Activities view), and send
 * again only after a fresh modal confirmation that says it may then be applied twice.
 */
async function unknownOutcome(ctx: WriteContext, attempt: Attempt): Promise<WriteOutcome> {
  const { kind, action, target, input, title } = attempt;
  const reason = unknownOutcomeReason(attempt.error);
  const name = typeof input.name === 'string' ? input.name : undefined;
  const matches = await findWriteActivities(
    (listOptions) => ctx.connection.client().activities.list(listOptions),
    { targetId: action.target === 'item' ? target?.id : undefined, name: action.target === 'collection' ? name : undefined, startedAt: attempt.startedAt },
    { signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS), logger: ctx.logger },
  );
  const match = matches[0];
  if (match) ctx.activities.update(match, true);
  ctx.logger.warn(`${title}: outcome unknown (${reason}); ${match ? `recent activity ${match.id} may be it` : 'no matching recent activity found'}. Not sent again.`);
  const found = match
    ? vscode.l10n.t('A recent activity may be it: "{0}" ({1}).', match.description || match.id, describeState(match))
    : vscode.l10n.t('No matching recent activity was found yet: check the Activities view before sending it again.');
  const message = vscode.l10n.t('Stratus: "{0}" may or may not have been applied: {1}. It was not sent again. {2}', title, reason, found);
  const sendAgain = (): Promise<WriteOutcome | undefined> => {
    const question = vscode.l10n.t('Send "{0}" again? The first attempt may already have been applied; if it was, this applies it a second time.', title);
    const detail = match ? vscode.l10n.t('Possibly the first attempt: activity "{0}" ({1}).', match.description || match.id, describeState(match)) : vscode.l10n.t('No matching activity was found.');
    const { confirmed: _skip, ...rest } = attempt.options;
    return runWrite(ctx, kind, action, target, { ...rest, input }, { question, detail });
  };
  void showPresentedError({ message, actions: ['showLog'] }, {
    log: ctx.log,
    text: message,
    severity: 'warning',
    extra: [
      match
        ? { id: 'showActivity', title: vscode.l10n.t('Show Activity'), run: () => vscode.commands.executeCommand(Commands.activitiesShow, match.id) }
        : { id: 'openActivities', title: vscode.l10n.t('Open Activities'), run: () => vscode.commands.executeCommand(Commands.activitiesShow) },
      { id: 'sendAgain', title: vscode.l10n.t('Send Again...'), run: sendAgain },
    ],
  });
  return { status: 'outcomeUnknown', message: `${reason}`, ...(match ? { matchingActivity: match } : {}) };
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
