import { isRecord } from '../json';
import type { UsageEvent } from './events';

/**
 * Range checks for every number the usage store reads from disk (and the meter is handed): a
 * value outside them is set aside, never used. Calendar arithmetic (Intl) throws on dates past
 * ±8.64e15 ms, and an infinite or huge count poisons every sum it enters.
 */

/** Times are Unix ms between 2000-01-01 and 2200-01-01 UTC. */
export const MIN_TIME_MS = Date.UTC(2000, 0, 1);
export const MAX_TIME_MS = Date.UTC(2200, 0, 1);
/** One request's tokens, search units or audio seconds. */
export const MAX_EVENT_COUNT = 1e12;
/** A stored bucket's counter (many requests summed). */
export const MAX_COUNTER = 1e15;

/** Well inside the ±8.64e15 ms that Date and Intl accept: the ledger's last line of defence. */
export const CALENDAR_SAFE_MS = 8e15;

export function isCalendarSafe(ms: number): boolean {
  return ms >= -CALENDAR_SAFE_MS && ms <= CALENDAR_SAFE_MS;
}

export function isTime(v: unknown): v is number {
  return typeof v === 'number' && v >= MIN_TIME_MS && v <= MAX_TIME_MS;
}

/** A finite number in [0, max] (NaN fails every comparison). */
export function isCount(v: unknown, max: number): v is number {
  return typeof v === 'number' && v >= 0 && v <= max;
}

/** A whole number in [0, 2^53 - 2]: a sequence number or version that can still grow by one. */
export function isSerial(v: unknown): v is number {
  return Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) < Number.MAX_SAFE_INTEGER;
}

const INLINE_STATS: ReadonlySet<unknown> = new Set(['requested', 'shown', 'accepted']);

const optional = (v: unknown, check: (x: unknown) => boolean): boolean => v === undefined || check(v);
const count = (v: unknown): boolean => isCount(v, MAX_EVENT_COUNT);

/** A stored or live event whose every field the ledger reads is of the right type and range. */
export function validEvent(v: unknown): v is UsageEvent {
  if (!isRecord(v) || !isTime(v.at)) return false;
  switch (v.kind) {
    case 'rateLimit':
      return optional(v.limitRequests, count) && optional(v.remainingRequests, count) && optional(v.resetAt, isTime);
    case 'chat':
    case 'edit':
    case 'commit':
    case 'nextEdit':
    case 'review':
    case 'completion':
    case 'ocr':
      return typeof v.model === 'string' && count(v.promptTokens) && count(v.completionTokens) && count(v.reasoningTokens) && optional(v.cachedTokens, count);
    case 'embeddings':
      return typeof v.model === 'string' && count(v.promptTokens);
    case 'inlineStat':
      return typeof v.model === 'string' && INLINE_STATS.has(v.stat) && count(v.chars) && count(v.lines);
    case 'rerank':
      return typeof v.model === 'string' && count(v.searchUnits) && count(v.rerankedTokens);
    case 'transcription':
      return typeof v.model === 'string' && count(v.audioSeconds);
    case 'batch':
      return typeof v.model === 'string' && count(v.requests) && count(v.promptTokens) && count(v.completionTokens);
    default:
      return false;
  }
}
