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
  /** Paths of extra PEM CA certificates. */
  readonly caCertificates: readonly string[];
  /** Longest server-requested wait (429 Retry-After) slept through before failing. */
  readonly maxRetryWaitSeconds: number;
  /** `stratus.console.resourcePaths`: catalog path overrides, validated by the console client. */
  readonly resourcePaths: unknown;
  /** VS Code's `http.proxy` and `http.proxyStrictSSL`. */
  readonly proxy: string;
  readonly proxyStrictSSL: boolean;
}

/** Reads settings; side-effect free, never cached past a configuration change. */
export function readSettings(): StratusSettings {
  const config = vscode.workspace.getConfiguration('stratus');
  const http = vscode.workspace.getConfiguration('http');
  const overrides = config.get<Record<string, unknown>>('models.kindOverrides', {});
  return {
    inferenceBaseUrl: config.get<string>('inference.baseUrl', '').trim(),
    consoleBaseUrl: config.get<string>('console.baseUrl', '').trim(),
    chatModel: config.get<string>('chat.model', '').trim(),
    modelKindOverrides: Object.fromEntries(Object.entries(overrides ?? {}).filter((entry): entry is [string, ModelKind] => isModelKind(entry[1]))),
    caCertificates: config.get<string[]>('network.caCertificates', []).filter((p) => typeof p === 'string' && p.trim() !== ''),
    maxRetryWaitSeconds: Math.max(0, config.get<number>('network.maxRetryWaitSeconds', 20)),
    resourcePaths: config.get<unknown>('console.resourcePaths', {}),
    proxy: (http.get<string>('proxy', '') ?? '').trim(),
    proxyStrictSSL: http.get<boolean>('proxyStrictSSL', true),
  };
}

/** Fires `listener` with fresh settings whenever a setting Stratus reads changes. */
export function onSettingsChanged(listener: (settings: StratusSettings) => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration('stratus') || event.affectsConfiguration('http.proxy') || event.affectsConfiguration('http.proxyStrictSSL')) {
      listener(readSettings());
    }
  });
}
