import * as assert from 'node:assert/strict';
import { ApiError, AuthError, CancelledError, ForbiddenError, NetworkError, NotFoundError, RateLimitError, UsageCapError } from '../../../src/core/errors';
import { ERROR_BASE_MS, ERROR_MAX_MS, SLOW_DEBOUNCE_FACTOR, TierBackoff, usageState } from '../../../src/core/inlineCompletion/backoff';
import { UsageMeter } from '../../../src/core/usage/meter';
import { parseUsageSettings } from '../../../src/core/usage/settings';

const NOW = Date.parse('2026-04-14T10:20:00Z');
const HOUR_END = Date.parse('2026-04-14T11:00:00Z');

function meterWith(tokens: number): UsageMeter {
  const settings = parseUsageSettings({ tier: 'tier1' });
  const meter = new UsageMeter({ timeZone: 'UTC', settings: () => settings, now: () => NOW });
  if (tokens > 0) meter.record({ kind: 'chat', at: NOW, model: 'm', promptTokens: 0, completionTokens: tokens, reasoningTokens: 0, estimated: false });
  return meter;
}

describe('core/inlineCompletion TierBackoff', () => {
  it('moves normal -> slow -> single-line -> paused as the tier projection nears the hourly cap (150 000)', () => {
    assert.deepEqual(usageState(meterWith(0).snapshot(), NOW), { kind: 'normal' });
    assert.deepEqual(usageState(meterWith(1_000).snapshot(), NOW), { kind: 'normal' }, 'at this pace the cap is not reached this hour');
    assert.deepEqual(usageState(meterWith(100_000).snapshot(), NOW), { kind: 'slow', reason: 'tierForecast' }, 'reached at 10:50 at this pace');
    assert.deepEqual(usageState(meterWith(125_000).snapshot(), NOW), { kind: 'singleLine', reason: 'tierForecast' }, 'reached within 15 minutes');
    assert.deepEqual(usageState(meterWith(140_000).snapshot(), NOW), { kind: 'singleLine', reason: 'tierNearCap' });
    assert.deepEqual(usageState(meterWith(149_500).snapshot(), NOW), { kind: 'paused', reason: 'tierCap', window: 'hour', resumesAt: HOUR_END }, 'less than one chat answer left: chat keeps it');
  });

  it('turns the state into an admission: debounce, single-line only, or no request', () => {
    const backoff = new TierBackoff(100);
    assert.deepEqual(backoff.admit(NOW), { allowed: true, debounceMs: 100, singleLineOnly: false, state: { kind: 'normal' } });
    backoff.observeUsage(meterWith(100_000).snapshot(), NOW);
    assert.equal(backoff.admit(NOW).debounceMs, 100 * SLOW_DEBOUNCE_FACTOR);
    backoff.observeUsage(meterWith(140_000).snapshot(), NOW);
    assert.equal(backoff.admit(NOW).singleLineOnly, true);
    backoff.observeUsage(meterWith(149_500).snapshot(), NOW);
    assert.equal(backoff.admit(NOW).allowed, false);
    assert.equal(backoff.admit(HOUR_END).allowed, true, 'resumes when the window resets');
  });

  it('backs off silently with a growing delay on 429 and network errors: never a 429 loop', () => {
    const backoff = new TierBackoff();
    const rateLimited = new RateLimitError({ status: 429, message: 'slow down' });
    let now = NOW;
    const waits: number[] = [];
    for (let k = 0; k < 10; k++) {
      assert.deepEqual(backoff.observeError(k % 2 ? rateLimited : new NetworkError('reset', 'ECONNRESET'), now), { notify: false });
      const state = backoff.admit(now).state;
      assert.equal(state.kind, 'paused');
      assert.equal(backoff.admit(now).allowed, false);
      if (state.kind === 'paused') {
        waits.push(state.resumesAt - now);
        assert.equal(backoff.admit(state.resumesAt - 1).allowed, false);
        now = state.resumesAt;
      }
      assert.equal(backoff.admit(now).allowed, true, 'one probe after the wait');
    }
    assert.deepEqual(waits.slice(0, 4), [ERROR_BASE_MS, 2 * ERROR_BASE_MS, 4 * ERROR_BASE_MS, 8 * ERROR_BASE_MS]);
    assert.equal(waits[9], ERROR_MAX_MS);
    backoff.observeSuccess();
    backoff.observeError(rateLimited, now);
    const after = backoff.admit(now).state;
    assert.ok(after.kind === 'paused' && after.resumesAt - now === ERROR_BASE_MS, 'a success starts the delay over');
  });

  it('honours the server\'s Retry-After when it is longer', () => {
    const backoff = new TierBackoff();
    backoff.observeError(new RateLimitError({ status: 429, message: 'x', retryAfterMs: 60_000 }, { now: NOW }), NOW);
    const state = backoff.admit(NOW).state;
    assert.deepEqual(state, { kind: 'paused', reason: 'rateLimited', resumesAt: NOW + 60_000 });
    backoff.observeError(new ApiError({ status: 503, message: 'busy' }), NOW);
    assert.equal(backoff.admit(NOW).state.kind, 'paused');
  });

  it('stops on 401/403/400 with one reason and one notification, until reset', () => {
    const backoff = new TierBackoff();
    assert.deepEqual(backoff.observeError(new AuthError('The inference API key was rejected.', { reason: 'rejected', status: 401 }), NOW), { notify: true });
    assert.deepEqual(backoff.observeError(new AuthError('again', { reason: 'rejected', status: 401 }), NOW), { notify: false }, 'not one toast per keystroke');
    assert.deepEqual(backoff.observeError(new RateLimitError({ status: 429, message: 'x' }), NOW), { notify: false });
    const state = backoff.admit(NOW + 86_400_000);
    assert.equal(state.allowed, false);
    assert.equal(state.state.kind, 'stopped');
    backoff.observeSuccess();
    assert.equal(backoff.admit(NOW).allowed, false, 'a stray success does not undo a stop');
    backoff.reset();
    assert.equal(backoff.admit(NOW).allowed, true);
    assert.deepEqual(backoff.observeError(new ForbiddenError({ status: 403, message: 'no' }), NOW), { notify: true });
    assert.deepEqual(backoff.admit(NOW).state, { kind: 'stopped', reason: 'forbidden', message: 'no' });
    backoff.reset();
    backoff.observeError(new ApiError({ status: 400, message: 'bad', param: 'max_tokens' }), NOW);
    assert.deepEqual(backoff.admit(NOW).state, { kind: 'stopped', reason: 'badRequest', message: 'bad' });
    backoff.reset();
    backoff.observeError(new NotFoundError({ status: 404, message: 'gone', code: 'model_not_found' }), NOW);
    assert.equal(backoff.admit(NOW).state.kind, 'stopped');
  });

  it('ignores cancellations and pauses until a client-side cap resets', () => {
    const backoff = new TierBackoff();
    assert.deepEqual(backoff.observeError(new CancelledError(), NOW), { notify: false });
    assert.equal(backoff.admit(NOW).allowed, true);
    backoff.observeError(new UsageCapError('cap', 'day', 10, 10, new Date(NOW + 3_600_000), '11:20'), NOW);
    assert.deepEqual(backoff.admit(NOW).state, { kind: 'paused', reason: 'tierCap', window: 'day', resumesAt: NOW + 3_600_000 });
  });
});
