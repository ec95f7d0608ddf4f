import { CancelledError } from '../../errors';
import { CHARS_PER_TOKEN, estimateTextTokens } from '../../inference/models/tokens';
import type { RerankResult } from '../../inference/rerank/types';
import type { RerankFn } from '../shared/searchTypes';

export type { RerankFn };

export interface RerankPlan {
  model: string;
  /** The rerank model's context (`max_model_len`); query + one document must fit. */
  maxModelLen: number;
  version: 'v1' | 'v2';
  /** How many results are wanted in the end. */
  topN: number;
  /** Documents per request. Default 25. */
  batchSize?: number;
  /** Requests in flight at once (kept low: rate limits). Default 2. */
  concurrency?: number;
  /** Whole-rerank deadline; past it the local order is used. */
  timeoutMs: number;
  /** Schedules the deadline; injectable so tests fire it deterministically. */
  setTimer?: (ms: number, fire: () => void) => () => void;
}

export interface RerankScore {
  /** Index in the submitted documents. */
  index: number;
  score: number;
}

export type RerankOutcome =
  | { ok: true; scores: RerankScore[]; searchUnits: number; requests: number }
  | { ok: false; reason: 'timeout'; timeoutMs: number }
  | { ok: false; reason: 'query_too_long' }
  | { ok: false; reason: 'error'; error: unknown };

/** Tokens kept free for the model's own framing of a (query, document) pair. */
export const PAIR_OVERHEAD_TOKENS = 16;

/**
 * Trims a document so query + document fit `maxModelLen` with the (high-biased) estimate of
 * tokens.ts; undefined when even the query alone does not fit.
 */
export function trimForRerank(query: string, document: string, maxModelLen: number): string | undefined {
  const room = maxModelLen - estimateTextTokens(query) - PAIR_OVERHEAD_TOKENS;
  if (room <= 0) return undefined;
  const maxChars = room * CHARS_PER_TOKEN;
  return document.length <= maxChars ? document : document.slice(0, maxChars);
}

const defaultTimer = (ms: number, fire: () => void): (() => void) => {
  const t = setTimeout(fire, ms);
  return () => clearTimeout(t);
};

/**
 * Reranks documents in parallel batches (each within the model's context, `top_n` per batch =
 * min(topN, batch)) and merges the scores: any document of the overall top N is in its batch's
 * top N, so the merge is exact. Never throws for a service failure or the deadline: the outcome
 * says why; throws CancelledError only when the caller's own signal fired.
 */
export async function rerankDocuments(rerank: RerankFn, query: string, documents: readonly string[], plan: RerankPlan, signal?: AbortSignal): Promise<RerankOutcome> {
  if (signal?.aborted) throw new CancelledError();
  const trimmed: string[] = [];
  for (const d of documents) {
    const t = trimForRerank(query, d, plan.maxModelLen);
    if (t === undefined) return { ok: false, reason: 'query_too_long' };
    trimmed.push(t.trim() === '' ? '(empty)' : t);
  }
  if (trimmed.length === 0) return { ok: true, scores: [], searchUnits: 0, requests: 0 };
  const batchSize = Math.max(1, plan.batchSize ?? 25);
  const batches: Array<{ offset: number; docs: string[] }> = [];
  for (let i = 0; i < trimmed.length; i += batchSize) batches.push({ offset: i, docs: trimmed.slice(i, i + batchSize) });

  const controller = new AbortController();
  let timedOut = false;
  const onAbort = (): void => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const cancelTimer = (plan.setTimer ?? defaultTimer)(plan.timeoutMs, () => {
    timedOut = true;
    controller.abort();
  });
  try {
    const scores: RerankScore[] = [];
    let searchUnits = 0;
    let next = 0;
    let failure: { error: unknown } | undefined;
    const worker = async (): Promise<void> => {
      while (next < batches.length && !failure) {
        const batch = batches[next++];
        if (!batch) return;
        let result: RerankResult;
        try {
          result = await rerank(
            { model: plan.model, query, documents: batch.docs, top_n: Math.min(plan.topN, batch.docs.length), return_documents: false, version: plan.version },
            { signal: controller.signal },
          );
        } catch (error) {
          // The first failure decides; the other batches are stopped.
          failure ??= { error };
          controller.abort();
          return;
        }
        searchUnits += result.searchUnits ?? 0;
        for (const hit of result.results) {
          if (Number.isInteger(hit.index) && hit.index >= 0 && hit.index < batch.docs.length) scores.push({ index: batch.offset + hit.index, score: hit.relevanceScore });
        }
      }
    };
    const workers = Array.from({ length: Math.min(Math.max(1, plan.concurrency ?? 2), batches.length) }, () => worker());
    await Promise.all(workers);
    if (failure) {
      if (signal?.aborted) throw new CancelledError();
      if (timedOut) return { ok: false, reason: 'timeout', timeoutMs: plan.timeoutMs };
      return { ok: false, reason: 'error', error: failure.error };
    }
    scores.sort((a, b) => b.score - a.score || a.index - b.index);
    return { ok: true, scores: scores.slice(0, plan.topN), searchUnits, requests: batches.length };
  } finally {
    cancelTimer();
    signal?.removeEventListener('abort', onAbort);
  }
}
