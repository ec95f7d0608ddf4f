import * as vscode from 'vscode';
import { afterActivation } from '../../platform/afterActivation';
import { readSettings } from '../../platform/settings';
import { Commands } from '../commands';
import { effortLabel } from '../../platform/reasoningEffortLabel';
import type { ConnectionState, ConnectionStatus } from '../../services/connectionStatus';

export interface ModelStatusBar extends vscode.Disposable {
  /** The item as shown (host tests read its text, command and colour). */
  readonly item: vscode.StatusBarItem;
}

/** Status bar item: the current model and the connection state; a click picks a model or fixes the set-up. */
export function createStatusBarItem(status: ConnectionStatus): ModelStatusBar {
  const item = vscode.window.createStatusBarItem('stratus.status', vscode.StatusBarAlignment.Right, 100);
  item.name = 'Stratus';
  const render = (state: ConnectionState): void => {
    const modelId = readSettings().chatModel || (state.kind === 'connected' ? state.model : undefined);
    const effort = modelId ? effortLabel(modelId) : undefined;
    const model = `${modelId || 'Stratus'}${effort ? ` · ${effort}` : ''}`;
    item.backgroundColor = undefined;
    switch (state.kind) {
      case 'notConfigured':
        item.text = `$(cloud) ${vscode.l10n.t('Stratus: set up')}`;
        item.tooltip = state.missing === 'apiKey' ? vscode.l10n.t('Stratus: no inference API key. Click to set it.') : vscode.l10n.t('Stratus: no inference base URL. Click to open the setting.');
        item.command = state.missing === 'apiKey' ? Commands.setApiKey : { title: vscode.l10n.t('Open Settings'), command: 'workbench.action.openSettings', arguments: ['stratus.inference.baseUrl'] };
        // Not set up yet is not a fault: a plain item, never the warning colour.
        break;
      case 'error':
        item.text = `$(cloud-offline) ${model}`;
        item.tooltip = `Stratus: ${state.message}\n${vscode.l10n.t('Click to pick a model.')}`;
        item.command = Commands.pickModel;
        item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
        break;
      default:
        item.text = `$(cloud) ${model}`;
        item.tooltip = state.kind === 'connected' ? vscode.l10n.t('Stratus: connected. Model {0}. Click to pick another.', model) : vscode.l10n.t('Stratus: model {0}. Click to pick another.', model);
        item.command = Commands.pickModel;
    }
    item.show();
  };
  // First shown just after activation (reading the settings is no part of activating).
  const first = afterActivation(() => render(status.state));
  const subscriptions = [
    first,
    status.onDidChange(render),
    vscode.workspace.onDidChangeConfiguration((e) => {
      // The label follows the effort, and the `reasoning` override that says whether one applies.
      if (['stratus.chat.model', 'stratus.models.reasoningEffort', 'stratus.models.overrides'].some((key) => e.affectsConfiguration(key))) render(status.state);
    }),
  ];
  const disposable = vscode.Disposable.from(item, ...subscriptions);
  return { item, dispose: () => disposable.dispose() };
}
