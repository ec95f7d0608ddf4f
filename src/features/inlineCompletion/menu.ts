import * as vscode from 'vscode';
import { showError } from '../../platform/errorNotification';
import { readSettings } from '../../platform/settings';
import { Commands } from '../commands';
import type { Deps } from '../deps';
import { isChatCapable } from '../../platform/languageModelInfo';
import { readNextEditSettings, setNextEditEnabled } from '../../platform/nextEditSettings';
import type { InlineController } from './controller';
import { languageEnabled, readInlineSettings, setEnabled, setLanguageEnabled, setModel } from './settings';

export const InlineCommands = {
  menu: 'stratus.inlineCompletion.menu',
  toggle: 'stratus.inlineCompletion.toggle',
  snooze: 'stratus.inlineCompletion.snooze',
  pickModel: 'stratus.inlineCompletion.pickModel',
} as const;

export const SNOOZE_MINUTES = [5, 15, 60] as const;

interface MenuItem extends vscode.QuickPickItem {
  run(): unknown;
}

/** The status bar's menu: on/off globally and for the language, snooze, the model, the usage view. */
export async function showMenu(controller: InlineController): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  const settings = readInlineSettings(editor?.document);
  const status = await controller.status();
  const items: MenuItem[] = [];
  if (status.kind === 'error') items.push({ label: `$(refresh) ${vscode.l10n.t('Try Again')}`, detail: status.state.message, run: () => controller.retry() });
  if (status.kind === 'throttled' && status.state.kind === 'paused' && status.state.reason !== 'tierCap') items.push({ label: `$(refresh) ${vscode.l10n.t('Try Again')}`, run: () => controller.retry() });
  items.push(settings.enabled
    ? { label: `$(circle-slash) ${vscode.l10n.t('Disable Inline Completion')}`, run: () => setEnabled(false, editor?.document) }
    : { label: `$(check) ${vscode.l10n.t('Enable Inline Completion')}`, run: () => setEnabled(true, editor?.document) });
  if (editor) {
    const language = editor.document.languageId;
    items.push(languageEnabled(settings, language)
      ? { label: `$(circle-slash) ${vscode.l10n.t('Disable for {0}', language)}`, run: () => setLanguageEnabled(language, false, editor.document) }
      : { label: `$(check) ${vscode.l10n.t('Enable for {0}', language)}`, run: () => setLanguageEnabled(language, true, editor.document) });
  }
  items.push(readNextEditSettings(editor?.document).enabled
    ? { label: `$(circle-slash) ${vscode.l10n.t('Disable Next Edit Suggestions')}`, run: () => setNextEditEnabled(false, editor?.document) }
    : { label: `$(check) ${vscode.l10n.t('Enable Next Edit Suggestions')}`, run: () => setNextEditEnabled(true, editor?.document) });
  if (controller.snoozeLeft() !== undefined) items.push({ label: `$(play) ${vscode.l10n.t('Resume Now')}`, run: () => controller.snooze(0) });
  for (const minutes of SNOOZE_MINUTES) items.push({ label: `$(clock) ${vscode.l10n.t('Snooze for {0} Minutes', minutes)}`, run: () => controller.snooze(minutes) });
  items.push({ label: `$(symbol-misc) ${vscode.l10n.t('Pick Completion Model…')}`, description: settings.model || vscode.l10n.t('the chat model'), run: () => vscode.commands.executeCommand(InlineCommands.pickModel) });
  items.push({ label: `$(pulse) ${vscode.l10n.t('Show Usage')}`, run: () => vscode.commands.executeCommand(Commands.showUsage) });
  const choice = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Stratus Inline Completion') });
  if (choice) await choice.run();
}

/** Snooze for `minutes` (a command argument), or ask how long. */
export async function snooze(controller: InlineController, minutes?: unknown): Promise<void> {
  if (typeof minutes === 'number' && Number.isFinite(minutes) && minutes >= 0 && minutes <= 24 * 60) {
    controller.snooze(minutes);
    return;
  }
  const choice = await vscode.window.showQuickPick(
    SNOOZE_MINUTES.map((m) => ({ label: vscode.l10n.t('{0} minutes', m), minutes: m })),
    { title: vscode.l10n.t('Snooze Inline Completion') },
  );
  if (choice) controller.snooze(choice.minutes);
}

/**
 * Quick pick of the chat models of /v1/models with their `max_model_len` (the catalogue says
 * nothing about speed: the user chooses); the choice becomes `stratus.completion.inline.model`.
 */
export async function pickCompletionModel(deps: Deps): Promise<string | undefined> {
  let models;
  try {
    models = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Stratus: listing models…') }, () => deps.inference.client().models.list());
  } catch (error) {
    void showError(error, { log: deps.logChannel, prefix: vscode.l10n.t('Cannot list models.') });
    return undefined;
  }
  const current = readInlineSettings().model;
  const chatModel = readSettings().chatModel;
  const useChat = { label: vscode.l10n.t('Same as the chat model'), description: chatModel || vscode.l10n.t('the first chat model listed'), id: '', picked: current === '' };
  const items = [useChat, ...models.filter(isChatCapable).map((m) => ({
    label: m.id,
    description: [m.maxModelLen ? vscode.l10n.t('max_model_len {0}', m.maxModelLen) : vscode.l10n.t('max_model_len unknown'), m.id === current ? vscode.l10n.t('current') : undefined].filter(Boolean).join(' · '),
    id: m.id,
    picked: m.id === current,
  }))];
  const choice = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Stratus: Pick Inline Completion Model'),
    placeHolder: vscode.l10n.t('Shown with max_model_len, the context length; the list says nothing about speed, so try one'),
  });
  if (!choice) return undefined;
  await setModel(choice.id);
  return choice.id;
}
