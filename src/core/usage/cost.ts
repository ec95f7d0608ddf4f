import type { Counters } from './ledger';
import { COST_KINDS, RATES, type CostKind } from './rates';

/** The billed quantity of each kind in a set of counters (tokens, or started audio minutes). */
export function quantities(c: Readonly<Counters>): Record<CostKind, number> {
  return {
    input: c.input,
    output: c.output,
    reasoning: c.reasoning,
    embeddings: c.embeddings,
    rerank: c.rerankTokens,
    audio: c.audioMinutes,
  };
}

/** EUR by kind. */
export function costByKind(c: Readonly<Counters>): Record<CostKind, number> {
  const q = quantities(c);
  const out = {} as Record<CostKind, number>;
  for (const kind of COST_KINDS) out[kind] = q[kind] * RATES[kind].eurPerUnit;
  return out;
}

export function totalCost(c: Readonly<Counters>): number {
  const byKind = costByKind(c);
  return COST_KINDS.reduce((sum, kind) => sum + byKind[kind], 0);
}
