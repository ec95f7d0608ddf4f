import * as assert from 'node:assert/strict';
import FakeTimers from '@sinonjs/fake-timers';
import fc from 'fast-check';
import { ValidationError } from '../../../src/core/errors';
import { MAX_SERVER_WAIT_MS } from '../../../src/core/http/retryAfter';
import { HttpTransport } from '../../../src/core/http/transport';
import { joinUrl, parseBaseUrl } from '../../../src/core/http/url';
import { isTierId } from '../../../src/core/usage/rates';
import { parseUsageSettings } from '../../../src/core/usage/settings';
import { assertTyped, check, checkAsync, weirdJson, weirdNumber, weirdString } from './harness';

// Setting values as a hand-edited settings.json can hold them: not URLs, negative or huge
// limits, wrong types. Each is refused with a ValidationError naming the setting, or replaced
// by the default; none crashes or makes a request wait without end.

const urlish = fc.oneof(
  weirdString,
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.constantFrom('https://api.example.test/v1/', 'http://localhost:8787', 'ftp://h/x', 'file:///etc/passwd', 'javascript:alert(1)', 'https://user:pw@h.test', 'https://', '//h.test', 'h.test/v1', 'https://[::1]:8443/v1', ' https://h.test ', 'https://h.test:99999', 'http://127.0.0.1:0/', 'https://%zz'),
);

describe('properties: settings values', function () {
  this.timeout(60_000);

  it('a base URL setting is an http(s) URL without credentials, or a ValidationError naming the setting', () => {
    check(
      fc.property(urlish, (value) => {
        let url: URL;
        try {
          url = parseBaseUrl(value, 'stratus.inference.baseUrl');
        } catch (error) {
          assertTyped(error);
          assert.ok(error instanceof ValidationError && error.param === 'stratus.inference.baseUrl');
          return;
        }
        assert.ok(url.protocol === 'https:' || url.protocol === 'http:');
        assert.equal(url.username + url.password, '');
        for (const path of ['/v1/chat/completions', '/v2/rerank', '/api/iam/v2/auth/personal_access_token']) {
          assert.ok(joinUrl(url, path).startsWith(url.origin), 'a joined URL never leaves the configured origin');
        }
      }),
      500,
    );
  });

  it('usage settings of any type fall back to a known tier and a positive budget or none', () => {
    check(
      fc.property(weirdJson, weirdJson, weirdJson, weirdJson, (tier, monthlyBudget, upfrontCredit, waitAtCap) => {
        const s = parseUsageSettings({ tier, monthlyBudget, upfrontCredit, waitAtCap });
        assert.ok(isTierId(s.tier));
        for (const v of [s.monthlyBudgetEur, s.upfrontCreditEur]) if (v !== undefined) assert.ok(Number.isFinite(v) && v > 0);
        assert.equal(typeof s.waitAtCap, 'boolean');
      }),
      300,
    );
  });

  it('retry and timeout options of any value (NaN, negative, huge, strings): a 429 asking for a day is never slept through beyond the cap, and attempts stay bounded', async () => {
    const option = fc.oneof(weirdNumber, fc.constantFrom(Number.NaN, Infinity, -Infinity), weirdString, fc.constant(undefined)) as fc.Arbitrary<number>;
    await checkAsync(
      fc.asyncProperty(option, option, option, option, option, fc.constantFrom('86400', '5', 'Wed, 21 Oct 2099 07:28:00 GMT'), async (attempts, baseDelayMs, maxDelayMs, maxWaitMs, firstByteMs, retryAfter) => {
        const clock = FakeTimers.withGlobal(globalThis).install({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: Date.UTC(2026, 10, 25) });
        let calls = 0;
        try {
          const transport = new HttpTransport({
            baseUrl: 'https://api.example.test/v1',
            retry: { attempts, baseDelayMs, maxDelayMs, maxWaitMs },
            timeouts: { firstByteMs },
            random: () => 0.5,
            fetch: () => {
              calls++;
              return Promise.resolve(new Response('{"error":{"message":"slow down"}}', { status: 429, headers: { 'retry-after': retryAfter } }));
            },
          });
          const outcome = transport.request({ method: 'GET', path: '/v1/models' }).then(
            () => undefined,
            (error: unknown) => error,
          );
          // Bounded by construction: at most 5 attempts, each wait at most the cap; run the clock
          // step by step and count the steps rather than trusting it to stop.
          let steps = 0;
          let settled = false;
          void outcome.then(() => (settled = true));
          while (!settled) {
            assert.ok(++steps <= 20, 'the request settles within 20 timer steps');
            await clock.nextAsync();
          }
          const error = await outcome;
          assertTyped(error);
          assert.ok(calls >= 1 && calls <= 5, `${calls} attempts`);
          assert.ok(clock.now - Date.UTC(2026, 10, 25) <= 4 * MAX_SERVER_WAIT_MS, 'never waits beyond the capped server waits');
          if (typeof maxWaitMs !== 'number' || Number.isNaN(maxWaitMs)) {
            // An unusable cap is the default (20 s): a day-long Retry-After is not slept through.
            assert.ok(clock.now - Date.UTC(2026, 10, 25) <= 3 * 20_000, `slept ${clock.now - Date.UTC(2026, 10, 25)} ms with maxWaitMs ${String(maxWaitMs)}`);
          }
        } finally {
          clock.uninstall();
        }
      }),
      150,
    );
  });
});
