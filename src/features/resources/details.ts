import * as vscode from 'vscode';
import { inlineCode } from '../../core/markdown';
import type { ConsoleConnection } from '../../services/consoleConnection';
import type { ActivitiesTree } from './activitiesTree';
import type { ResourcesTree } from './resourcesTree';

export const DETAILS_SCHEME = 'stratus-console';

/**
 * Read-only documents for a resource's or an activity's full JSON and for the endpoints in use:
 * `stratus-console:/resources/<kind>/<id>.json`, `/activities/<id>.json`, `/endpoints.md`.
 */
export class DetailsProvider implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly connection: ConsoleConnection,
    private readonly resources: ResourcesTree,
    private readonly activities: ActivitiesTree,
  ) {}

  static resourceUri(kindId: string, id: string): vscode.Uri {
    return vscode.Uri.from({ scheme: DETAILS_SCHEME, path: `/resources/${kindId}/${encodeURIComponent(id)}.json` });
  }

  static activityUri(id: string): vscode.Uri {
    return vscode.Uri.from({ scheme: DETAILS_SCHEME, path: `/activities/${encodeURIComponent(id)}.json` });
  }

  static endpointsUri(): vscode.Uri {
    return vscode.Uri.from({ scheme: DETAILS_SCHEME, path: '/endpoints.md' });
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const parts = uri.path.split('/').filter(Boolean).map(decodeURIComponent);
    if (parts[0] === 'endpoints.md') return this.endpoints();
    const id = (parts.at(-1) ?? '').replace(/\.json$/, '');
    if (parts[0] === 'activities') {
      const known = this.activities.get(id);
      const activity = known ?? (await this.connection.client().activities.get(id));
      return `${JSON.stringify(activity.raw, null, 2)}\n`;
    }
    const kindId = parts[1] ?? '';
    const kind = this.connection.client().catalog.kind(kindId);
    const abort = new AbortController();
    const listener = token.onCancellationRequested(() => abort.abort());
    try {
      // Fresh from the server when the API can read one resource; else what the list returned.
      const item = kind.item !== undefined
        ? await this.connection.client().get(kindId, id, { signal: abort.signal })
        : this.resources.collection(kindId).items.find((i) => i.id === id);
      return item ? `${JSON.stringify(item.raw, null, 2)}\n` : `// ${vscode.l10n.t('{0} {1} is not loaded.', kind.label.singular, id)}\n`;
    } finally {
      listener.dispose();
    }
  }

  private endpoints(): string {
    const rows = this.connection.client().endpointsInUse().map((e) => `| ${e.module} | v${e.version} | ${e.method} | ${inlineCode(e.path)} | ${e.purpose} |`);
    return [
      `# ${vscode.l10n.t('Console endpoints Stratus depends on')}`,
      '',
      vscode.l10n.t('The console API advises clients to keep this list to follow deprecations. Paths can be overridden with `stratus.console.resourcePaths`.'),
      '',
      `| ${vscode.l10n.t('Module')} | ${vscode.l10n.t('Version')} | ${vscode.l10n.t('Method')} | ${vscode.l10n.t('Path')} | ${vscode.l10n.t('Used for')} |`,
      '| --- | --- | --- | --- | --- |',
      ...rows,
      '',
    ].join('\n');
  }

  dispose(): void {
    this.changed.dispose();
  }
}
