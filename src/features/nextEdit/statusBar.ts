import * as vscode from 'vscode';
import type { NextEditController } from './controller';

/** "Next edit: line 120 — Tab" while a suggestion is shown out of view; a click jumps there. */
export function createNextEditStatusBar(controller: NextEditController, jumpCommand: string): vscode.Disposable & { readonly text: () => string | undefined } {
  const item = vscode.window.createStatusBarItem('stratus.nextEdit', vscode.StatusBarAlignment.Right, 97);
  item.name = vscode.l10n.t('Stratus Next Edit');
  item.command = jumpCommand;
  let shownText: string | undefined;
  const update = (): void => {
    const text = controller.outOfView() ? controller.locationText() : undefined;
    shownText = text;
    if (text === undefined) {
      item.hide();
      return;
    }
    item.text = `$(arrow-right) ${text}`;
    item.tooltip = vscode.l10n.t('Tab jumps to the suggested edit, Tab again applies it, Esc dismisses it.');
    item.accessibilityInformation = { label: text, role: 'button' };
    item.show();
  };
  const listener = controller.onDidChange(update);
  return {
    text: () => shownText,
    dispose: () => {
      listener.dispose();
      item.dispose();
    },
  };
}
