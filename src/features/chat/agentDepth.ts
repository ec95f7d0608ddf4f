import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { StopTurn, type BetweenRounds } from '../../core/agent';
import { compactToFit, MemorySummaryStore, type SendPlan, type SummaryAnswer, type SummaryProblem, type SummaryRequest, type SummaryStore } from '../../core/agent/compaction';
import { ValidationError } from '../../core/errors';
import type { ChatMessage, ChatRequest, Usage } from '../../core/inference/chat/types';
import { estimateUsage } from '../../core/usage/metering';
import type { ModelInfo } from '../../core/inference/models/types';
import type { Deps } from '../deps';
import type { InstructionsService } from '../../services/repositoryInstructions';
import { CapGrants } from './capActions';

/**
 * What makes the @stratus agent turn Copilot-deep: repository instructions in the system message
 * and compaction instead of silent truncation. One `AgentDepth` per participant holds what lives
 * across turns (the instructions cache and its watchers, the summaries of each conversation); a
 * `TurnDepth` per turn runs before every model request of the turn (the loop's `prepareRequest`).
 *
 * Conversation id: VS Code (1.104) gives a participant no stable id of the chat session, and the
 * `ChatContext.history` array is rebuilt for every request. The first turn of a conversation draws a
 * random id and returns it in its result metadata (`conversationId`); every later turn takes it
 * from the newest earlier answer that carries one, so a summary made in one turn is found by the
 * next ones (and two chats that start with the same words never share one). Summaries live in
 * memory: after a window reload a conversation that needs one makes it again, once.
 */

export const SHOW_SUMMARY_COMMAND = 'stratus.chat.showSummary';

/** The conversation id carried by the newest earlier answer, or a new one. */
export function conversationIdOf(context: vscode.ChatContext): string {
  for (let i = context.history.length - 1; i >= 0; i--) {
    const turn = context.history[i];
    if (!(turn instanceof vscode.ChatResponseTurn)) continue;
    const id = (turn.result.metadata as { conversationId?: unknown } | undefined)?.conversationId;
    if (typeof id === 'string' && /^[A-Za-z0-9-]{8,64}$/.test(id)) return id;
  }
  return randomUUID();
}

export class AgentDepth implements vscode.Disposable {
  readonly instructions: InstructionsService;
  readonly summaries: SummaryStore = new MemorySummaryStore();
  /** Conversations already told that repository instructions were not loaded (untrusted). */
  readonly untrustedNoted = new Set<string>();
  /** Continue clicked under a turn stopped at its cost cap: the next turn's raised caps. */
  readonly capGrants = new CapGrants();

  /** The instructions reader is shared (Edit with Instruction uses it too) and owned by the composition root. */
  constructor(deps: Pick<Deps, 'instructions'>) {
    this.instructions = deps.instructions;
  }

  dispose(): void {
    this.untrustedNoted.clear();
  }
}

export interface TurnDepthOptions {
  readonly conversationId: string;
  readonly model: ModelInfo;
  readonly stream: vscode.ChatResponseStream;
  readonly signal: AbortSignal;
  /** The turn's files (attachments); files the tools touch are added with `touched`. */
  readonly contextUris?: readonly vscode.Uri[];
}

export interface RoundBudget {
  readonly toolsTokens: number;
  /** max_tokens of the requests. */
  readonly reserveTokens: number;
}

/** The turn's cost cap as compaction summaries meet it (TurnControl's). */
export interface SummaryCosts {
  /** Before a summary request: a stop sentence ends the turn there (at its cost cap). */
  before(request: ChatRequest): BetweenRounds;
  /** After it: its usage, or an estimate when the server sent none. */
  spent(usage: Usage): void;
}

const fmt = (n: number): string => n.toLocaleString('en');
/** The least room for an answer a request is sent with (its max_tokens). */
const MIN_ANSWER_TOKENS = 512;

export class TurnDepth {
  private readonly context: vscode.Uri[] = [];
  private section: { key: string; text: string } | undefined;
  private readonly referenced = new Set<string>();
  private readonly cutsShown = new Set<string>();
  private summaryShown: string | undefined;
  /** Summaries made during this turn (for `/compact`'s note). */
  made = 0;
  /** A summary answer of this turn was no summary (cut or empty): the user was told, once. */
  summaryFailed = false;
  private elidedLogged = 0;
  /** Set by the @stratus turn: summary requests count against its cost cap like its rounds. */
  summaryCosts: SummaryCosts | undefined;
  private skills = false;

