import * as vscode from 'vscode';
import { readSettings } from '../../platform/settings';
import { Commands } from '../commands';
import type { ConnectionState, ConnectionStatus } from '../../platform/connectionStatus';

/** Status bar item: the current model and the connection state; a click picks a model or fixes the set-up. */
export function createStatusBarItem(status: ConnectionStatus): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('stratus.status', vscode.StatusBarAlignment.Right, 100);
  item.name = 'Stratus';
  const render = (state: ConnectionState): void => {
    const model = readSettings().chatModel || (state.kind === 'connected' ? state.model : undefined) || 'Stratus';
    item.backgroundColor = undefined;
    switch (state.kind) {
      case 'notConfigured':
        item.text = '$(cloud) Stratus: set up';
        item.tooltip = state.missing === 'apiKey' ? 'Stratus: no inference API key. Click to set it.' : 'Stratus: no inference base URL. Click to open the setting.';
        item.command = state.missing === 'apiKey' ? Commands.setApiKey : { title: 'Open Settings', command: 'workbench.action.openSettings', arguments: ['stratus.inference.baseUrl'] };
        // Not set up yet is not a fault: a plain item, never the warning colour.
        break;
      case 'error':
        item.text = `$(cloud-offline) ${model}`;
        item.tooltip = `Stratus: ${state.message}\nClick to pick a model.`;
        item.command = Commands.pickModel;
        item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
        break;
      default:
        item.text = `$(cloud) ${model}`;
        item.tooltip = state.kind === 'connected' ? `Stratus: connected. Model ${model}. Click to pick another.` : `Stratus: model ${model}. Click to pick another.`;
        item.command = Commands.pickModel;
    }
    item.show();
  };
  render(status.state);
  const subscriptions = [
    status.onDidChange(render),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('stratus.chat.model')) render(status.state);
    }),
  ];
  return vscode.Disposable.from(item, ...subscriptions);
}
