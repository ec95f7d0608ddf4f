import * as vscode from 'vscode';
import { chatErrorButtons } from '../../platform/errorNotification';
import type { TurnMetadata } from './history';

/** The answer when the inference API cannot be used yet, with the action that fixes it. */
export function notConfigured(stream: vscode.ChatResponseStream, missing: 'apiKey' | 'baseUrl'): vscode.ChatResult {
  if (missing === 'apiKey') {
    stream.markdown(vscode.l10n.t('**Stratus is not configured: set your API key.** The inference API key is created in the cloud console and kept in the OS secret store.'));
  } else {
    stream.markdown(vscode.l10n.t('**Stratus is not configured: set the inference base URL** (`stratus.inference.baseUrl`).'));
  }
  chatErrorButtons(stream, [missing === 'apiKey' ? 'setApiKey' : 'openSettings']);
  return { metadata: { notConfigured: missing } satisfies TurnMetadata };
}
