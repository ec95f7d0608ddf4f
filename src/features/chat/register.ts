import * as vscode from 'vscode';
import { SecretKeys } from '../../platform/secrets';
import { Commands } from '../commands';
import type { Deps } from '../deps';

export const PARTICIPANT_ID = 'stratus.chat';

/** The @stratus chat participant. */
export function register(deps: Deps, extensionUri: vscode.Uri): vscode.Disposable {
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, async (request, _context, stream, token) => {
    const apiKey = await deps.secrets.get(SecretKeys.inferenceApiKey);
    if (token.isCancellationRequested) return {};
    if (apiKey === undefined) {
      stream.markdown('**Stratus is not configured: set your API key.** The inference API key is created in the cloud console and kept in the OS secret store.');
      stream.button({ command: Commands.setApiKey, title: 'Set Inference API Key' });
      return { metadata: { notConfigured: 'apiKey' } };
    }
    if (!deps.settings().inferenceBaseUrl) {
      stream.markdown('**Stratus is not configured: set the inference base URL** (`stratus.inference.baseUrl`).');
      stream.button({ command: 'workbench.action.openSettings', title: 'Open Settings', arguments: ['stratus.inference.baseUrl'] });
      return { metadata: { notConfigured: 'baseUrl' } };
    }
    deps.logger.info(`Chat request received (${request.prompt.length} characters).`);
    stream.markdown('The inference client is not part of this build yet.');
    return {};
  });
  participant.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'stratus.svg');
  return participant;
}
