/**
 * The contract's "Limits" tables as data: tiers (caps, credit, budget) and the consumption rates.
 * Rates are EUR per unit; a million tokens is the billing unit for tokens.
 */

export type TierId = 'tier1' | 'tier2' | 'tier3' | 'tier4' | 'monthly';

export interface Tier {
  readonly id: TierId;
  readonly name: string;
  readonly label: string;
  /** Upfront credit bought with the tier, EUR; undefined for monthly billing. */
  readonly upfrontCreditEur: number | undefined;
  /** Monthly budget cap, EUR; undefined: unlimited. */
  readonly monthlyLimitEur: number | undefined;
  /** Output tokens per hour; undefined: no fixed cap ("high priority"). */
  readonly outputTokensPerHour: number | undefined;
  readonly outputTokensPerDay: number | undefined;
}

export const TIERS: Readonly<Record<TierId, Tier>> = {
  tier1: { id: 'tier1', name: 'Tier 1', label: 'standard use', upfrontCreditEur: 200, monthlyLimitEur: 1_000, outputTokensPerHour: 150_000, outputTokensPerDay: 3_600_000 },
  tier2: { id: 'tier2', name: 'Tier 2', label: 'professional', upfrontCreditEur: 500, monthlyLimitEur: 3_000, outputTokensPerHour: 300_000, outputTokensPerDay: 7_200_000 },
  tier3: { id: 'tier3', name: 'Tier 3', label: 'high volume', upfrontCreditEur: 1_000, monthlyLimitEur: 5_000, outputTokensPerHour: 450_000, outputTokensPerDay: 10_800_000 },
  tier4: { id: 'tier4', name: 'Tier 4', label: 'enterprise', upfrontCreditEur: 4_000, monthlyLimitEur: 10_000, outputTokensPerHour: 600_000, outputTokensPerDay: 14_400_000 },
  monthly: { id: 'monthly', name: 'Monthly billing', label: 'arranged with sales', upfrontCreditEur: undefined, monthlyLimitEur: undefined, outputTokensPerHour: undefined, outputTokensPerDay: undefined },
};

export function isTierId(value: unknown): value is TierId {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(TIERS, value);
}

/** What is billed, and at which rate (EUR per unit). */
export type CostKind = 'input' | 'cachedInput' | 'output' | 'reasoning' | 'embeddings' | 'rerank' | 'audio' | 'batchInput' | 'batchOutput';

export const COST_KINDS: readonly CostKind[] = ['input', 'cachedInput', 'output', 'reasoning', 'embeddings', 'rerank', 'audio', 'batchInput', 'batchOutput'];

/** The batch kinds and the standard kind each halves (the money a batch saved is priced against it). */
export const BATCH_KINDS = { batchInput: 'input', batchOutput: 'output' } as const satisfies Partial<Record<CostKind, CostKind>>;

const perMillion = (eur: number): number => eur / 1_000_000;

/**
 * EUR per unit. Embeddings have no line of their own in the contract: their tokens are input
 * tokens and billed at the input rate. Audio is per started minute.
 */
export const RATES: Readonly<Record<CostKind, { readonly eurPerUnit: number; readonly unit: 'token' | 'minute'; readonly label: string }>> = {
  input: { eurPerUnit: perMillion(1.8), unit: 'token', label: 'Input tokens' },
  // The contract prices no prompt cache: cached prompt tokens cost the input rate unless the
  // user's agreement gives them their own (stratus.usage.cachedInputRate).
  cachedInput: { eurPerUnit: perMillion(1.8), unit: 'token', label: 'Cached input tokens' },
  output: { eurPerUnit: perMillion(8), unit: 'token', label: 'Output tokens' },
  reasoning: { eurPerUnit: perMillion(8), unit: 'token', label: 'Reasoning tokens' },
  embeddings: { eurPerUnit: perMillion(1.8), unit: 'token', label: 'Embedding tokens (input rate)' },
  rerank: { eurPerUnit: perMillion(4), unit: 'token', label: 'Reranked tokens' },
  audio: { eurPerUnit: 0.01, unit: 'minute', label: 'Audio minutes' },
  // The contract's "Asynchronous batch input / output" lines: half the standard rate.
  batchInput: { eurPerUnit: perMillion(0.9), unit: 'token', label: 'Batch input tokens (half price)' },
  batchOutput: { eurPerUnit: perMillion(4), unit: 'token', label: 'Batch output tokens (half price)' },
};

/** Server default `max_tokens` (the contract's "Other constants"). */
export const DEFAULT_MAX_TOKENS = 1024;
