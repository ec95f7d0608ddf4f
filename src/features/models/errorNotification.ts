import * as vscode from 'vscode';
import type { ErrorAction, PresentedError } from '../../core/presentError';
import { Commands } from '../commands';

interface ActionItem extends vscode.MessageItem {
  run(): void;
}

export interface NotifyOptions {
  /** Says what failed, before the presenter's message (e.g. "Cannot list models."). */
  readonly prefix?: string;
  /** Said after the presenter's message (e.g. what was kept). */
  readonly suffix?: string;
  /** Runs on "Retry"; without it no Retry button is offered. */
  readonly retry?: () => void;
  readonly logChannel: vscode.OutputChannel;
}

/** The notification button for one typed action, or none where the action does not apply. */
function itemFor(action: ErrorAction, options: NotifyOptions): ActionItem | undefined {
  const run = (command: string, ...args: unknown[]) => (): void => void vscode.commands.executeCommand(command, ...args);
  switch (action) {
    case 'setApiKey':
      return { title: vscode.l10n.t('Set Inference API Key'), run: run(Commands.setApiKey) };
    case 'signIn':
      return { title: vscode.l10n.t('Sign In to Console'), run: run(Commands.signIn) };
    case 'pickModel':
      return { title: vscode.l10n.t('Pick Model'), run: run(Commands.pickModel) };
    case 'openSettings':
      return { title: vscode.l10n.t('Open Settings'), run: run('workbench.action.openSettings', 'stratus.inference') };
    case 'retry':
      return options.retry ? { title: vscode.l10n.t('Retry'), run: options.retry } : undefined;
    case 'showLog':
      return { title: vscode.l10n.t('Show Log'), run: () => options.logChannel.show(true) };
    case 'showUsage':
      return { title: vscode.l10n.t('Show Usage'), run: run(Commands.showUsage) };
  }
}

/**
 * Shows a presented error as a notification whose buttons are its typed actions. The chosen
 * button is the item object itself (never matched by its title). Not awaited by callers: a
 * progress notification must close now, not when this one is dismissed.
 */
export function notifyError(presented: Pick<PresentedError, 'message' | 'actions'>, options: NotifyOptions): string {
  const items = presented.actions.map((action) => itemFor(action, options)).filter((item): item is ActionItem => item !== undefined);
  const text = ['Stratus:', options.prefix, presented.message, options.suffix].filter(Boolean).join(' ');
  void vscode.window.showErrorMessage(text, ...items).then((choice) => choice?.run());
  return text;
}
