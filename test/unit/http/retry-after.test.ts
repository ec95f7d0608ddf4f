import assert from 'node:assert/strict';
import { fullJitterDelay } from '../../../src/core/http/backoff';
import { parseRateLimitReset, parseRetryAfter, serverRetryDelay } from '../../../src/core/http/retry-after';

describe('http/retry-after', () => {
  const now = Date.UTC(2030, 0, 1, 12, 0, 0);

  it('reads Retry-After as seconds or as an HTTP date', () => {
    assert.equal(parseRetryAfter('3', now), 3000);
    assert.equal(parseRetryAfter('0.25', now), 250);
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
