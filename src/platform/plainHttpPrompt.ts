import * as vscode from 'vscode';
import { PlainHttpGate } from '../core/http/plainHttp';

const ALLOWED_KEY = 'stratus.plainHttp.allowedOrigins';

/**
 * The plain-http gate with VS Code's modal warning as its question; origins the user allowed are
 * remembered in global state, so the warning comes once per origin, not once per window.
 */
export function createPlainHttpGate(state: vscode.Memento): PlainHttpGate {
  const remembered = state.get<string[]>(ALLOWED_KEY, []);
  return new PlainHttpGate(
    async (origin, secretName) => {
      const send = vscode.l10n.t('Send Unencrypted');
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('Stratus is about to send your {0} to {1} over plain http, unencrypted: anyone on the network path can read it.', secretName, origin),
        { modal: true, detail: vscode.l10n.t('Use an https:// address unless this host is on a network you trust. Your answer is remembered for this address.') },
        send,
      );
      return choice === send;
    },
    remembered,
    (origin) => void state.update(ALLOWED_KEY, [...new Set([...state.get<string[]>(ALLOWED_KEY, []), origin])]),
  );
}
