import * as vscode from 'vscode';
import type { BackoffState } from '../../core/inlineCompletion';
import { afterActivation } from '../../platform/afterActivation';
import type { InlineController, InlineStatus } from './controller';

export interface InlineStatusBar extends vscode.Disposable {
  /** What the item shows now (host tests). */
  readonly current: { status: InlineStatus | undefined; text: string; tooltip: string };
  /** Renders again, resolving when done. */
  update(): Promise<void>;
}

function clock(at: number): string {
  return new Date(at).toLocaleTimeString(vscode.env.language, { hour: '2-digit', minute: '2-digit' });
}

/** Why completions are throttled or paused, in words. */
export function throttleReason(state: Extract<BackoffState, { kind: 'slow' | 'singleLine' | 'paused' }>): string {
  switch (state.kind) {
    case 'slow':
      return state.reason === 'tierNearCap' ? vscode.l10n.t('slowed down: the purchased tier is near its cap') : vscode.l10n.t('slowed down: the tier cap is forecast before the window resets');
    case 'singleLine':
      return state.reason === 'tierNearCap' ? vscode.l10n.t('single lines only: the purchased tier is nearly used up') : vscode.l10n.t('single lines only: the tier cap is forecast soon');
    case 'paused':
      switch (state.reason) {
        case 'tierCap':
          return vscode.l10n.t('paused until {0}: the tier cap is reached (chat keeps its reserve)', clock(state.resumesAt));
        case 'rateLimited':
          return vscode.l10n.t('paused until {0}: rate limited by the service', clock(state.resumesAt));
        case 'network':
          return vscode.l10n.t('paused until {0}: the service cannot be reached', clock(state.resumesAt));
        case 'server':
          return vscode.l10n.t('paused until {0}: the service failed', clock(state.resumesAt));
      }
  }
}

function render(status: InlineStatus): { text: string; tooltip: string; error: boolean; warning: boolean } {
  const title = vscode.l10n.t('Stratus inline completion');
  const click = vscode.l10n.t('Click for the menu.');
  switch (status.kind) {
    case 'on':
      return { text: '$(sparkle) Stratus', tooltip: `${title}: ${status.model ? vscode.l10n.t('on ({0})', status.model) : vscode.l10n.t('on')}\n\n${click}`, error: false, warning: false };
    case 'off': {
      const why = status.reason === 'disabled'
        ? vscode.l10n.t('off')
        : status.reason === 'language'
          ? vscode.l10n.t('off for {0}', status.language ?? '')
          : vscode.l10n.t('off until an inference API key is set');
      return { text: '$(circle-slash) Stratus', tooltip: `${title}: ${why}\n\n${click}`, error: false, warning: false };
    }
    case 'snoozed':
      return { text: `$(clock) ${vscode.l10n.t('{0} min', status.minutesLeft)}`, tooltip: `${title}: ${vscode.l10n.t('snoozed for {0} more minutes', status.minutesLeft)}\n\n${click}`, error: false, warning: false };
    case 'throttled':
      return { text: '$(dashboard) Stratus', tooltip: `${title}: ${throttleReason(status.state)}\n\n${click}`, error: false, warning: status.state.kind === 'paused' || status.state.kind === 'singleLine' };
    case 'error':
      return { text: '$(error) Stratus', tooltip: `${title}: ${vscode.l10n.t('stopped: {0}', status.state.message)}\n\n${click}`, error: true, warning: false };
  }
}

/** The state of ghost text for the active editor; a click opens the menu. */
export function createInlineStatusBar(controller: InlineController, menuCommand: string): InlineStatusBar {
  const item = vscode.window.createStatusBarItem('stratus.inlineCompletion', vscode.StatusBarAlignment.Right, 98);
  item.name = vscode.l10n.t('Stratus Inline Completion');
  item.command = menuCommand;
  const current: InlineStatusBar['current'] = { status: undefined, text: '', tooltip: '' };
  let generation = 0;
  const update = async (): Promise<void> => {
    const mine = ++generation;
    const status = await controller.status();
    if (mine !== generation) return;
    const shown = render(status);
    item.text = shown.text;
    item.tooltip = shown.tooltip;
    item.backgroundColor = shown.error ? new vscode.ThemeColor('statusBarItem.errorBackground') : shown.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    item.accessibilityInformation = { label: shown.tooltip.split('\n')[0] ?? shown.text, role: 'button' };
    current.status = status;
    current.text = shown.text;
    current.tooltip = shown.tooltip;
    item.show();
  };
  const listener = controller.onDidChange(() => void update());
  // First shown just after activation (reading the settings is no part of activating).
  const first = afterActivation(() => void update());
  return {
    current,
    update,
    dispose: () => {
      first.dispose();
      listener.dispose();
      item.dispose();
    },
  };
}
