import type { Counters } from './ledger';
import { COST_KINDS, RATES, type CostKind } from './rates';

/** EUR per unit of each kind: the contract's rates, with the user's cached-input rate if set. */
export type EurPerUnit = Readonly<Record<CostKind, number>>;

export const CONTRACT_EUR_PER_UNIT: EurPerUnit = Object.fromEntries(COST_KINDS.map((k) => [k, RATES[k].eurPerUnit])) as Record<CostKind, number>;

/** The rates to bill at; `cachedInputEurPerMillion` undefined: cached prompt tokens at the input rate. */
export function eurPerUnit(cachedInputEurPerMillion: number | undefined): EurPerUnit {
  return cachedInputEurPerMillion === undefined ? CONTRACT_EUR_PER_UNIT : { ...CONTRACT_EUR_PER_UNIT, cachedInput: cachedInputEurPerMillion / 1_000_000 };
}

/** The billed quantity of each kind in a set of counters (tokens, or started audio minutes). */
export function quantities(c: Readonly<Counters>): Record<CostKind, number> {
  // Cached prompt tokens are part of the prompt: billed once, at their own rate.
  const cached = Math.min(c.cachedInput, c.input);
  return {
    input: c.input - cached,
    cachedInput: cached,
    output: c.output,
    reasoning: c.reasoning,
    embeddings: c.embeddings,
    rerank: c.rerankTokens,
    audio: c.audioMinutes,
    batchInput: c.batchInput,
    batchOutput: c.batchOutput,
  };
}

/** EUR by kind. */
export function costByKind(c: Readonly<Counters>, rates: EurPerUnit = CONTRACT_EUR_PER_UNIT): Record<CostKind, number> {
  const q = quantities(c);
  const out = {} as Record<CostKind, number>;
  for (const kind of COST_KINDS) out[kind] = q[kind] * rates[kind];
  return out;
}

export function totalCost(c: Readonly<Counters>, rates: EurPerUnit = CONTRACT_EUR_PER_UNIT): number {
  const byKind = costByKind(c, rates);
  return COST_KINDS.reduce((sum, kind) => sum + byKind[kind], 0);
}
