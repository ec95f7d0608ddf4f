import * as vscode from 'vscode';
import type { ModelKind } from '../core/inference/models/types';
import { isModelKind } from '../core/inference/models/kind';

/** Every Stratus setting (and the VS Code network settings it honours), typed. */
export interface StratusSettings {
  readonly inferenceBaseUrl: string;
  readonly consoleBaseUrl: string;
  /** Default chat model id; empty: the first chat model the service lists. */
  readonly chatModel: string;
  readonly modelKindOverrides: Readonly<Record<string, ModelKind>>;
  /** Longest server-requested wait (429 Retry-After) slept through before failing. */
  readonly maxRetryWaitSeconds: number;
  /** `stratus.console.resourcePaths`: catalog path overrides, validated by the console client. */
  readonly resourcePaths: unknown;
}

/**
 * Settings that decide where a secret is sent. They are `application`-scoped in package.json, so VS Code
 * already ignores a workspace's value; reading the user-level value only keeps a cloned
 * repository's `.vscode/settings.json` out even on a host that would not.
 */
function userLevel<T>(config: vscode.WorkspaceConfiguration, key: string, fallback: T): T {
  const inspected = config.inspect<T>(key);
  return inspected?.globalValue ?? inspected?.defaultValue ?? fallback;
}

/** A number of seconds from 0 up; the default for anything else (a string in a hand-edited file, NaN). */
function seconds(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.max(0, value) : fallback;
}

/** Reads settings; side-effect free, never cached past a configuration change. */
export function readSettings(): StratusSettings {
  const config = vscode.workspace.getConfiguration('stratus');
  const overrides = config.get<Record<string, unknown>>('models.kindOverrides', {});
  return {
    inferenceBaseUrl: String(userLevel(config, 'inference.baseUrl', '')).trim(),
    consoleBaseUrl: String(userLevel(config, 'console.baseUrl', '')).trim(),
    chatModel: config.get<string>('chat.model', '').trim(),
    modelKindOverrides: Object.fromEntries(Object.entries(overrides ?? {}).filter((entry): entry is [string, ModelKind] => isModelKind(entry[1]))),
    maxRetryWaitSeconds: seconds(config.get<unknown>('network.maxRetryWaitSeconds', 20), 20),
    resourcePaths: userLevel<unknown>(config, 'console.resourcePaths', {}),
  };
}

/** VS Code's `http.proxyStrictSSL` (default on). Its fetch never reads it: only said to the user (presentError's StrictSslNote). */
export function proxyStrictSSL(): boolean {
  return vscode.workspace.getConfiguration('http').get<unknown>('proxyStrictSSL', true) !== false;
}

/** Fires `listener` with fresh settings whenever a setting Stratus reads changes. */
export function onSettingsChanged(listener: (settings: StratusSettings) => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    // The network (http.proxy and friends) is the engine's business: VS Code's fetch reads it.
    if (event.affectsConfiguration('stratus')) {
      listener(readSettings());
    }
  });
}

/**
 * Where a write of `key` changes what is in force, and the value there: the folder's settings,
 * else the workspace's, else the user's. A toggle that always wrote the user's settings changed
 * nothing under a workspace value.
 */
export function settingInForce<T>(config: vscode.WorkspaceConfiguration, key: string): { target: vscode.ConfigurationTarget; value: T | undefined } {
  const inspected = config.inspect<T>(key);
  if (inspected?.workspaceFolderValue !== undefined) return { target: vscode.ConfigurationTarget.WorkspaceFolder, value: inspected.workspaceFolderValue };
  if (inspected?.workspaceValue !== undefined) return { target: vscode.ConfigurationTarget.Workspace, value: inspected.workspaceValue };
  return { target: vscode.ConfigurationTarget.Global, value: inspected?.globalValue };
}
