import * as vscode from 'vscode';
import { notificationText } from './errorActions';
import { showPresentedError } from './errorNotification';
import type { Logger } from '../core/log';

/** What opening the chat did: the query sent, or the error shown instead. */
export interface ChatOutcome {
  readonly query?: string;
  readonly error?: string;
}

/**
 * Opens the Chat view with `query` (starting with `@stratus`). Where this VS Code has no Chat view
 * (a web build without a default chat agent), it says so in a notification and the log, never throws.
 */
export async function openStratusChat(deps: { readonly logger: Logger; readonly logChannel: vscode.LogOutputChannel }, query: string, failurePrefix: string): Promise<ChatOutcome> {
  try {
    await vscode.commands.executeCommand('workbench.action.chat.open', { query });
    return { query };
  } catch (error) {
    deps.logger.error('Opening the Chat view failed', error);
    const presented = { message: vscode.l10n.t('this VS Code has no Chat view to open (it needs a chat-enabled VS Code).'), actions: [] };
    const options = { log: deps.logChannel, prefix: failurePrefix };
    void showPresentedError(presented, options);
    return { error: notificationText(presented.message, options) };
  }
}
