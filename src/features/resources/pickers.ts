import * as vscode from 'vscode';
import type { ResourceKind } from '../../core/console/catalog/kindSpecs';
import type { ResourceItem } from '../../core/console/types';
import { PagedList } from '../../core/console/lists/pagedList';
import { presentError } from '../../core/presentError';
import type { ConsoleConnection } from '../../services/consoleConnection';

/** Quick pick of resource kinds (those that offer `actionId`, when given). */
export async function pickKind(connection: ConsoleConnection, title: string, actionId?: string): Promise<ResourceKind | undefined> {
  const kinds = connection.client().catalog.kinds.filter((k) => !actionId || k.actions.some((a) => a.id === actionId));
  if (kinds.length === 1) return kinds[0];
  const choice = await vscode.window.showQuickPick(kinds.map((kind) => ({ label: `$(${kind.icon}) ${kind.label.plural}`, description: `${kind.module} v${kind.version}`, resourceKind: kind })), { title, placeHolder: vscode.l10n.t('Resource kind') });
  return choice?.resourceKind;
}

/** Quick pick of one resource, filtered on the server by name as the user types. */
export async function pickResource(connection: ConsoleConnection, kind: ResourceKind, title: string): Promise<ResourceItem | undefined> {
  const quickPick = vscode.window.createQuickPick<vscode.QuickPickItem & { item: ResourceItem }>();
  quickPick.title = title;
  quickPick.placeholder = vscode.l10n.t('Type to filter {0} by name', kind.label.plural.toLowerCase());
  quickPick.matchOnDescription = true;
  let generation = 0;
  let timer: NodeJS.Timeout | undefined;
  // The pages behind the pick: a filter the server ignores is searched for through pages (bounded),
  // and what the person typed before is aborted when they type on.
  const list = new PagedList<ResourceItem>({
    idOf: (item) => item.id,
    maxScanPages: 20,
    fetch: (r) => connection.client().list(kind.id, { offset: r.offset, limit: r.limit, ...(r.name ? { name: r.name } : {}), signal: r.signal }),
  });
  const load = async (name: string): Promise<void> => {
    const mine = ++generation;
    quickPick.busy = true;
    try {
      await list.setFilter(name);
      if (mine !== generation) return;
      quickPick.items = list.items.map((item) => {
        const presentation = connection.client().catalog.present(kind.id, item);
        return { label: `$(${presentation.icon}) ${presentation.label}`, description: presentation.description, detail: item.id, item };
      });
      if (list.error !== undefined) {
        const presented = presentError(list.error);
        if (!presented.cancelled) void vscode.window.showErrorMessage(vscode.l10n.t('Stratus: cannot list {0}. {1}', kind.label.plural.toLowerCase(), presented.message));
      }
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
      list.reset();
      resolve(undefined);
      quickPick.dispose();
    });
    quickPick.show();
    void load('');
  });
}