  constructor(
    private readonly deps: Pick<Deps, 'inference' | 'logger'>,
    private readonly depth: AgentDepth | undefined,
    readonly options: TurnDepthOptions,
    private readonly store: SummaryStore = depth?.summaries ?? new MemorySummaryStore(),
  ) {
    this.context.push(...(options.contextUris ?? []));
  }

  get conversationId(): string {
    return this.options.conversationId;
  }

  private get maxModelLen(): number {
    return this.options.model.maxModelLen ?? 32_768;
  }

  /** A file the tools read or changed joins the turn's context (its AGENTS.md, applyTo files). */
  touched(uri: vscode.Uri): void {
    if (!this.context.some((u) => u.toString() === uri.toString())) this.context.push(uri);
  }

  /** Whether the turn offers stratus_readSkill: only then are the skills listed (the list tells the model to call it). */
  offerSkills(offered: boolean): void {
    this.skills = offered;
  }

  /** The system message (the first) with the instructions of the turn's files appended. */
  async withInstructions(messages: readonly ChatMessage[]): Promise<ChatMessage[]> {
    const text = await this.instructionsText();
    const [first, ...rest] = messages;
    if (text === '') return [...messages];
    if (first?.role === 'system') return [{ role: 'system', content: `${first.content}\n\n${text}` }, ...rest];
    return [{ role: 'system', content: text }, ...messages];
  }

  private async instructionsText(): Promise<string> {
    if (!this.depth) return '';
    const key = `${this.skills ? 'skills' : 'none'}\n${this.context.map((u) => u.toString()).sort().join('\n')}`;
    if (this.section?.key === key) return this.section.text;
    const loaded = await this.depth.instructions.load(this.context, this.maxModelLen, { skills: this.skills });
    const { stream } = this.options;
    if (loaded) {
      for (const uri of loaded.used) {
        if (this.referenced.has(uri.toString())) continue;
        this.referenced.add(uri.toString());
        stream.reference(uri);
      }
      const newCuts = loaded.cuts.filter((c) => !this.cutsShown.has(c));
      for (const c of newCuts) this.cutsShown.add(c);
      if (newCuts.length > 0) stream.markdown(`> _${vscode.l10n.t('Instructions cut to fit the model\'s context: {0}', newCuts.join(' '))}_\n\n`);
      if (loaded.untrustedSkipped && !this.depth.untrustedNoted.has(this.conversationId)) {
        this.depth.untrustedNoted.add(this.conversationId);
        stream.markdown(`> _${vscode.l10n.t("This workspace's repository instructions (AGENTS.md, .github/copilot-instructions.md), skills, prompt files and custom agents were not read: it is not trusted.")}_\n\n`);
      }
    }
    this.section = { key, text: loaded?.text ?? '' };
    return this.section.text;
  }

  /**
   * The messages to send for one round: instructions refreshed, then compacted to fit the model's
   * context (one summary request when needed, stored for the conversation and reused after).
   */
  async prepare(conversation: readonly ChatMessage[], budget: RoundBudget, force = false): Promise<{ messages: ChatMessage[]; maxTokens: number }> {
    const messages = await this.withInstructions(conversation);
    const compactionBudget = { maxModelLen: this.maxModelLen, toolsTokens: budget.toolsTokens, reserveTokens: budget.reserveTokens };
    const outcome = await compactToFit(messages, compactionBudget, { store: this.store, conversationId: this.conversationId, summarise: (request) => this.summarise(request) }, { force, minReserveTokens: MIN_ANSWER_TOKENS });
    switch (outcome.kind) {
      case 'send': {
        const { plan } = outcome;
        this.made += outcome.summariesMade;
        this.noteSummary(plan);
        if (outcome.summaryFailed) this.noteSummaryFailed(outcome.summaryFailed, plan);
        if (plan.cutResults > 0) this.deps.logger.info(`Cut ${plan.cutResults} tool result(s) of the latest round to fit ${this.options.model.id}'s context.`);
        if (plan.elidedResults > 0 && plan.elidedResults !== this.elidedLogged) {
          this.elidedLogged = plan.elidedResults;
          this.deps.logger.info(`Shortened ${plan.elidedResults} earlier tool result(s) to fit ${this.options.model.id}'s context (no summary needed).`);
        }
        return { messages: plan.messages, maxTokens: outcome.maxTokens };
      }
      case 'too-large':
        // What is never summarised (system message, instructions, summary, the user's message, the
        // latest round) does not fit even beside the least room for an answer.
        throw new ValidationError(
          vscode.l10n.t("Too long for {0}: the request needs about {1} tokens; the model's context allows {2}. Attach less, or pick a model with a longer context.", this.options.model.id, fmt(outcome.promptTokens), fmt(outcome.limit)),
          'messages',
        );
      case 'no-progress':
        throw new ValidationError(vscode.l10n.t('The conversation could not be summarised to fit the context of {0}.', this.options.model.id), 'messages');
    }
  }

