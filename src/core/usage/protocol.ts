import type { UsageSnapshot } from './summary';

/**
 * The Usage webview's message protocol, shared by the extension and the webview bundle.
 * The webview says `ready` once its script runs; the extension answers with `state`, and sends
 * `state` again on every change. Everything the webview sends is validated with `parseFromWebview`.
 */
export type ToWebview =
  | { type: 'state'; snapshot: UsageSnapshot }
  /** The webview's last action failed or was declined (reset cancelled, export failed). */
  | { type: 'notice'; text: string };

export type FromWebview =
  | { type: 'ready' }
  | { type: 'exportCsv' }
  | { type: 'reset' }
  | { type: 'openSettings' }
  /** Time from script start to the first drawn state, for the UI test's report. */
  | { type: 'painted'; ms: number };

/** Returns the typed message, or undefined for anything else (ignored by the caller). */
export function parseFromWebview(value: unknown): FromWebview | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const type = (value as { type?: unknown }).type;
  switch (type) {
    case 'ready':
    case 'exportCsv':
    case 'reset':
    case 'openSettings':
      return { type };
    case 'painted': {
      const ms = (value as { ms?: unknown }).ms;
      return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? { type, ms } : undefined;
    }
    default:
      return undefined;
  }
}
