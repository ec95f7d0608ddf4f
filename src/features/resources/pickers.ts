import * as vscode from 'vscode';
import type { ResourceKind } from '../../core/console/catalog-types';
import type { ResourceItem } from '../../core/console/types';
import { presentError } from '../../core/presentError';
import type { ConsoleConnection } from '../../platform/consoleConnection';

/** Quick pick of resource kinds (those that offer `actionId`, when given). */
export async function pickKind(connection: ConsoleConnection, title: string, actionId?: string): Promise<ResourceKind | undefined> {
  const kinds = connection.client().catalog.kinds.filter((k) => !actionId || k.actions.some((a) => a.id === actionId));
  if (kinds.length === 1) return kinds[0];
  const choice = await vscode.window.showQuickPick(kinds.map((kind) => ({ label: `$(${kind.icon}) ${kind.label.plural}`, description: `${kind.module} v${kind.version}`, resourceKind: kind })), { title, placeHolder: 'Resource kind' });
  return choice?.resourceKind;
}

/** Quick pick of one resource, filtered on the server by name as the user types. */
export async function pickResource(connection: ConsoleConnection, kind: ResourceKind, title: string): Promise<ResourceItem | undefined> {
  const quickPick = vscode.window.createQuickPick<vscode.QuickPickItem & { item: ResourceItem }>();
  quickPick.title = title;
  quickPick.placeholder = `Type to filter ${kind.label.plural.toLowerCase()} by name`;
  quickPick.matchOnDescription = true;
  let generation = 0;
  let timer: NodeJS.Timeout | undefined;
  let inflight: AbortController | undefined;
  const load = async (name: string): Promise<void> => {
    const mine = ++generation;
    // What the person typed before is no longer wanted: its request is aborted.
    inflight?.abort();
    const controller = new AbortController();
    inflight = controller;
    quickPick.busy = true;
    try {
      const page = await connection.client().list(kind.id, { limit: 100, ...(name ? { name } : {}), signal: controller.signal });
      if (mine !== generation) return;
      quickPick.items = page.items.map((item) => {
        const presentation = connection.client().catalog.present(kind.id, item);
        return { label: `$(${presentation.icon}) ${presentation.label}`, description: presentation.description, detail: item.id, item };
      });
    } catch (error) {
      const presented = presentError(error);
      if (mine !== generation || presented.cancelled) return;
      quickPick.items = [];
      void vscode.window.showErrorMessage(`Stratus: cannot list ${kind.label.plural.toLowerCase()}. ${presented.message}`);
    } finally {
      if (mine === generation) quickPick.busy = false;
    }
  };
  return new Promise<ResourceItem | undefined>((resolve) => {
    quickPick.onDidChangeValue((value) => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void load(value.trim()), 250);
    });
    quickPick.onDidAccept(() => {
      resolve(quickPick.selectedItems[0]?.item);
      quickPick.hide();
    });
    quickPick.onDidHide(() => {
      if (timer) clearTimeout(timer);
      inflight?.abort();
      resolve(undefined);
      quickPick.dispose();
    });
    quickPick.show();
    void load('');
  });
}
