import * as vscode from 'vscode';
import { presentError, StrictSslNote, type ErrorAction, type PresentedError } from '../core/presentError';
import { buttonActions, defaultActionCommand, notificationText, type ActionCommand } from './errorActions';
import { proxyStrictSSL } from './settings';

/**
 * The one error surface of the extension. Errors are translated once by core's presentError into
 * a message and typed actions; this shows them as a notification (showError) or as buttons in a
 * chat answer (chatErrorButtons), with the same localised titles and the same commands.
 */

/** The localised title of an action's button, the same in notifications and in the chat. */
export function actionTitle(action: ErrorAction, retryAfterSeconds?: number): string {
  switch (action) {
    case 'setApiKey':
      return vscode.l10n.t('Set Inference API Key');
    case 'signIn':
      return vscode.l10n.t('Sign In to Console');
    case 'pickModel':
      return vscode.l10n.t('Pick Model');
    case 'openSettings':
      return vscode.l10n.t('Open Settings');
    case 'openSizeSetting':
      return vscode.l10n.t('Change the Limit');
    case 'pickSpeechModel':
      return vscode.l10n.t('Pick Speech Model…');
    case 'changeOptions':
      return vscode.l10n.t('Change Options…');
    case 'retry':
      return retryAfterSeconds ? vscode.l10n.t('Retry after {0} s', retryAfterSeconds) : vscode.l10n.t('Retry');
    case 'showLog':
      return vscode.l10n.t('Show Log');
    case 'showUsage':
      return vscode.l10n.t('Show Usage');
  }
}

/** A button of one feature only ("Open Activities", "Send Again...", "Sign In Again"). */
export interface ExtraButton {
  /** What showError resolves to when this button is chosen. */
  readonly id: string;
  readonly title: string;
  run(): unknown;
}

export interface ErrorNotificationOptions {
  /** The Stratus log channel, shown by "Show Log". */
  readonly log: { show(preserveFocus?: boolean): void };
  /** Says what failed, before the message ("Cannot list models."). */
  readonly prefix?: string | undefined;
  /** Said after the message (what was kept). */
  readonly suffix?: string | undefined;
  /** The whole text, already localised, instead of "Stratus:" + prefix + message + suffix. */
  readonly text?: string | undefined;
  /**
   * How the feature runs an action: required for Retry and the transcription re-runs (no button
   * without it), optional for the others (each runs its command by default).
   */
  readonly on?: Partial<Record<ErrorAction, () => unknown>> | undefined;
  /** Feature-specific buttons, shown before the typed actions. */
  readonly extra?: readonly ExtraButton[] | undefined;
  /** An outcome to check rather than a failure ("may or may not have been applied"). */
  readonly severity?: 'error' | 'warning' | undefined;
}

interface Item extends vscode.MessageItem {
  readonly id: string;
  run(): unknown;
}

/**
 * Shows an error as a notification with its actions as buttons, runs the chosen one, and
 * resolves to it (an ErrorAction, or an extra button's id; undefined when dismissed). Shows
 * nothing for a cancellation. Callers do not await it: a progress notification must close now,
 * not when this one is dismissed.
 */
const strictSslNote = new StrictSslNote();

export function showError(error: unknown, options: ErrorNotificationOptions): Promise<string | undefined> {
  const presented = presentError(error);
  if (presented.cancelled) return Promise.resolve(undefined);
  const note = strictSslNote.for(error, proxyStrictSSL());
  return showPresentedError(note ? { ...presented, message: `${presented.message} ${note}` } : presented, options);
}

/** showError for a message and actions already presented (by presentError or a feature's own presenter). */
export async function showPresentedError(presented: Pick<PresentedError, 'message' | 'actions'>, options: ErrorNotificationOptions): Promise<string | undefined> {
  const items: Item[] = [
    ...(options.extra ?? []).map((button) => ({ id: button.id, title: button.title, run: () => button.run() })),
    ...buttonActions(presented.actions, (action) => options.on?.[action] !== undefined).map((action) => ({ id: action, title: actionTitle(action), run: runner(action, options) })),
  ];
  const text = notificationText(presented.message, options);
  const choice = options.severity === 'warning' ? await vscode.window.showWarningMessage(text, ...items) : await vscode.window.showErrorMessage(text, ...items);
  if (!choice) return undefined;
  await choice.run();
  return choice.id;
}

function runner(action: ErrorAction, options: ErrorNotificationOptions): () => unknown {
  const own = options.on?.[action];
  if (own) return own;
  if (action === 'showLog') return () => options.log.show(true);
  const command = defaultActionCommand(action);
  return () => (command ? vscode.commands.executeCommand(command.command, ...(command.arguments ?? [])) : undefined);
}

export interface ChatErrorButtonOptions {
  /** The command of an action the feature runs (Retry, the transcription re-runs), or runs differently. */
  readonly commands?: Partial<Record<ErrorAction, ActionCommand>> | undefined;
  /** A rate limit's wait, said in Retry's title. */
  readonly retryAfterSeconds?: number | undefined;
}

/** The actions of an error as buttons in a chat answer, in the order given (the chat's form of showError). */
export function chatErrorButtons(stream: vscode.ChatResponseStream, actions: readonly ErrorAction[], options: ChatErrorButtonOptions = {}): void {
  for (const action of buttonActions(actions, (a) => options.commands?.[a] !== undefined)) {
    const command = options.commands?.[action] ?? defaultActionCommand(action);
    if (!command) continue;
    stream.button({ command: command.command, title: actionTitle(action, options.retryAfterSeconds), ...(command.arguments ? { arguments: [...command.arguments] } : {}) });
  }
}
