import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RateLimitError } from '../../../src/core/errors';
import { toApiError } from '../../../src/core/http/apiError';
import { parseRateLimitHeaders } from '../../../src/core/http/rateLimitHeaders';
import { MAX_SERVER_WAIT_MS, parseHttpDate } from '../../../src/core/http/retryAfter';
import { presentError } from '../../../src/core/presentError';
import { fullJitterDelay } from '../../../src/core/http/backoff';
import { parseRateLimitReset, parseRetryAfter, serverRetryDelay } from '../../../src/core/http/retryAfter';

describe('http/retry-after', () => {
  const now = Date.UTC(2030, 0, 1, 12, 0, 0);

  it('reads Retry-After as seconds or as an HTTP date', () => {
    assert.equal(parseRetryAfter('3', now), 3000);
    assert.equal(parseRetryAfter('0.25', now), undefined, 'delta-seconds are digits only (RFC 9110)');
    assert.equal(parseRetryAfter(new Date(now + 90_000).toUTCString(), now), 90_000);
    assert.equal(parseRetryAfter(new Date(now - 5_000).toUTCString(), now), 0);
    assert.equal(parseRetryAfter(undefined, now), undefined);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter(['7', '9'], now), 7000);
  });

  it('reads X-RateLimit-Reset-Requests as a Unix time (> 1e9) or a delta in seconds', () => {
    assert.equal(parseRateLimitReset(String(now / 1000 + 42), now), 42_000);
    assert.equal(parseRateLimitReset(String(now / 1000 - 10), now), 0);
    assert.equal(parseRateLimitReset('42', now), 42_000);
    assert.equal(parseRateLimitReset('0', now), 0);
  });

  it('also accepts duration strings such as 6m0s and 250ms', () => {
    assert.equal(parseRateLimitReset('6m0s', now), 360_000);
    assert.equal(parseRateLimitReset('1.5s', now), 1500);
    assert.equal(parseRateLimitReset('250ms', now), 250);
    assert.equal(parseRateLimitReset('1h', now), 3_600_000);
    assert.equal(parseRateLimitReset('garbage', now), undefined);
  });

  it('prefers Retry-After over the reset header', () => {
    assert.equal(serverRetryDelay({ 'retry-after': '2', 'x-ratelimit-reset-requests': '50' }, now), 2000);
    assert.equal(serverRetryDelay({ 'x-ratelimit-reset-requests': '50' }, now), 50_000);
    assert.equal(serverRetryDelay({}, now), undefined);
  });
});

describe('http/backoff fullJitterDelay', () => {
  it('draws uniformly below min(cap, base * 2^attempt)', () => {
    assert.equal(fullJitterDelay(0, 500, 8000, () => 0.999), 499);
    assert.equal(fullJitterDelay(3, 500, 8000, () => 0.5), 2000);
    assert.equal(fullJitterDelay(10, 500, 8000, () => 0.5), 4000);
    assert.equal(fullJitterDelay(2, 500, 8000, () => 0), 0);
    for (let i = 0; i < 100; i++) {
      const d = fullJitterDelay(2, 100, 8000);
      assert.ok(d >= 0 && d < 400);
    }
  });
});

// Fuzzing finding (issue 24): Retry-After read with Date.parse took "1 2", "-5" and "5 May" for
// dates, "99999 1" for a wait of 3e12 s, and a 26-digit value showed "Retry in NaN s".
describe('http/retry-after: only RFC 9110 forms, a clamped wait, never NaN', () => {
  const now = Date.UTC(2030, 0, 1, 12, 0, 0);
  const shown = (retryAfter: string): string => {
    const error = toApiError({ status: 429, headers: { 'retry-after': retryAfter }, bodyText: '', target: 'GET host/x', secretName: undefined, redact: (t) => t, now });
    assert.ok(error instanceof RateLimitError);
    return `${error.message} ${presentError(error, now).message} ${presentError(error, now).retryAfterSeconds ?? ''}`;
  };

  for (const value of ['1 2', '-5', '5 May', '99999 1', '1.5', '+3', '0x10', '1e3', 'Sun, 06 Nov 1994', '2030-01-01T12:00:10Z']) {
    it(`refuses ${JSON.stringify(value)}`, () => assert.equal(parseRetryAfter(value, now), undefined));
  }

  it('clamps a 26-digit delta to a day, and shows it without NaN', () => {
    assert.equal(parseRetryAfter('12345678901234567890123456', now), MAX_SERVER_WAIT_MS);
    const text = shown('12345678901234567890123456');
    assert.doesNotMatch(text, /NaN|Infinity/);
    assert.match(text, /Retry in 86400 s/);
  });

  it('reads the three HTTP-date forms, and refuses impossible dates', () => {
    assert.equal(parseRetryAfter('Tue, 01 Jan 2030 12:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfter('Tuesday, 01-Jan-30 12:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfter('Tue Jan  1 12:00:30 2030', now), 30_000);
    assert.equal(parseHttpDate('Sun, 31 Feb 2030 00:00:00 GMT'), undefined);
    assert.equal(parseHttpDate('Sun, 01 Jan 2030 24:00:00 GMT'), undefined);
    assert.equal(parseRetryAfter('Sat, 01 Jan 2000 00:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('Fri, 31 Dec 9999 23:59:59 GMT', now), MAX_SERVER_WAIT_MS);
  });

  it('clamps X-RateLimit-Reset-Requests too, and ignores rate-limit counts that are not counts', () => {
    assert.equal(parseRateLimitReset('9'.repeat(26), now), MAX_SERVER_WAIT_MS);
    assert.equal(parseRateLimitReset('99999999h', now), MAX_SERVER_WAIT_MS);
    assert.deepEqual(parseRateLimitHeaders({ 'x-ratelimit-limit-requests': '-5', 'x-ratelimit-remaining-requests': '1e400' }, now), undefined);
  });

  it('property: any header value gives undefined or a whole wait in [0, a day], and nothing shown is NaN', () => {
    const values = fc.oneof(
      fc.string(),
      fc.stringMatching(/^[0-9 +\-.eE]{1,30}$/),
      fc.bigInt({ min: 0n, max: 10n ** 40n }).map(String),
      fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }).map((d) => d.toUTCString()),
    );
    fc.assert(
      fc.property(values, (value) => {
        for (const ms of [parseRetryAfter(value, now), parseRateLimitReset(value, now)]) {
          if (ms !== undefined) assert.ok(Number.isInteger(ms) && ms >= 0 && ms <= MAX_SERVER_WAIT_MS, `${JSON.stringify(value)} -> ${ms}`);
        }
        assert.doesNotMatch(shown(value), /NaN|Infinity|Invalid/);
      }),
      { numRuns: 500 },
    );
  });

  it('property: digits are always a wait (clamped), never a date', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{1,40}$/), (digits) => {
        const ms = parseRetryAfter(digits, now);
        assert.equal(ms, Math.min(MAX_SERVER_WAIT_MS, Number(digits) * 1000));
      }),
    );
  });
});
