import * as vscode from 'vscode';
import { formatCompact, formatEur, formatInt, percent } from '../../core/usage/format';
import type { UsageMeter } from '../../core/usage/meter';
import { levelOf, type UsageLevel } from '../../core/usage/summary';

export type { UsageLevel };

export interface UsageStatusBar extends vscode.Disposable {
  /** What the item shows now (host tests). */
  readonly current: { text: string; level: UsageLevel; tooltip: string };
}

/** Output tokens this hour against the cap; warning colour above 80 %, error colour at the cap. */
export function createUsageStatusBar(meter: () => UsageMeter, command: string): UsageStatusBar {
  const item = vscode.window.createStatusBarItem('stratus.usage', vscode.StatusBarAlignment.Right, 99);
  item.name = vscode.l10n.t('Stratus Usage');
  item.command = command;
  const current = { text: '', level: 'normal' as UsageLevel, tooltip: '' };
  const render = (): void => {
    const s = meter().snapshot();
    const level = levelOf(s);
    const cap = s.hour.cap === undefined ? '' : `/${formatCompact(s.hour.cap)}`;
    item.text = `$(pulse) ${formatCompact(s.hour.used)}${cap}`;
    const hourLine = s.hour.cap === undefined
      ? vscode.l10n.t('{0} output tokens this hour (no fixed cap)', formatInt(s.hour.used))
      : vscode.l10n.t('{0} / {1} output tokens this hour ({2} %), resets at {3}', formatInt(s.hour.used), formatInt(s.hour.cap), (percent(s.hour.used, s.hour.cap) ?? 0).toFixed(0), s.hour.resetsAtLabel);
    const dayLine = s.day.cap === undefined
      ? vscode.l10n.t('{0} output tokens today', formatInt(s.day.used))
      : vscode.l10n.t('{0} / {1} output tokens today ({2} %)', formatInt(s.day.used), formatInt(s.day.cap), (percent(s.day.used, s.day.cap) ?? 0).toFixed(0));
    const monthLine = s.month.budgetEur === undefined
      ? vscode.l10n.t('{0} spent in {1}', formatEur(s.month.costEur), s.month.label)
      : vscode.l10n.t('{0} spent in {1} of a {2} budget', formatEur(s.month.costEur), s.month.label, formatEur(s.month.budgetEur));
    const batchLine = s.batch.requests > 0
      ? vscode.l10n.t('Batch (half price): {0} this month, {1} saved; not counted against the hourly or daily cap', formatEur(s.batch.costEur), formatEur(s.batch.savedEur))
      : vscode.l10n.t('Batch work (half price) is not counted against the hourly or daily cap');
    const tooltip = `${vscode.l10n.t('Stratus usage, {0}', s.tier.name)}\n\n${hourLine}\n\n${dayLine}\n\n${monthLine}\n\n${batchLine}\n\n${vscode.l10n.t('Click to open the Usage view.')}`;
    item.tooltip = new vscode.MarkdownString(tooltip);
    item.backgroundColor = level === 'error' ? new vscode.ThemeColor('statusBarItem.errorBackground') : level === 'warning' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    item.accessibilityInformation = { label: vscode.l10n.t('Stratus usage: {0}', hourLine), role: 'button' };
    current.text = item.text;
    current.level = level;
    current.tooltip = tooltip;
    item.show();
  };
  // First drawn just after activation: the snapshot's dates and numbers are the host's first Intl use.
  let sub: { dispose(): void } | undefined;
  const first = setTimeout(() => {
    sub = meter().onDidChange(render);
    render();
  }, 0);
  // The hour rolls over without any event: re-render once a minute.
  const timer = setInterval(render, 60_000);
  timer.unref?.();
  const config = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('stratus.usage')) render();
  });
  return {
    current,
    dispose: () => {
      clearTimeout(first);
      clearInterval(timer);
      sub?.dispose();
      config.dispose();
      item.dispose();
    },
  };
}
