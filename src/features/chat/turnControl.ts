import * as vscode from 'vscode';
import type { BetweenRounds, ToolInvoker } from '../../core/agent';
import { applyTodo, type TodoList, type TodoStatus } from '../../core/agent/todoList';
import { escapeMarkdown } from '../../core/markdown';
import { addRound, addUsage, budgetNote, capState, exceedsHourly, leftOf, NO_SPEND, outputPerRound, passesCostCap, requestCeiling, spendTokens, type TurnCaps, type TurnSpend } from '../../core/agent/turnBudget';
import type { ChatMessage, ChatRequest, Usage } from '../../core/inference/chat/types';
import { CONTRACT_EUR_PER_UNIT, eurPerUnit, type EurPerUnit } from '../../core/usage/cost';
import { formatEur, formatInt as fmt } from '../../core/usage/format';
import type { UsageReader } from '../deps';
import { ToolNames } from '../../core/agent/toolNames';

const TODO_ICON: Readonly<Record<TodoStatus, string>> = { pending: '$(circle-large-outline)', 'in-progress': '$(arrow-circle-right)', done: '$(pass-filled)' };

/**
 * Whether compaction changed what is sent beyond the system message (which carries the turn's
 * instructions in every round): a message left out or summarised, or one whose content was shortened.
 */
function compacted(conversation: readonly ChatMessage[], sent: readonly ChatMessage[]): boolean {
  const body = (messages: readonly ChatMessage[]): readonly ChatMessage[] => (messages[0]?.role === 'system' ? messages.slice(1) : messages);
  const before = body(conversation);
  const after = body(sent);
  if (before.length !== after.length) return true;
  return after.some((m, i) => {
    const original = before[i];
    if (m === original) return false;
    return original === undefined || m.role !== original.role || (m.content !== original.content && JSON.stringify(m.content) !== JSON.stringify(original.content));
  });
}

/** Where a turn stopped at its cap: its result metadata, for Continue (the next turn's raised caps). */
export interface CapStop {
  readonly id: string;
  /** The factor the stopped turn's caps were raised by (1: the settings). */
  readonly factor: number;
  /** What the task had spent when it stopped (carried spend included): the continued turn starts from it, so a raised cap is a total. */
  readonly spent?: TurnSpend;
}

/**
 * What one @stratus turn keeps besides the loop: its to-do list (`stratus_todo` calls are answered
 * here, shown as one progress line, pinned to the system message once compaction left messages
 * out) and its spend against the cost caps (running tokens and EUR in the progress, compaction
 * summaries included, a note at 80 %, a stop before a request whose estimate would pass the cost cap
 * and between rounds at either cap, a note when the next round may pass the tier's hourly allowance).
 */
export class TurnControl {
  private spend: TurnSpend = NO_SPEND;
  private warned = false;
  private hourlyWarned = false;
  private lastProgress = '';
  private readonly rates: EurPerUnit;
  /** Set when the turn stopped at its cap. */
  stop: CapStop | undefined;

  constructor(
    private readonly stream: vscode.ChatResponseStream,
    readonly todo: TodoList,
    readonly caps: TurnCaps,
    private readonly factor: number,
    private readonly usage: UsageReader | undefined,
    /** Spent before this turn by the turn it continues (Continue after a stop at the cap): counted against the raised caps. */
    private readonly carried: TurnSpend = NO_SPEND,
  ) {
    this.spend = carried;
    this.rates = usage ? eurPerUnit(usage.currentSettings().cachedInputEurPerMillion) : CONTRACT_EUR_PER_UNIT;
  }

  /** Says, before the first round, what the tier has left and the turn's caps. */
  start(): void {
    const snapshot = this.usage?.snapshot();
    const hour = snapshot ? leftOf(snapshot.hour.used, snapshot.hour.cap) : undefined;
    const day = snapshot ? leftOf(snapshot.day.used, snapshot.day.cap) : undefined;
    const caps = this.caps.maxCostEur === undefined
      ? vscode.l10n.t('Turn cap: {0} tokens', fmt(this.caps.maxTokens))
      : vscode.l10n.t('Turn cap: {0} tokens or {1}', fmt(this.caps.maxTokens), formatEur(this.caps.maxCostEur));
    const left = hour !== undefined && day !== undefined ? ` · ${vscode.l10n.t('{0} output tokens left this hour, {1} today', fmt(hour), fmt(day))}` : '';
    const before = this.carried.rounds > 0 ? ` · ${vscode.l10n.t('{0} tokens used before Continue', fmt(this.carried.promptTokens + this.carried.completionTokens))}` : '';
    this.stream.progress(`${caps}${before}${left}`);
  }

  /** The sentence the model reads about its caps (stable for the turn: the prompt cache holds). */
  get note(): string {
    return budgetNote(this.caps);
  }

  /** Answers `stratus_todo` calls from the turn's list; every other call goes to `invoker`. */
  wrap(invoker: ToolInvoker): ToolInvoker {
    return {
      invoke: async (invocation, signal) => {
        if (invocation.name !== ToolNames.todo) return invoker.invoke(invocation, signal);
        const outcome = applyTodo(this.todo, invocation.input);
        this.showProgress();
        return outcome;
      },
    };
  }

