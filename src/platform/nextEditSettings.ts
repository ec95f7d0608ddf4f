import * as vscode from 'vscode';
import { stratusConfiguration, updateInForce } from './settings';

export const NEXT_EDIT_SECTION = 'stratus.nextEdit';

export interface NextEditSettings {
  /** On unless turned off; it also needs ghost text on (`stratus.completion.inline.enabled`): the same gates. */
  readonly enabled: boolean;
  /** Model id; empty: the ghost-text model. */
  readonly model: string;
}

/** `stratus.nextEdit.*` for a document; side-effect free. */
export function readNextEditSettings(scope?: vscode.ConfigurationScope): NextEditSettings {
  const config = stratusConfiguration(NEXT_EDIT_SECTION, scope);
  return {
    enabled: config.get<boolean>('enabled', true) !== false,
    model: (config.get<string>('model', '') ?? '').trim(),
  };
}

/**
 * Turns next edits on or off for `scope` (the active document): written where the value in force
 * comes from, the folder's or the workspace's settings before the user's (a write to the user's
 * settings under a workspace `false` would change nothing).
 */
export async function setNextEditEnabled(enabled: boolean, scope?: vscode.ConfigurationScope): Promise<void> {
  await updateInForce(NEXT_EDIT_SECTION, 'enabled', enabled, scope);
}

export function affectsNextEdit(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration(NEXT_EDIT_SECTION);
}
