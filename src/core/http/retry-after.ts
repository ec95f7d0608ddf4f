/** Header values as undici reports them. */
export type HeaderValue = string | string[] | undefined;

// Above this a reset value is a Unix time in seconds, below it a delta in seconds (2001-09-09).
const UNIX_TIME_THRESHOLD = 1e9;
const GO_DURATION = /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?$/;

function first(value: HeaderValue): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  const trimmed = v?.trim();
  return trimmed ? trimmed : undefined;
}

/** `Retry-After`: delta seconds or an HTTP date. Returns milliseconds to wait (>= 0). */
export function parseRetryAfter(value: HeaderValue, now = Date.now()): number | undefined {
  const v = first(value);
  if (v === undefined) return undefined;
  if (/^\d+(?:\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const date = Date.parse(v);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * `X-RateLimit-Reset-Requests`. The contract leaves the unit open; production sends a Unix time in
 * seconds, others a delta in seconds, and OpenAI-style servers a duration such as `6m0s` or
 * `250ms`. All three are accepted. Returns milliseconds to wait (>= 0).
 */
export function parseRateLimitReset(value: HeaderValue, now = Date.now()): number | undefined {
  const v = first(value);
  if (v === undefined) return undefined;
  if (/^\d+(?:\.\d+)?$/.test(v)) {
    const n = Number(v);
    return n > UNIX_TIME_THRESHOLD ? Math.max(0, Math.round(n * 1000 - now)) : Math.round(n * 1000);
  }
  const m = GO_DURATION.exec(v);
  if (!m || !m.slice(1).some((part) => part !== undefined)) return undefined;
  const [h, min, s, ms] = m.slice(1).map((part) => (part === undefined ? 0 : Number(part)));
  return Math.round(((h ?? 0) * 3600 + (min ?? 0) * 60 + (s ?? 0)) * 1000 + (ms ?? 0));
}

/** How long the server asked us to wait: `Retry-After` wins, then the request-budget reset. */
export function serverRetryDelay(
  headers: Record<string, HeaderValue>,
  now = Date.now(),
): number | undefined {
  return (
    parseRetryAfter(headers['retry-after'], now) ??
    parseRateLimitReset(headers['x-ratelimit-reset-requests'], now)
  );
}
