import * as vscode from 'vscode';
import { NO_SPEND, type TurnSpend } from '../../core/agent/turnBudget';
import type { TurnShape } from '../../platform/chatCommands';
import { Commands } from '../commands';
import type { TurnMetadata } from './history';

/** How much Continue raises the caps of the turn that carries on after a stop at the cap. */
export const CONTINUE_FACTOR = 2;
const MAX_PENDING = 100;

/** What a turn after a Continue click carries on from the stopped turn. */
export interface Continuation {
  /** The caps of the settings times this. */
  readonly factor: number;
  /** What the task had spent at the stop: counted against the raised caps, so they are a total. */
  readonly spent: TurnSpend;
  /** The stopped turn's shape (plan mode, a prompt file's or agent's tools and instructions), when it had one. */
  readonly shape: TurnShape | undefined;
}

/**
 * The user's answers to "stopped at the cap: Continue / Stop", by stop id, and the shape of each
 * stopped turn. Continue grants the next turn of that conversation caps raised by CONTINUE_FACTOR
 * (the spend so far counted) and the stopped turn's shape; nothing else raises them (typing
 * "continue" carries on at the settings' caps), so a cap is only passed on a click.
 */
export class CapGrants {
  private readonly granted = new Set<string>();
  private readonly shapes = new Map<string, TurnShape>();

  grant(id: string): void {
    if (this.granted.size >= MAX_PENDING) this.granted.delete(this.granted.values().next().value as string);
    this.granted.add(id);
  }

  refuse(id: string): void {
    this.granted.delete(id);
    this.shapes.delete(id);
  }

  /**
   * Keeps the shape of a turn stopped at its cap, for Continue to run the same kind of turn. Its
   * prompt and attachments are not kept: they are in the stopped turn already.
   */
  stopped(id: string, shape: TurnShape): void {
    const { prompt: _prompt, attachments: _attachments, ...kept } = shape;
    if (Object.keys(kept).length === 0) return;
    if (this.shapes.size >= MAX_PENDING) this.shapes.delete(this.shapes.keys().next().value as string);
    this.shapes.set(id, kept);
  }

  /** What the turn that follows `previous` carries on: raised caps and the stopped turn's shape once per Continue click, else undefined. */
  continuation(previous: TurnMetadata | undefined): Continuation | undefined {
    const stop = previous?.capStop;
    if (!stop || !this.granted.delete(stop.id)) return undefined;
    const shape = this.shapes.get(stop.id);
    this.shapes.delete(stop.id);
    const factor = typeof stop.factor === 'number' && Number.isFinite(stop.factor) ? Math.max(1, stop.factor) : 1;
    return { factor: factor * CONTINUE_FACTOR, spent: spendOf(stop.spent), shape };
  }
}

/** A spend read back from result metadata (kept by VS Code across reloads, so checked). */
function spendOf(raw: unknown): TurnSpend {
  if (typeof raw !== 'object' || raw === null) return NO_SPEND;
  const r = raw as Record<keyof TurnSpend, unknown>;
  const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);
  return { rounds: n(r.rounds), promptTokens: n(r.promptTokens), cachedTokens: n(r.cachedTokens), completionTokens: n(r.completionTokens), reasoningTokens: n(r.reasoningTokens) };
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
