import * as vscode from 'vscode';
import type { ErrorAction } from '../../core/presentError';
import { Commands } from '../commands';
import type { TurnMetadata } from './history';

/** The answer when the inference API cannot be used yet, with the action that fixes it. */
export function notConfigured(stream: vscode.ChatResponseStream, missing: 'apiKey' | 'baseUrl'): vscode.ChatResult {
  if (missing === 'apiKey') {
    stream.markdown(vscode.l10n.t('**Stratus is not configured: set your API key.** The inference API key is created in the cloud console and kept in the OS secret store.'));
  } else {
    stream.markdown(vscode.l10n.t('**Stratus is not configured: set the inference base URL** (`stratus.inference.baseUrl`).'));
  }
  errorButtons(stream, [missing === 'apiKey' ? 'setApiKey' : 'openSettings']);
  return { metadata: { notConfigured: missing } satisfies TurnMetadata };
}

/** One button per action, in the order given. */
export function errorButtons(stream: vscode.ChatResponseStream, actions: readonly ErrorAction[], retry?: { prompt: string; retryAfterSeconds?: number | undefined }): void {
  for (const action of actions) {
    switch (action) {
      case 'setApiKey':
        stream.button({ command: Commands.setApiKey, title: vscode.l10n.t('Set Inference API Key') });
        break;
      case 'signIn':
        stream.button({ command: Commands.signIn, title: vscode.l10n.t('Sign In to Console') });
        break;
      case 'pickModel':
        stream.button({ command: Commands.pickModel, title: vscode.l10n.t('Pick Model') });
        break;
      case 'openSettings':
        stream.button({ command: 'workbench.action.openSettings', title: vscode.l10n.t('Open Settings'), arguments: ['stratus.inference'] });
        break;
      case 'retry':
        if (retry) {
          const title = retry.retryAfterSeconds ? vscode.l10n.t('Retry after {0} s', retry.retryAfterSeconds) : vscode.l10n.t('Retry');
          stream.button({ command: Commands.retryChat, title, arguments: [retry.prompt, retry.retryAfterSeconds ?? 0] });
        }
        break;
      case 'showLog':
        stream.button({ command: Commands.showLog, title: vscode.l10n.t('Show Log') });
        break;
      case 'showUsage':
        stream.button({ command: Commands.showUsage, title: vscode.l10n.t('Show Usage') });
        break;
    }
  }
}
