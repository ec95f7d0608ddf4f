import * as vscode from 'vscode';
import type { Logger } from '../../core/log';
import { createCapGuard, type BeforeGeneration } from '../../core/usage/guard';
import type { UsageListener } from '../../core/usage/events';
import { UsageMeter } from '../../core/usage/meter';
import { parseUsageSettings, type UsageSettings } from '../../core/usage/settings';
import { UsageStore } from '../../core/usage/store';
import { systemTimeZone } from '../../core/usage/time';
import { stratusConfiguration } from '../../platform/settings';

/** `stratus.usage.*`, validated (bad values fall back to the tier's defaults). */
export function readUsageSettings(): UsageSettings {
  const config = stratusConfiguration('stratus.usage');
  return parseUsageSettings({
    tier: config.get<unknown>('tier'),
    monthlyBudget: config.get<unknown>('monthlyBudget'),
    upfrontCredit: config.get<unknown>('upfrontCredit'),
    waitAtCap: config.get<unknown>('waitAtCap'),
    cachedInputRate: config.get<unknown>('cachedInputRate'),
  });
}

/** How often other windows' usage is merged in while this one is open. */
const REFRESH_MS = 15_000;
/** Before a generating request, merge other windows' usage if it is older than this. */
const FRESH_MS = 5_000;

export interface UsageRuntime extends vscode.Disposable {
  readonly meter: UsageMeter;
  /** For the inference client: every answer's usage, and the cap check before generating. */
  readonly hooks: { onUsage: UsageListener; beforeGeneration: BeforeGeneration };
}

/**
 * The meter of this window, persisted under globalStorageUri/usage (shared by every window),
 * in the system time zone. Built just after activation rather than during it (finding the time
 * zone is the extension host's first Intl call, about 20 ms), or at its first use if that is
 * sooner; loading happens in the background: activation does not wait for disk.
 */
export function createUsageRuntime(context: vscode.ExtensionContext, logger: Logger): UsageRuntime {
  let built: { meter: UsageMeter; timer: ReturnType<typeof setInterval> } | undefined;
  let lastRefresh = 0;
  const refresh = (compact = false): Promise<void> => {
    lastRefresh = Date.now();
    return meter().refresh({ compact });
  };
  const meter = (): UsageMeter => {
    if (built) return built.meter;
    const timeZone = systemTimeZone();
    const store = new UsageStore({ dir: vscode.Uri.joinPath(context.globalStorageUri, 'usage').fsPath, timeZone });
    const timer = setInterval(() => void refresh().catch(() => undefined), REFRESH_MS);
    timer.unref?.();
    built = { meter: new UsageMeter({ store, timeZone, settings: readUsageSettings, logger }), timer };
    void refresh(true).catch(() => undefined);
    return built.meter;
  };
  const warmUp = setTimeout(meter, 0);
  const beforeGeneration = createCapGuard({
    snapshot: () => meter().snapshot(),
    settings: readUsageSettings,
    logger,
    refresh: async () => {
      if (Date.now() - lastRefresh > FRESH_MS) await refresh().catch(() => undefined);
    },
    onWait: (block) => {
      void vscode.window.setStatusBarMessage(`$(watch) ${block.window === 'hour' ? vscode.l10n.t('Stratus: hourly cap reached, waiting until {0}', block.resetsAtLabel) : vscode.l10n.t('Stratus: daily cap reached, waiting until {0}', block.resetsAtLabel)}`, Math.max(1000, block.resetsAt - Date.now()));
    },
  });
  return {
    get meter() {
      return meter();
    },
    hooks: { onUsage: (event) => meter().listener(event), beforeGeneration },
    dispose: () => {
      clearTimeout(warmUp);
      if (!built) return;
      clearInterval(built.timer);
      void built.meter.flush().catch(() => undefined);
    },
  };
}
