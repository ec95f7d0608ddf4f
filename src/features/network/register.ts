import * as vscode from 'vscode';
import { hostOf, NetworkActivity, type HostTraffic } from '../../core/http/networkActivity';
import { DisposableStore } from '../../platform/disposables';
import { readSettings } from '../../platform/settings';
import { NETWORK_VIEW_ID, NetworkTreeProvider, type NetworkNode } from './tree';

export const SHOW_NETWORK_ACTIVITY = 'stratus.showNetworkActivity';

/** Internals for host tests (exported from activate() in test mode only). */
export interface NetworkTestApi {
  snapshot(): HostTraffic[];
  readonly tree: vscode.TreeDataProvider<NetworkNode>;
  /** Hosts the outside-host notice was shown for. */
  readonly noticed: readonly string[];
}

/**
 * The window's recorder, built before any client (every transport reports to it). A host outside
 * the configured inference and console hosts gets one warning, with the view one click away.
 */
export function createNetworkActivity(): { activity: NetworkActivity; noticed: readonly string[] } {
  const noticed: string[] = [];
  const activity = new NetworkActivity({
    now: Date.now,
    expectedHosts: () => {
      const settings = readSettings();
      return [hostOf(settings.inferenceBaseUrl), hostOf(settings.consoleBaseUrl)].filter((h): h is string => h !== undefined);
    },
    onUnexpectedHost: (host) => {
      noticed.push(host);
      const show = vscode.l10n.t('Show Network Activity');
      void vscode.window
        .showWarningMessage(vscode.l10n.t('Stratus contacted {0}, which is not your configured inference or console host.', host), show)
        .then((choice) => (choice === show ? vscode.commands.executeCommand(SHOW_NETWORK_ACTIVITY) : undefined));
    },
  });
  return { activity, noticed };
}

/** The Network Activity view (in the Stratus sidebar) and "Stratus: Show Network Activity". */
export function register(recorder: { activity: NetworkActivity; noticed: readonly string[] }): { disposable: vscode.Disposable; testApi: NetworkTestApi } {
  const store = new DisposableStore();
  const tree = store.add(new NetworkTreeProvider(recorder.activity));
  store.add(vscode.window.createTreeView(NETWORK_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true }));
  store.add(vscode.commands.registerCommand(SHOW_NETWORK_ACTIVITY, () => vscode.commands.executeCommand(`${NETWORK_VIEW_ID}.focus`)));
  return {
    disposable: store,
    testApi: { snapshot: () => recorder.activity.snapshot(), tree, noticed: recorder.noticed },
  };
}
