import assert from 'node:assert/strict';
import { clampTimeoutSeconds, TIMEOUT_SECONDS_BOUNDS, timeoutsFromSettings } from '../../../src/core/http/timeoutSettings';

describe('timeout settings: clamped to sane bounds', () => {
  it('keeps a value inside the bounds', () => {
    assert.equal(clampTimeoutSeconds(600), 600);
  });
  it('raises a too-short value to the minimum and cuts a too-long one to the maximum', () => {
    assert.equal(clampTimeoutSeconds(1), TIMEOUT_SECONDS_BOUNDS.min);
    assert.equal(clampTimeoutSeconds(1e9), TIMEOUT_SECONDS_BOUNDS.max);
  });
  it('anything that is not a positive number means the default', () => {
    for (const value of [undefined, null, 0, -5, Number.NaN, Number.POSITIVE_INFINITY, '300']) assert.equal(clampTimeoutSeconds(value), undefined, String(value));
  });
  it('maps to the transport: request = time to first byte, idle = silence inside an answer', () => {
    assert.deepEqual(timeoutsFromSettings(300, 1), { firstByteMs: 300_000, idleMs: 5_000 });
    assert.deepEqual(timeoutsFromSettings(undefined, 900), { idleMs: 900_000 });
    assert.deepEqual(timeoutsFromSettings(undefined, undefined), {});
  });
});
