import * as vscode from 'vscode';
import { Commands } from '../commands';
import type { TurnMetadata } from './history';

/** How much Continue raises the caps of the turn that carries on after a stop at the cap. */
export const CONTINUE_FACTOR = 2;
const MAX_PENDING = 100;

/**
 * The user's answers to "stopped at the cap: Continue / Stop", by stop id. Continue grants the
 * next turn of that conversation caps raised by CONTINUE_FACTOR; nothing else raises them (typing
 * "continue" carries on at the settings' caps), so a cap is only passed on a click.
 */
export class CapGrants {
  private readonly granted = new Set<string>();

  grant(id: string): void {
    if (this.granted.size >= MAX_PENDING) this.granted.delete(this.granted.values().next().value as string);
    this.granted.add(id);
  }

  refuse(id: string): void {
    this.granted.delete(id);
  }

  /** The cap factor of a turn that follows `previous`: raised once per Continue click, else 1. */
  factorAfter(previous: TurnMetadata | undefined): number {
    const stop = previous?.capStop;
    if (!stop || !this.granted.delete(stop.id)) return 1;
    return Math.max(1, stop.factor) * CONTINUE_FACTOR;
  }
}

/** The buttons under a turn stopped at its cap. */
export function capButtons(stream: vscode.ChatResponseStream, stopId: string): void {
  stream.button({ command: Commands.continueTurn, title: vscode.l10n.t('Continue'), arguments: [stopId] });
  stream.button({ command: Commands.stopTurn, title: vscode.l10n.t('Stop'), arguments: [stopId] });
}

/** The prompt Continue sends: the stopped turn's messages are in the history, the model carries on. */
export function continuePrompt(): string {
  return vscode.l10n.t('Continue where you stopped.');
}

export function registerCapActions(grants: CapGrants): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand(Commands.continueTurn, async (stopId?: unknown) => {
      if (typeof stopId !== 'string') return;
      grants.grant(stopId);
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@stratus ${continuePrompt()}` });
    }),
    vscode.commands.registerCommand(Commands.stopTurn, (stopId?: unknown) => {
      if (typeof stopId !== 'string') return;
      grants.refuse(stopId);
      vscode.window.setStatusBarMessage(vscode.l10n.t('Stratus: the turn stays stopped at its cap.'), 5_000);
    }),
  );
}