  /** A round's usage: the running count in the progress line. */
  onUsage(usage: Usage): void {
    this.spend = addRound(this.spend, usage);
    this.showProgress();
  }

  /** A compaction summary's usage (or its estimate): counted against the caps, no round of its own. */
  onSummaryUsage(usage: Usage): void {
    this.spend = addUsage(this.spend, usage);
    this.showProgress();
  }

  /**
   * Before each request of the turn, the first included (the loop's rounds and compaction
   * summaries): stop there when what it may cost (requestCeiling) would carry the spend past the
   * cost cap. Checking only after a round was paid let the next one, at least as large, pass it.
   */
  beforeRequest(request: ChatRequest): BetweenRounds {
    const passed = passesCostCap(this.spend, requestCeiling(request), this.caps, this.rates);
    if (!passed) return undefined;
    this.stopAtCap();
    const used = vscode.l10n.t('{0} tokens, {1}', fmt(spendTokens(this.spend)), formatEur(passed.spentEur));
    return { stop: vscode.l10n.t('Stopped before the next request: it may cost up to {0}, which with what this turn used ({1}) would pass its cost cap ({2}). Continue to carry on up to twice that cap in all (what was used so far counts), or stop here.', formatEur(passed.requestEur), used, formatEur(passed.capEur)) };
  }

  /**
   * The messages of a round with the to-do list pinned to the system message when compaction changed
   * the conversation: left earlier messages out, or shortened earlier tool results (the
   * `stratus_todo` results that built the list may be among them). Otherwise the list is in the tool
   * results already, and a system message that changes with each call would void the prompt cache.
   */
  pinTodo(conversation: readonly ChatMessage[], sent: ChatMessage[]): ChatMessage[] {
    const note = this.todo.systemNote();
    const [first, ...rest] = sent;
    if (!note || first?.role !== 'system' || !compacted(conversation, sent)) return sent;
    return [{ role: 'system', content: `${first.content}\n\n${note}` }, ...rest];
  }

  /** Between two rounds: stop at the cap, say so at 80 % and when the next round may pass the hourly allowance. */
  betweenRounds(): BetweenRounds {
    const state = capState(this.spend, this.caps, this.rates);
    const used = vscode.l10n.t('{0} tokens, {1}', fmt(state.tokens), formatEur(state.eur));
    const limit = state.cap === 'cost' && this.caps.maxCostEur !== undefined ? formatEur(this.caps.maxCostEur) : vscode.l10n.t('{0} tokens', fmt(this.caps.maxTokens));
    if (state.level === 'reached') {
      this.stopAtCap();
      return { stop: vscode.l10n.t('Stopped at the cost cap of this turn ({0}): it used {1}. Continue to carry on up to twice that cap in all (what was used so far counts), or stop here.', limit, used) };
    }
    if (state.level === 'warning' && !this.warned) {
      this.warned = true;
      this.stream.markdown(`\n\n> _${vscode.l10n.t('This turn has used {0} % of its cap ({1} of {2}).', Math.floor(state.share * 100), used, limit)}_\n\n`);
    }
    const snapshot = this.usage?.snapshot();
    const hourLeft = snapshot ? leftOf(snapshot.hour.used, snapshot.hour.cap) : undefined;
    if (!this.hourlyWarned && exceedsHourly(this.spend, hourLeft)) {
      this.hourlyWarned = true;
      this.stream.markdown(`\n\n> _${vscode.l10n.t("The next round may pass this hour's allowance of your plan: about {0} output tokens a round, {1} left this hour (resets at {2}).", fmt(outputPerRound(this.spend)), fmt(hourLeft ?? 0), snapshot?.hour.resetsAtLabel ?? '')}_\n\n`);
    }
    return undefined;
  }

  /** The turn stops at its cap: the metadata Continue finds it by. */
  private stopAtCap(): void {
    // The continued turn starts from this spend: the doubled cap is a total for the task, not more on top.
    this.stop = { id: `cap-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`, factor: this.factor, spent: this.spend };
  }

  /** The to-do list once, at the end of the turn (not a list per change). */
  finish(): void {
    if (this.todo.size === 0) return;
    // Titles are the model's words: escaped, so they cannot add links or icons of their own.
    const lines = this.todo.state().map((i) => `${TODO_ICON[i.status]} ${i.id}. ${i.status === 'in-progress' ? `**${escapeMarkdown(i.title)}**` : escapeMarkdown(i.title)}`);
    const text = `\n\n**${vscode.l10n.t('To-do list ({0} of {1} done)', this.todo.done(), this.todo.size)}**\n\n${lines.join('  \n')}\n`;
    this.stream.markdown(new vscode.MarkdownString(text, true));
  }

  /** One progress line, replaced as the turn goes: the current to-do item, tokens and cost so far. */
  private showProgress(): void {
    const parts: string[] = [];
    const item = this.todo.progressLine();
    if (item) parts.push(vscode.l10n.t('To-do {0}', item));
    if (spendTokens(this.spend) > 0) parts.push(vscode.l10n.t('{0} tokens, {1}', fmt(this.spend.promptTokens + this.spend.completionTokens), formatEur(capState(this.spend, this.caps, this.rates).eur)));
    const line = parts.join(' · ');
    if (!line || line === this.lastProgress) return;
    this.lastProgress = line;
    this.stream.progress(line);
  }
}

