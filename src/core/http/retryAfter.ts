import { firstValue } from './headers';

/** Header values as undici reports them. */
export type HeaderValue = string | string[] | undefined;

// Above this a reset value is a Unix time in seconds, below it a delta in seconds (2001-09-09).
const UNIX_TIME_THRESHOLD = 1e9;
const GO_DURATION = /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?$/;

function first(value: HeaderValue): string | undefined {
  const trimmed = firstValue(value)?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * Longest wait any header can ask for: a day. A larger (or absurd, e.g. 26-digit) value is read as
 * this, so a wait is always a finite, displayable number of milliseconds.
 */
export const MAX_SERVER_WAIT_MS = 86_400_000;

/** A wait in ms, range-checked: a whole number in [0, MAX_SERVER_WAIT_MS] (NaN and ±Infinity clamp). */
export function clampWait(ms: number): number {
  if (Number.isNaN(ms)) return MAX_SERVER_WAIT_MS;
  return Math.round(Math.min(MAX_SERVER_WAIT_MS, Math.max(0, ms)));
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY = '(Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
// RFC 9110 section 5.6.7: IMF-fixdate, and the obsolete RFC 850 and asctime forms.
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC_850 = new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
const ASCTIME = new RegExp(`^${DAY} ${MONTH} ( \\d|\\d{2}) ${TIME} (\\d{4})$`);

function utc(year: number, month: string, day: number, h: number, m: number, s: number): number | undefined {
  const mon = MONTHS.indexOf(month);
  if (day < 1 || day > 31 || h > 23 || m > 59 || s > 60) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, mon, day); // not Date.UTC, which reads years 0-99 as 1900-1999
  date.setUTCHours(h, m, Math.min(s, 59), 0);
  // Rejects 31 Feb and friends (which would roll over into the next month).
  return date.getUTCDate() === day ? date.getTime() : undefined;
}

/** An RFC 9110 HTTP-date in ms since the epoch; undefined for anything else (no Date.parse guessing). */
export function parseHttpDate(value: string): number | undefined {
  let m = IMF_FIXDATE.exec(value);
  if (m) return utc(Number(m[4]), m[3] ?? '', Number(m[2]), Number(m[5]), Number(m[6]), Number(m[7]));
  m = RFC_850.exec(value);
  if (m) {
    const yy = Number(m[4]);
    return utc(yy < 70 ? 2000 + yy : 1900 + yy, m[3] ?? '', Number(m[2]), Number(m[5]), Number(m[6]), Number(m[7]));
  }
  m = ASCTIME.exec(value);
  if (m) return utc(Number(m[7]), m[2] ?? '', Number((m[3] ?? '').trim()), Number(m[4]), Number(m[5]), Number(m[6]));
  return undefined;
}

/**
 * `Retry-After` (RFC 9110 section 10.2.3): delta-seconds (digits only) or an HTTP-date. Returns
 * milliseconds to wait, clamped to [0, MAX_SERVER_WAIT_MS]; undefined for anything else.
 */
export function parseRetryAfter(value: HeaderValue, now = Date.now()): number | undefined {
  const v = first(value);
  if (v === undefined) return undefined;
  if (/^\d+$/.test(v)) return clampWait(Number(v) * 1000);
  const date = parseHttpDate(v);
  return date === undefined ? undefined : clampWait(date - now);
}

/**
 * `X-RateLimit-Reset-Requests`. The contract leaves the unit open; production sends a Unix time in
 * seconds, others a delta in seconds, and OpenAI-style servers a duration such as `6m0s` or
 * `250ms`. All three are accepted. Returns milliseconds to wait, clamped to [0, MAX_SERVER_WAIT_MS].
 */
export function parseRateLimitReset(value: HeaderValue, now = Date.now()): number | undefined {
  const v = first(value);
  if (v === undefined) return undefined;
  if (/^\d+(?:\.\d+)?$/.test(v)) {
    const n = Number(v);
    return clampWait(n > UNIX_TIME_THRESHOLD ? n * 1000 - now : n * 1000);
  }
  const m = GO_DURATION.exec(v);
  if (!m || !m.slice(1).some((part) => part !== undefined)) return undefined;
  const [h, min, s, ms] = m.slice(1).map((part) => (part === undefined ? 0 : Number(part)));
  return clampWait(((h ?? 0) * 3600 + (min ?? 0) * 60 + (s ?? 0)) * 1000 + (ms ?? 0));
}

/**
 * How long the server asked us to wait: `Retry-After` wins, then the request-budget reset, but
 * only when that budget is spent (or its remainder is not sent): a 429 that leaves budget was
 * refused for another reason, and the budget's reset (up to an hour away) is not its wait.
 */
export function serverRetryDelay(
  headers: Record<string, HeaderValue>,
  now = Date.now(),
): number | undefined {
  const remaining = first(headers['x-ratelimit-remaining-requests']);
  const budgetLeft = remaining !== undefined && /^\d+$/.test(remaining) && Number(remaining) > 0;
  return (
    parseRetryAfter(headers['retry-after'], now) ??
    (budgetLeft ? undefined : parseRateLimitReset(headers['x-ratelimit-reset-requests'], now))
  );
}
