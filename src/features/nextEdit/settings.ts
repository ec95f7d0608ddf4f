import * as vscode from 'vscode';

export const NEXT_EDIT_SECTION = 'stratus.nextEdit';

export interface NextEditSettings {
  /** On unless turned off; it also needs ghost text on (`stratus.completion.inline.enabled`): the same gates. */
  readonly enabled: boolean;
  /** Model id; empty: the ghost-text model. */
  readonly model: string;
}

/** `stratus.nextEdit.*` for a document; side-effect free. */
export function readNextEditSettings(scope?: vscode.ConfigurationScope): NextEditSettings {
  const config = vscode.workspace.getConfiguration(NEXT_EDIT_SECTION, scope);
  return {
    enabled: config.get<boolean>('enabled', true) !== false,
    model: (config.get<string>('model', '') ?? '').trim(),
  };
}

export async function setNextEditEnabled(enabled: boolean): Promise<void> {
  await vscode.workspace.getConfiguration(NEXT_EDIT_SECTION).update('enabled', enabled, vscode.ConfigurationTarget.Global);
}

export function affectsNextEdit(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration(NEXT_EDIT_SECTION);
}
