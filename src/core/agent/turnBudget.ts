/**
 * The cost cap of one agent turn: what the turn has spent (tokens and EUR, priced as the usage
 * meter prices them), where it stands against the caps (`stratus.agent.maxTurnTokens`,
 * `stratus.agent.maxTurnCostEur`), whether the next request may carry it past the cost cap, and
 * whether the next round risks the tier's hourly allowance.
 * Pure arithmetic: the chat feature asks before each request and between rounds, and decides what to show.
 */
import type { ChatRequest, Usage } from '../inference/chat/types';
import type { JobCostEstimate } from '../usage/batchCost';
import { CONTRACT_EUR_PER_UNIT, totalCost, type EurPerUnit } from '../usage/cost';
import { emptyCounters } from '../usage/ledger';
import { estimatePrompt } from '../usage/metering';

export interface TurnCaps {
  /** Prompt plus generated tokens of every round of the turn. */
  readonly maxTokens: number;
  /** Undefined: no cost cap (the setting is null), the token cap alone. */
  readonly maxCostEur: number | undefined;
}

/** Far above a normal task (15 rounds of a 128k-token context is about 2 million tokens, 4 EUR). */
export const DEFAULT_TURN_CAPS: TurnCaps = { maxTokens: 5_000_000, maxCostEur: 10 };

/** The share of a cap at which the chat warns. */
export const WARN_SHARE = 0.8;

/** The caps from raw setting values; a missing or invalid value (not a positive number) is its default, a null cost cap none. */
export function parseTurnCaps(raw: { maxTurnTokens?: unknown; maxTurnCostEur?: unknown }): TurnCaps {
  const positive = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);
  return {
    maxTokens: Math.floor(positive(raw.maxTurnTokens) ?? DEFAULT_TURN_CAPS.maxTokens),
    maxCostEur: raw.maxTurnCostEur === null ? undefined : positive(raw.maxTurnCostEur) ?? DEFAULT_TURN_CAPS.maxCostEur,
  };
}

/** Both caps multiplied (Continue after a stop raises the next turn's caps). */
export function raiseCaps(caps: TurnCaps, factor: number): TurnCaps {
  return { maxTokens: Math.round(caps.maxTokens * factor), maxCostEur: caps.maxCostEur === undefined ? undefined : caps.maxCostEur * factor };
}

/** What the turn's rounds reported (`usage` of each response), summed. */
export interface TurnSpend {
  readonly rounds: number;
  readonly promptTokens: number;
  /** Of the prompt tokens, those served from the prompt cache. */
  readonly cachedTokens: number;
  /** Generated tokens, reasoning included (as the service counts them). */
  readonly completionTokens: number;
  /** Of the generated tokens, the reasoning ones. */
  readonly reasoningTokens: number;
}

export const NO_SPEND: TurnSpend = { rounds: 0, promptTokens: 0, cachedTokens: 0, completionTokens: 0, reasoningTokens: 0 };

const count = (n: number | undefined): number => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);

/** The spend after one more round's usage. */
export function addRound(spend: TurnSpend, usage: Usage): TurnSpend {
  return { ...addUsage(spend, usage), rounds: spend.rounds + 1 };
}

/** The spend after usage that is no round of the loop (a compaction summary's request). */
export function addUsage(spend: TurnSpend, usage: Usage): TurnSpend {
  return {
    rounds: spend.rounds,
    promptTokens: spend.promptTokens + count(usage.promptTokens),
    cachedTokens: spend.cachedTokens + Math.min(count(usage.cachedTokens), count(usage.promptTokens)),
    completionTokens: spend.completionTokens + count(usage.completionTokens),
    reasoningTokens: spend.reasoningTokens + Math.min(count(usage.reasoningTokens), count(usage.completionTokens)),
  };
}

export function spendTokens(spend: TurnSpend): number {
  return spend.promptTokens + spend.completionTokens;
}

/** EUR, as the usage meter prices it: cached prompt tokens at their rate, reasoning apart from the rest of the output. */
export function spendEur(spend: TurnSpend, rates: EurPerUnit = CONTRACT_EUR_PER_UNIT): number {
  const c = emptyCounters();
  c.input = spend.promptTokens;
  c.cachedInput = spend.cachedTokens;
  c.output = spend.completionTokens - spend.reasoningTokens;
  c.reasoning = spend.reasoningTokens;
  return totalCost(c, rates);
}

export type CapLevel = 'ok' | 'warning' | 'reached';

export interface CapState {
  readonly level: CapLevel;
  /** The cap nearest to its limit. */
  readonly cap: 'tokens' | 'cost';
  /** Its share used, 0..(above 1 once passed). */
  readonly share: number;
  readonly tokens: number;
  readonly eur: number;
}

