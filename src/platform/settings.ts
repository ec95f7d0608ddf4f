import * as vscode from 'vscode';

/** Every Stratus setting, typed. Read through `readSettings`; never cached past a configuration change. */
export interface StratusSettings {
  readonly inferenceBaseUrl: string;
  readonly consoleBaseUrl: string;
}

export function readSettings(config: vscode.WorkspaceConfiguration = vscode.workspace.getConfiguration('stratus')): StratusSettings {
  return {
    inferenceBaseUrl: config.get<string>('inference.baseUrl', '').trim(),
    consoleBaseUrl: config.get<string>('console.baseUrl', '').trim(),
  };
}

/** Fires `listener` with fresh settings whenever a `stratus.*` setting changes. */
export function onSettingsChanged(listener: (settings: StratusSettings) => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration('stratus')) listener(readSettings());
  });
}
