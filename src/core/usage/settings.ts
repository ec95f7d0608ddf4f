import { isTierId, TIERS, type Tier, type TierId } from './rates';

/** The user's `stratus.usage.*` settings, as the core needs them. */
export interface UsageSettings {
  tier: TierId;
  /** EUR per calendar month; undefined: the tier's monthly limit. */
  monthlyBudgetEur: number | undefined;
  /** EUR bought upfront; undefined: the tier's credit. */
  upfrontCreditEur: number | undefined;
  /** At a cap: wait until it resets (true) or fail at once (false). */
  waitAtCap: boolean;
  /** EUR per million cached prompt tokens; undefined: the input rate. */
  cachedInputEurPerMillion: number | undefined;
}

export const DEFAULT_USAGE_SETTINGS: UsageSettings = { tier: 'tier1', monthlyBudgetEur: undefined, upfrontCreditEur: undefined, waitAtCap: false, cachedInputEurPerMillion: undefined };

function positiveOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** Validates raw setting values; anything invalid falls back to the default. */
/** Far above any real per-million price: a larger value is a typo, not a rate. */
export const MAX_RATE_EUR_PER_MILLION = 1_000;

/** A rate in [0, MAX_RATE_EUR_PER_MILLION] (0: the cache is free), else undefined. */
function rateOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_RATE_EUR_PER_MILLION ? value : undefined;
}

export function parseUsageSettings(raw: { tier?: unknown; monthlyBudget?: unknown; upfrontCredit?: unknown; waitAtCap?: unknown; cachedInputRate?: unknown }): UsageSettings {
  return {
    tier: isTierId(raw.tier) ? raw.tier : DEFAULT_USAGE_SETTINGS.tier,
    monthlyBudgetEur: positiveOrUndefined(raw.monthlyBudget),
    upfrontCreditEur: positiveOrUndefined(raw.upfrontCredit),
    waitAtCap: raw.waitAtCap === true,
    cachedInputEurPerMillion: rateOrUndefined(raw.cachedInputRate),
  };
}

export function tierOf(settings: UsageSettings): Tier {
  return TIERS[settings.tier];
}

export function budgetOf(settings: UsageSettings): number | undefined {
  return settings.monthlyBudgetEur ?? tierOf(settings).monthlyLimitEur;
}

export function creditOf(settings: UsageSettings): number | undefined {
  return settings.upfrontCreditEur ?? tierOf(settings).upfrontCreditEur;
}
