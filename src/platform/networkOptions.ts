import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { TransportOptions } from '../core/http/types';
import type { Logger } from '../core/log';
import type { StratusSettings } from './settings';

/** Proxy, TLS and retry options both API clients take from settings (VS Code's http.* included). */
export function networkOptions(settings: StratusSettings, logger: Logger): Pick<TransportOptions, 'retry' | 'proxy' | 'rejectUnauthorized' | 'ca' | 'userAgent'> {
  return {
    retry: { maxWaitMs: settings.maxRetryWaitSeconds * 1000 },
    proxy: { url: settings.proxy || undefined },
    rejectUnauthorized: settings.proxyStrictSSL,
    ca: readCertificates(settings.caCertificates, logger),
    userAgent: `stratus-vscode (VS Code ${vscode.version})`,
  };
}

/** Same settings, same clients: a key that changes when any of them does. */
export function networkKey(settings: StratusSettings): string {
  return JSON.stringify([settings.caCertificates, settings.maxRetryWaitSeconds, settings.proxy, settings.proxyStrictSSL]);
}

function readCertificates(paths: readonly string[], logger: Logger): string[] {
  const pems: string[] = [];
  for (const path of paths) {
    try {
      pems.push(readFileSync(path, 'utf8'));
    } catch (error) {
      logger.warn(`Cannot read the CA certificate ${path} (stratus.network.caCertificates): ${error instanceof Error ? error.message : String(error)}`);
      void vscode.window.showWarningMessage(`Stratus: cannot read the CA certificate ${path}.`, 'Open Settings').then((choice) => {
        if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'stratus.network.caCertificates');
      });
    }
  }
  return pems;
}
