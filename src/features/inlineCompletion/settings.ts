import * as vscode from 'vscode';
import { DEFAULT_DEBOUNCE_MS } from '../../core/inlineCompletion';
import { settingInForce, stratusConfiguration, updateInForce } from '../../platform/settings';

/** Languages where ghost text is off unless `stratus.completion.inline.languages` says otherwise. */
export const OFF_BY_DEFAULT: readonly string[] = ['plaintext', 'markdown', 'scminput'];

export const SECTION = 'stratus.completion.inline';

export interface InlineSettings {
  readonly enabled: boolean;
  /** Language id -> on/off; `*` for every other language. */
  readonly languages: Readonly<Record<string, boolean>>;
  /** Completion model id; empty: the chat model in use. */
  readonly model: string;
  readonly debounceMs: number;
}

/** `stratus.completion.inline.*` for a document (languages may differ by folder); side-effect free. */
export function readInlineSettings(scope?: vscode.ConfigurationScope): InlineSettings {
  const config = stratusConfiguration(SECTION, scope);
  const raw = config.get<Record<string, unknown>>('languages', {});
  const languages = Object.fromEntries(Object.entries(raw ?? {}).filter((e): e is [string, boolean] => typeof e[1] === 'boolean'));
  const debounce = config.get<number>('debounceMs', DEFAULT_DEBOUNCE_MS);
  return {
    enabled: config.get<boolean>('enabled', true) !== false,
    languages,
    model: (config.get<string>('model', '') ?? '').trim(),
    debounceMs: typeof debounce === 'number' && Number.isFinite(debounce) ? Math.min(2000, Math.max(0, debounce)) : DEFAULT_DEBOUNCE_MS,
  };
}

/** Whether ghost text is on for `languageId`: its own entry, else off for OFF_BY_DEFAULT, else `*`, else on. */
export function languageEnabled(settings: Pick<InlineSettings, 'languages'>, languageId: string): boolean {
  const own = settings.languages[languageId];
  if (own !== undefined) return own;
  if (OFF_BY_DEFAULT.includes(languageId)) return false;
  return settings.languages['*'] ?? true;
}

/** Ghost text on or off for `scope` (the active document), written where the value in force comes from. */
export async function setEnabled(enabled: boolean, scope?: vscode.ConfigurationScope): Promise<void> {
  await updateInForce(SECTION, 'enabled', enabled, scope);
}

/** Ghost text on or off for a language, in the `languages` map in force (its other entries kept). */
export async function setLanguageEnabled(languageId: string, enabled: boolean, scope?: vscode.ConfigurationScope): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION, scope);
  const { target, value } = settingInForce<Record<string, boolean>>(config, 'languages');
  await config.update('languages', { ...(value ?? {}), [languageId]: enabled }, target);
  // Turning a language on from a workspace's map is held back when the user's map has it off (settingsPolicy.ts).
  if (target !== vscode.ConfigurationTarget.Global && languageEnabled(readInlineSettings(scope), languageId) !== enabled) {
    await config.update('languages', { ...(config.inspect<Record<string, boolean>>('languages')?.globalValue ?? {}), [languageId]: enabled }, vscode.ConfigurationTarget.Global);
  }
}

export async function setModel(model: string): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update('model', model === '' ? undefined : model, vscode.ConfigurationTarget.Global);
}

export function affectsInline(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration(SECTION) || event.affectsConfiguration('stratus.chat.model');
}
