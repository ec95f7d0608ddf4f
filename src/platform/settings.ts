import * as vscode from 'vscode';
import type { ModelKind } from '../core/inference/models/types';
import { isModelKind } from '../core/inference/models/kind';
import { boundedConfiguration, heldBack, type BoundedConfiguration } from './settingsPolicy';

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
 * A section of Stratus' settings read under the one rule of what a workspace may set
 * (settingsPolicy.ts): a cloned repository's `.vscode/settings.json` may only make Stratus send
 * less or ask more. Every read of a `stratus.*` setting goes through here.
 */
export function stratusConfiguration(section: string, scope?: vscode.ConfigurationScope | null): BoundedConfiguration {
  return boundedConfiguration(vscode.workspace.getConfiguration(section, scope), section);
}

/** One setting by its full key (`stratus.console.activityTimeoutMinutes`), under the same rule. */
export function stratusSetting<T>(key: string, fallback: T, scope?: vscode.ConfigurationScope | null): T {
  return boundedConfiguration(vscode.workspace.getConfiguration(undefined, scope), '').get<T>(key, fallback);
}

/** A number of seconds from 0 up; the default for anything else (a string in a hand-edited file, NaN). */
function seconds(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.max(0, value) : fallback;
}

/** Reads settings; side-effect free, never cached past a configuration change. */
export function readSettings(): StratusSettings {
  // The addresses and paths are the user's alone (`application` scope, and `user` in the policy).
  const config = stratusConfiguration('stratus');
  const overrides = config.get<Record<string, unknown>>('models.kindOverrides', {});
  return {
    inferenceBaseUrl: String(config.get<unknown>('inference.baseUrl', '')).trim(),
    consoleBaseUrl: String(config.get<unknown>('console.baseUrl', '')).trim(),
    chatModel: config.get<string>('chat.model', '').trim(),
    modelKindOverrides: Object.fromEntries(Object.entries(overrides ?? {}).filter((entry): entry is [string, ModelKind] => isModelKind(entry[1]))),
    maxRetryWaitSeconds: seconds(config.get<unknown>('network.maxRetryWaitSeconds', 20), 20),
    resourcePaths: config.get<unknown>('console.resourcePaths', {}),
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

/**
 * Writes `value` of `section.key` where the value in force comes from (settingInForce); when the
 * rule holds that value back from a workspace (turning on what the user turned off), the user's
 * settings get it too, so the toggle does what it says.
 */
export async function updateInForce<T>(section: string, key: string, value: T, scope?: vscode.ConfigurationScope): Promise<void> {
  const config = vscode.workspace.getConfiguration(section, scope);
  const { target } = settingInForce<T>(config, key);
  await config.update(key, value, target);
  if (target !== vscode.ConfigurationTarget.Global && heldBack(`${section}.${key}`, config.inspect<T>(key), value)) {
    await config.update(key, value, vscode.ConfigurationTarget.Global);
  }
}
