import * as vscode from 'vscode';
import { DisposableStore } from '../../platform/disposables';
import { Commands } from '../commands';
import type { Deps } from '../deps';
import { AgentDepth, SHOW_SUMMARY_COMMAND, showSummary } from './agentDepth';
import { registerCapActions } from './capActions';
import { createHandler, PARTICIPANT_ID } from './handler';
import type { TurnMetadata } from './history';

export { PARTICIPANT_ID };

/** The @stratus chat participant, its followups and the retry command its error buttons use. */
export function register(deps: Deps, extensionUri: vscode.Uri): vscode.Disposable {
  const store = new DisposableStore();
  const depth = store.add(new AgentDepth(deps));
  store.add(vscode.commands.registerCommand(SHOW_SUMMARY_COMMAND, showSummary));
  store.add(registerCapActions(depth.capGrants));
  const participant = store.add(vscode.chat.createChatParticipant(PARTICIPANT_ID, createHandler(deps, depth)));
  participant.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'stratus.svg');
  participant.followupProvider = {
    provideFollowups(result: vscode.ChatResult) {
      const metadata = result.metadata as TurnMetadata | undefined;
      // A cut answer is in the history: the model can pick up where it stopped.
      if (metadata?.incomplete) return metadata.incomplete === 'cancelled' ? [] : [{ prompt: vscode.l10n.t('Continue where you stopped.'), label: vscode.l10n.t('Continue the answer') }];
      if (!metadata?.model || metadata.error) return [];
      if (metadata.finishReason === 'length') return [{ prompt: vscode.l10n.t('Continue where you stopped.'), label: vscode.l10n.t('Continue the answer') }];
      return [{ prompt: vscode.l10n.t('Explain that step by step.'), label: vscode.l10n.t('Explain step by step') }];
    },
  };
  store.add(vscode.commands.registerCommand(Commands.retryChat, async (prompt?: unknown, waitSeconds?: unknown) => {
    if (typeof prompt !== 'string') return;
    const seconds = typeof waitSeconds === 'number' ? waitSeconds : 0;
    if (seconds > 0) {
      const waited = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Stratus: retrying in {0} s…', seconds), cancellable: true }, (_p, token) =>
        new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(true), seconds * 1000);
          token.onCancellationRequested(() => { clearTimeout(timer); resolve(false); });
        }));
      if (!waited) return;
    }
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@stratus ${prompt}` });
  }));
  return store;
}
