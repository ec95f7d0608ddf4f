import * as vscode from 'vscode';
import type { Redactor } from '../core/http/redact';
import type { TrafficTap, TransportOptions } from '../core/http/types';
import type { StratusSettings } from './settings';

/** What every client of this window shares: one redactor, one plain-http gate. */
export interface SharedNetwork {
  readonly redactor: Redactor;
  readonly beforeSecretSent: NonNullable<TransportOptions['beforeSecretSent']>;
  /** The Network Activity view's recorder: every transport reports to it. */
  readonly traffic?: TrafficTap;
}

/**
 * Options both API clients take from settings. The engine is the extension host's global `fetch`
 * (the transport's default), so VS Code's proxy, PAC, `http.noProxy`, proxy authentication and the
 * system certificates apply without Stratus reading any of them.
 */
export function networkOptions(settings: StratusSettings, shared?: SharedNetwork): Pick<TransportOptions, 'retry' | 'userAgent' | 'redactor' | 'beforeSecretSent' | 'traffic'> {
  return {
    retry: { maxWaitMs: settings.maxRetryWaitSeconds * 1000 },
    userAgent: `stratus-vscode (VS Code ${vscode.version})`,
    ...(shared ? { redactor: shared.redactor, beforeSecretSent: shared.beforeSecretSent } : {}),
    ...(shared?.traffic ? { traffic: shared.traffic } : {}),
  };
}

/** Same settings, same clients: a key that changes when any of them does. */
export function networkKey(settings: StratusSettings): string {
  return JSON.stringify([settings.maxRetryWaitSeconds]);
}