/** Where the spend stands: `warning` from 80 % of either cap, `reached` at either cap. */
export function capState(spend: TurnSpend, caps: TurnCaps, rates: EurPerUnit = CONTRACT_EUR_PER_UNIT): CapState {
  const tokens = spendTokens(spend);
  const eur = spendEur(spend, rates);
  const tokenShare = tokens / caps.maxTokens;
  const costShare = caps.maxCostEur === undefined ? 0 : eur / caps.maxCostEur;
  const cap = costShare > tokenShare ? 'cost' : 'tokens';
  const share = Math.max(tokenShare, costShare);
  const level: CapLevel = share >= 1 ? 'reached' : share >= WARN_SHARE ? 'warning' : 'ok';
  return { level, cap, share, tokens, eur };
}

/**
 * The most a request may use, before it is sent: its prompt as the meter estimates it (biased high,
 * none of it assumed served from the prompt cache) and every token of its `max_tokens` generated.
 */
export function requestCeiling(request: ChatRequest): Usage {
  const promptTokens = estimatePrompt(request);
  const completionTokens = typeof request.max_tokens === 'number' && request.max_tokens > 0 ? Math.floor(request.max_tokens) : 0;
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}

/** A request the cost cap refuses: what the turn spent, what the request may cost, the cap. */
export interface CostCapPassed {
  readonly spentEur: number;
  readonly requestEur: number;
  readonly capEur: number;
}

/**
 * Whether sending a request that may use `ceiling` could carry the turn past its cost cap: checked
 * before the request, so the cap holds (a check after a round lets the next one, at least as
 * large, pass it by a whole round). Undefined when it fits, or there is no cost cap.
 */
export function passesCostCap(spend: TurnSpend, ceiling: Usage, caps: TurnCaps, rates: EurPerUnit = CONTRACT_EUR_PER_UNIT): CostCapPassed | undefined {
  if (caps.maxCostEur === undefined) return undefined;
  const spentEur = spendEur(spend, rates);
  const requestEur = spendEur(addUsage(NO_SPEND, ceiling), rates);
  return spentEur + requestEur > caps.maxCostEur ? { spentEur, requestEur, capEur: caps.maxCostEur } : undefined;
}

/** Output tokens (reasoning included) a round of this turn generates on average; 0 before the first. */
export function outputPerRound(spend: TurnSpend): number {
  return spend.rounds === 0 ? 0 : spend.completionTokens / spend.rounds;
}

/**
 * Whether the next round, at the turn's rate so far, would generate more output tokens than the
 * tier has left this hour (`remaining` undefined: the tier has no hourly cap).
 */
export function exceedsHourly(spend: TurnSpend, remaining: number | undefined): boolean {
  if (remaining === undefined || spend.rounds === 0) return false;
  return outputPerRound(spend) > Math.max(0, remaining);
}

/** The allowance left when a turn starts, from the usage meter. */
export interface Allowance {
  /** Output tokens left this hour and today; undefined: the tier has no such cap. */
  readonly hourTokens: number | undefined;
  readonly dayTokens: number | undefined;
  /** EUR left of this month's budget; undefined: no budget. */
  readonly monthEur: number | undefined;
}

/** What is left of a cap (never below 0); undefined when there is no cap. */
export function leftOf(used: number, cap: number | undefined): number | undefined {
  return cap === undefined ? undefined : Math.max(0, cap - used);
}

const int = (n: number): string => Math.max(0, Math.round(n)).toLocaleString('en');

/**
 * The sentence the model reads in its system message: the turn's caps, so it plans its reads to fit.
 * The tier's allowance is not in it: it changes every turn, and a system message that changes
 * every turn would void the prompt cache of the whole conversation (the chat shows it instead).
 */
export function budgetNote(caps: TurnCaps): string {
  const cost = caps.maxCostEur === undefined ? '' : ` or ${caps.maxCostEur.toFixed(2)} EUR`;
  // Short: it is in every request of the turn.
  return `Budget: at most ${int(caps.maxTokens)} tokens${cost} for this task; read only what it needs.`;
}

/** A bulk job the caps refuse: which cap, what the job may use of it (tokens or EUR), the cap. */
export interface JobOverCap {
  readonly cap: 'tokens' | 'cost';
  readonly value: number;
  readonly limit: number;
}

/**
 * A bulk job (a prompt over files, sent now or as a batch) is held to the same caps as an agent
 * turn, as a whole and before anything is sent: its tokens at most (every prompt and every
 * `max_tokens`) and its EUR at most at the price chosen (batch rates for a batch). Undefined: it fits.
 */
export function jobOverCaps(estimate: JobCostEstimate, mode: 'now' | 'batch', caps: TurnCaps): JobOverCap | undefined {
  const tokens = estimate.inputTokens + estimate.outputTokens;
  if (tokens > caps.maxTokens) return { cap: 'tokens', value: tokens, limit: caps.maxTokens };
  const eur = mode === 'batch' ? estimate.batchEur : estimate.standardEur;
  if (caps.maxCostEur !== undefined && eur > caps.maxCostEur) return { cap: 'cost', value: eur, limit: caps.maxCostEur };
  return undefined;
}
