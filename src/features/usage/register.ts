import * as vscode from 'vscode';
import { presentError } from '../../core/presentError';
import { eurPerUnit } from '../../core/usage/cost';
import { usageCsv } from '../../core/usage/csv';
import { usageMarkdown } from '../../core/usage/markdown';
import type { UsageSnapshot } from '../../core/usage/summary';
import { formatDate } from '../../core/usage/time';
import type { InferenceClient } from '../../core/inference/client';
import { DisposableStore } from '../../platform/disposables';
import type { Deps } from '../deps';
import type { UsageMeter } from '../../core/usage/meter';
import { readUsageSettings, type UsageRuntime } from './meter';
import { createUsageStatusBar, type UsageLevel } from './statusBar';
import { USAGE_VIEW_ID, UsageViewProvider } from './view';

export { createUsageRuntime } from './meter';

export const UsageCommands = {
  show: 'stratus.showUsage',
  exportCsv: 'stratus.usage.exportCsv',
  reset: 'stratus.usage.reset',
} as const;

/** Internals for host tests (exported from activate() in test mode only). */
export interface UsageTestApi {
  snapshot(): UsageSnapshot;
  flush(): Promise<void>;
  refresh(): Promise<void>;
  reset(): Promise<void>;
  readonly view: { readonly ready: boolean; readonly lastState: UsageSnapshot | undefined; readonly firstPaintMs: number | undefined; readonly statesPosted: number; readonly ignoredMessages: number };
  readonly statusBar: { readonly text: string; readonly level: UsageLevel; readonly tooltip: string };
  inferenceClient(): InferenceClient;
}

/** The Usage view, Show Usage, Export CSV, Reset Statistics (confirmed), the status bar item and `@stratus /usage`. */
export function register(deps: Deps, extensionUri: vscode.Uri, runtime: UsageRuntime): { disposable: vscode.Disposable; testApi: UsageTestApi } {
  const store = new DisposableStore();
  // The meter is built just after activation (see createUsageRuntime): read it when needed.
  const meter = (): UsageMeter => runtime.meter;

  const exportCsv = async (): Promise<void> => {
    await meter().refresh();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(process.env.HOME ?? '/');
    const target = await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.joinPath(folder, `stratus-usage-${formatDate(Date.now(), meter().timeZone)}.csv`),
      filters: { CSV: ['csv'] },
      saveLabel: vscode.l10n.t('Export Usage'),
    });
    if (!target) return;
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(usageCsv(meter().ledgerCopy(), eurPerUnit(readUsageSettings().cachedInputEurPerMillion))));
    deps.logger.info(`Usage exported to ${target.fsPath}.`);
    void vscode.window.showInformationMessage(vscode.l10n.t('Stratus: usage exported to {0}.', vscode.workspace.asRelativePath(target)));
  };

  const reset = async (): Promise<void> => {
    const resetItem = vscode.l10n.t('Reset');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Reset the Stratus usage statistics?'),
      { modal: true, detail: vscode.l10n.t('This empties the metered figures of every VS Code window (hour, day, month and history). The service keeps billing as before: only the local statistics are cleared.') },
      resetItem,
    );
    if (choice !== resetItem) return;
    await meter().reset();
    deps.logger.info('Usage statistics reset.');
  };

  const view = store.add(new UsageViewProvider(extensionUri, meter, { exportCsv, reset }, deps.logger));
  store.add(vscode.window.registerWebviewViewProvider(USAGE_VIEW_ID, view));
  const statusBar = store.add(createUsageStatusBar(meter, UsageCommands.show));

  store.add(vscode.commands.registerCommand(UsageCommands.show, async () => {
    await vscode.commands.executeCommand(`${USAGE_VIEW_ID}.focus`);
    await meter().refresh().catch(() => undefined);
  }));
  store.add(vscode.commands.registerCommand(UsageCommands.exportCsv, () => exportCsv().catch((error: unknown) => {
    void vscode.window.showErrorMessage(vscode.l10n.t('Stratus: could not export the usage: {0}', presentError(error).message));
  })));
  store.add(vscode.commands.registerCommand(UsageCommands.reset, () => reset()));

  store.add(deps.chatCommands.register({
    name: 'usage',
    async handle(_request, _context, stream) {
      await meter().refresh().catch(() => undefined);
      stream.markdown(usageMarkdown(meter().snapshot()));
      stream.button({ command: UsageCommands.show, title: vscode.l10n.t('Show Usage') });
      return { metadata: { command: 'usage' } };
    },
  }));

  const testApi: UsageTestApi = {
    snapshot: () => meter().snapshot(),
    flush: () => meter().flush(),
    refresh: () => meter().refresh(),
    reset: () => meter().reset(),
    view: {
      get ready() { return view.isReady; },
      get lastState() { return view.lastState; },
      get firstPaintMs() { return view.firstPaintMs; },
      get statesPosted() { return view.statesPosted; },
      get ignoredMessages() { return view.ignoredMessages; },
    },
    statusBar: statusBar.current,
    inferenceClient: () => deps.inference.client(),
  };
  return { disposable: store, testApi };
}
