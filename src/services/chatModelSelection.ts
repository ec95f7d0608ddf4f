import * as vscode from 'vscode';
import type { ModelInfo } from '../core/inference/models/types';
import type { InferenceConnection } from './inferenceConnection';
import { readSettings } from '../platform/settings';
import { isChatCapable } from '../platform/languageModelInfo';

/** The model `@stratus` uses when VS Code's picker holds no Stratus model: the setting, else the first chat model. */
export async function defaultChatModel(connection: InferenceConnection, signal?: AbortSignal): Promise<ModelInfo | undefined> {
  const models = await connection.client().models.list({ signal });
  const wanted = readSettings().chatModel;
  if (wanted) return models.find((m) => m.id === wanted || m.aliases.includes(wanted)) ?? { id: wanted, kind: connection.client().models.kindOf(wanted), created: undefined, ownedBy: undefined, root: undefined, aliases: [], maxModelLen: undefined };
  return models.find(isChatCapable);
}

/** Quick pick of chat models; the choice becomes `stratus.chat.model`. Returns the id, or undefined if dismissed. */
export async function pickChatModel(connection: InferenceConnection): Promise<string | undefined> {
  const current = readSettings().chatModel;
  const models = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Stratus: listing models…') },
    () => connection.client().models.list(),
  );
  const items = models.filter(isChatCapable).map((m) => ({
    label: m.id,
    description: [m.kind === 'vision' ? vscode.l10n.t('vision') : vscode.l10n.t('chat'), m.maxModelLen ? vscode.l10n.t('{0}k context', Math.round(m.maxModelLen / 1024)) : undefined, m.id === current ? vscode.l10n.t('current') : undefined].filter(Boolean).join(' · '),
    picked: m.id === current,
  }));
  if (items.length === 0) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Stratus: the service lists no chat models.'));
    return undefined;
  }
  const choice = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Stratus: Pick Chat Model'), placeHolder: vscode.l10n.t('Model used by @stratus and Complete Selection') });
  if (!choice) return undefined;
  await vscode.workspace.getConfiguration('stratus').update('chat.model', choice.label, vscode.ConfigurationTarget.Global);
  return choice.label;
}