  /**
   * One summary request (the planner's), answered by the turn's model, within the turn's cost cap:
   * one that would pass it ends the turn before it is sent (`StopTurn`, the loop's stop), and what
   * it used is counted.
   */
  private async summarise(request: SummaryRequest): Promise<SummaryAnswer> {
    const chat: ChatRequest = { model: this.options.model.id, messages: request.messages, max_tokens: request.maxTokens };
    const decision = this.summaryCosts?.before(chat);
    if (decision) throw new StopTurn(decision.stop);
    this.options.stream.progress(vscode.l10n.t('Summarising earlier messages…'));
    const answer = await this.deps.inference.client().chat(chat, { signal: this.options.signal });
    this.summaryCosts?.spent(answer.usage ?? estimateUsage(chat, answer));
    return answer;
  }

  /** A summary answer was cut or empty: not kept, and the request went out without it. Said once per turn. */
  private noteSummaryFailed(problem: SummaryProblem, plan: SendPlan): void {
    const leftOut = plan.leftOutMessages ?? 0;
    this.deps.logger.warn(`The summary of earlier messages from ${this.options.model.id} was ${problem === 'cut' ? 'cut off' : 'empty'}: not kept; ${leftOut} message(s) left out, ${plan.elidedResults} tool result(s) shortened.`);
    if (this.summaryFailed) return;
    this.summaryFailed = true;
    const why = problem === 'cut'
      ? vscode.l10n.t("Could not summarise earlier messages: the model's summary was cut off. It was not kept.")
      : vscode.l10n.t('Could not summarise earlier messages: the model returned an empty summary. It was not kept.');
    const instead = leftOut > 0
      ? vscode.l10n.t("{0} earlier messages were left out of this request to fit the model's context; older tool results were shortened.", fmt(leftOut))
      : vscode.l10n.t("Older tool results were shortened to fit the model's context instead.");
    this.options.stream.markdown(`\n\n> _${why} ${instead}_\n\n`);
  }

  /** "Summarised N earlier messages", once per summary shown in this turn, with a button that opens it. */
  private noteSummary(plan: SendPlan): void {
    if (plan.summarisedMessages === 0 || plan.summary === undefined || plan.summary === this.summaryShown) return;
    this.summaryShown = plan.summary;
    const { stream } = this.options;
    stream.markdown(`\n\n> _${vscode.l10n.t("Summarised {0} earlier messages to fit the model's context.", fmt(plan.summarisedMessages))}_\n\n`);
    stream.button({ command: SHOW_SUMMARY_COMMAND, title: vscode.l10n.t('Show summary'), arguments: [plan.summary, plan.summarisedMessages] });
  }
}

/** Opens a summary in an untitled Markdown document (the note's button). */
export async function showSummary(summary: unknown, count: unknown): Promise<void> {
  if (typeof summary !== 'string') return;
  const n = typeof count === 'number' && Number.isFinite(count) ? count : 0;
  const content = `# ${vscode.l10n.t('Summary of {0} earlier messages', fmt(n))}\n\n${summary}\n`;
  const document = await vscode.workspace.openTextDocument({ language: 'markdown', content });
  await vscode.window.showTextDocument(document, { preview: true });
}
