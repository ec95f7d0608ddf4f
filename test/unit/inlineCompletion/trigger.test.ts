import * as assert from 'node:assert/strict';
import { isPausePoint, MAX_ADAPTIVE_MS, PAUSE_GAP_MS, RHYTHM_MIN_SAMPLES, TriggerPolicy } from '../../../src/core/inlineCompletion/trigger';

/** Feeds keystrokes at the given gaps (ms), starting at t = 0; returns the time of the last one. */
function type(policy: TriggerPolicy, gaps: readonly number[]): number {
  let t = 0;
  policy.observeKeystroke(t);
  for (const gap of gaps) policy.observeKeystroke((t += gap));
  return t;
}

describe('core/inlineCompletion TriggerPolicy', () => {
  it('knows where people pause: a new line, an opener, after `= `, `: `, `, `, `=> `, `return `', () => {
    for (const prefix of ['', 'a\n', 'if (x) {\n    ', 'call(', 'const xs = [', 'function f() {', 'const x = ', 'key: ', 'f(a, ', 'xs.map((x) => ', 'return ', '\t']) {
      assert.equal(isPausePoint(prefix), true, JSON.stringify(prefix));
    }
    for (const prefix of ['const x', 'foo.ba', 'const x =', 'a, b', 'x = y + ', 'returned ', 'obj.', 'f(a)']) {
      assert.equal(isPausePoint(prefix), false, JSON.stringify(prefix));
    }
  });

  it('fires at once at a pause point, waits the base debounce while the rhythm is unknown', () => {
    const policy = new TriggerPolicy();
    assert.deepEqual(policy.decide('const total = ', 100, false), { kind: 'pausePoint', delayMs: 0 });
    assert.deepEqual(policy.decide('const tot', 100, false), { kind: 'base', delayMs: 100 });
    type(policy, Array.from({ length: RHYTHM_MIN_SAMPLES - 1 }, () => 200));
    assert.equal(policy.rhythmP90(), undefined, 'too few intervals');
  });

  it('mid-word, waits a little longer than the user\'s p90 inter-key interval (pauses do not count)', () => {
    const policy = new TriggerPolicy();
    // 60..120 ms per key, and two long pauses that are not part of the rhythm.
    type(policy, [60, 70, 80, 90, 100, 110, 120, PAUSE_GAP_MS + 500, 65, 75, 85, 95, 105, 115, 2_000]);
    assert.equal(policy.rhythmP90(), 115);
    assert.deepEqual(policy.decide('const tot', 100, false), { kind: 'rhythm', delayMs: 144 });
    assert.deepEqual(policy.decide('const tot', 200, false), { kind: 'base', delayMs: 200 }, 'never below the base (the setting)');
  });

  it('a slow typist gets at most MAX_ADAPTIVE_MS; the back-off removes the immediate trigger', () => {
    const policy = new TriggerPolicy();
    type(policy, Array.from({ length: 12 }, () => 900));
    assert.deepEqual(policy.decide('const tot', 100, false), { kind: 'rhythm', delayMs: MAX_ADAPTIVE_MS });
    assert.deepEqual(policy.decide('const total = ', 300, true), { kind: 'rhythm', delayMs: MAX_ADAPTIVE_MS });
    const fresh = new TriggerPolicy();
    assert.deepEqual(fresh.decide('const total = ', 300, true), { kind: 'base', delayMs: 300 });
  });
});
