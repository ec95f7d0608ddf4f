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
}

export const DEFAULT_USAGE_SETTINGS: UsageSettings = { tier: 'tier1', monthlyBudgetEur: undefined, upfrontCreditEur: undefined, waitAtCap: false };

function positiveOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** Validates raw setting values; anything invalid falls back to the default. */
export function parseUsageSettings(raw: { tier?: unknown; monthlyBudget?: unknown; upfrontCredit?: unknown; waitAtCap?: unknown }): UsageSettings {
  return {
    tier: isTierId(raw.tier) ? raw.tier : DEFAULT_USAGE_SETTINGS.tier,
    monthlyBudgetEur: positiveOrUndefined(raw.monthlyBudget),
    upfrontCreditEur: positiveOrUndefined(raw.upfrontCredit),
    waitAtCap: raw.waitAtCap === true,
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
