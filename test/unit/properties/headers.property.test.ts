import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { MAX_SERVER_WAIT_MS, parseRateLimitReset, parseRetryAfter, serverRetryDelay } from '../../../src/core/http/retryAfter';
import { parseRateLimitHeaders } from '../../../src/core/http/rateLimitHeaders';
import { check, weirdString } from './harness';

const NOW = Date.UTC(2026, 10, 25, 3, 0, 0);

/** Header values as servers, proxies and bugs send them (a header may also repeat). */
const value = fc.oneof(
  weirdString,
  fc.stringMatching(/^[0-9 +\-.eEhms]{0,24}$/),
  fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
  fc.double().map(String),
  fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }).map((d) => d.toUTCString()),
  fc.constantFrom('Wed, 21 Oct 2015 07:28:00 GMT', 'Sunday, 06-Nov-94 08:49:37 GMT', 'Sun Nov  6 08:49:37 1994', 'Thu, 31 Feb 2030 00:00:00 GMT', '6m0s', '1h', '250ms', '1.5s', '1e9', '2000000000', '-1', ''),
);
const header = fc.oneof(value, fc.array(value, { maxLength: 3 }), fc.constant(undefined));

function isWait(ms: number | undefined): boolean {
  return ms === undefined || (Number.isInteger(ms) && ms >= 0 && ms <= MAX_SERVER_WAIT_MS);
}

describe('properties: Retry-After and rate-limit headers', () => {
  it('every wait read from Retry-After or X-RateLimit-Reset-Requests is a whole number of ms within a day, or none', () => {
    check(
      fc.property(header, header, fc.integer({ min: 0, max: 8.64e15 }), (retryAfter, reset, now) => {
        assert.ok(isWait(parseRetryAfter(retryAfter, now)));
        assert.ok(isWait(parseRateLimitReset(reset, now)));
        assert.ok(isWait(serverRetryDelay({ 'retry-after': retryAfter, 'x-ratelimit-reset-requests': reset }, now)));
      }),
      600,
    );
  });

  it('the rate-limit record has whole counts and a real reset date, whatever the headers say', () => {
    check(
      fc.property(header, header, header, (limit, remaining, reset) => {
        const info = parseRateLimitHeaders({ 'x-ratelimit-limit-requests': limit, 'x-ratelimit-remaining-requests': remaining, 'x-ratelimit-reset-requests': reset }, NOW);
        if (!info) return;
        for (const n of [info.limitRequests, info.remainingRequests]) if (n !== undefined) assert.ok(Number.isSafeInteger(n) && n >= 0);
        if (info.resetRequestsAt) assert.ok(Number.isFinite(info.resetRequestsAt.getTime()));
      }),
      400,
    );
  });
});
