import { firstHeader } from './headers';
import { parseRateLimitReset } from './retryAfter';
import type { ResponseHeaders } from './types';

/** The informational `X-RateLimit-*-Requests` headers, for the usage view and the throttle. */
export interface RateLimitInfo {
  limitRequests?: number;
  remainingRequests?: number;
  /** When the request budget resets, from `X-RateLimit-Reset-Requests` (Unix time or delta). */
  resetRequestsAt?: Date;
}

// A request budget is a count: digits only, and no larger than any real limit could be.
const MAX_COUNT = 1e9;

function int(headers: ResponseHeaders, name: string): number | undefined {
  const v = firstHeader(headers, name)?.trim();
  if (v === undefined || !/^\d{1,15}$/.test(v)) return undefined;
  const n = Number(v);
  return n <= MAX_COUNT ? n : undefined;
}

export function parseRateLimitHeaders(
  headers: ResponseHeaders,
  now = Date.now(),
): RateLimitInfo | undefined {
  const info: RateLimitInfo = {};
  const limit = int(headers, 'x-ratelimit-limit-requests');
  const remaining = int(headers, 'x-ratelimit-remaining-requests');
  const resetMs = parseRateLimitReset(headers['x-ratelimit-reset-requests'], now);
  if (limit !== undefined) info.limitRequests = limit;
  if (remaining !== undefined) info.remainingRequests = remaining;
  if (resetMs !== undefined) info.resetRequestsAt = new Date(now + resetMs);
  return Object.keys(info).length > 0 ? info : undefined;
}
