import * as vscode from 'vscode';
import { afterActivation } from '../../platform/afterActivation';
import { DisposableStore } from '../../platform/disposables';
import { presentError } from '../../core/presentError';
import { showPresentedError } from '../../platform/errorNotification';
import { Commands } from '../commands';
import type { Deps } from '../deps';
import { VENDOR } from '../../platform/languageModelInfo';
import { StratusModelProvider } from './provider';
import { pickChatModel } from '../../services/chatModelSelection';
import { createStatusBarItem } from './statusBar';

/** Registers the Language Model Chat Provider, the status bar item and "Pick Chat Model". */
export function register(deps: Deps): vscode.Disposable {
  const store = new DisposableStore();
  const provider = store.add(new StratusModelProvider(deps.inference, deps.connectionStatus, deps.logger));
  store.add(vscode.lm.registerLanguageModelChatProvider(VENDOR, provider));
  // VS Code resolves an extension's models lazily; without this the first `@stratus` message of a
  // fresh window, or the first after the key or endpoint changed, can fail with "Language model
  // unavailable".
  const resolveModels = (): void => {
    void vscode.lm.selectChatModels({ vendor: VENDOR }).then(undefined, (error: unknown) => deps.logger.warn('Early model resolution failed', error));
  };
  store.add(deps.inference.onDidChange(() => {
    provider.refresh();
    resolveModels();
  }));
  store.add(createStatusBarItem(deps.connectionStatus));
  store.add(vscode.commands.registerCommand(Commands.pickModel, async () => {
    try {
      return await pickChatModel(deps.inference);
    } catch (error) {
      listingFailed(deps, error, Commands.pickModel);
      return undefined;
    }
  }));
  store.add(vscode.commands.registerCommand(Commands.refreshModels, async () => {
    try {
      const models = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Stratus: listing models…') }, () => deps.inference.client().models.refresh());
      provider.refresh();
      vscode.window.setStatusBarMessage(vscode.l10n.t('Stratus: {0} models listed', models.length), 4000);
      return models.map((m) => m.id);
    } catch (error) {
      listingFailed(deps, error, Commands.refreshModels);
      return undefined;
    }
  }));
  store.add(afterActivation(resolveModels));
  return store;
}

/** Tells why the model list could not be fetched, with the presenter's typed actions (Retry re-runs `command`). */
function listingFailed(deps: Deps, error: unknown, command: string): void {
  const presented = presentError(error);
  if (presented.cancelled) return;
  deps.logger.error('Listing models failed', error);
  void showPresentedError(presented, { prefix: vscode.l10n.t('Cannot list models.'), log: deps.logChannel, on: { retry: () => vscode.commands.executeCommand(command) } });
}
