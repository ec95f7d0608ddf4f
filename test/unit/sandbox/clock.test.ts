import assert from 'node:assert/strict';
import { createClock } from '@sinonjs/fake-timers';
import { Clock } from '../../sandbox/core/clock';

describe('sandbox clock', () => {
  it('reads the injected time source, plus what advance() added (reset by resetOffset)', () => {
    const timers = createClock(Date.UTC(2026, 0, 1));
    const clock = new Clock(timers);
    assert.equal(clock.iso(), '2026-01-01T00:00:00.000Z');
    timers.tick(1500);
    clock.advance(60_000);
    assert.equal(clock.now(), Date.UTC(2026, 0, 1, 0, 1, 1, 500));
    assert.equal(clock.nowSeconds(), Date.UTC(2026, 0, 1, 0, 1, 1) / 1000);
    clock.resetOffset();
    assert.equal(clock.offsetMs, 0);
    assert.equal(clock.now(), Date.UTC(2026, 0, 1, 0, 0, 1, 500));
  });

  it('sleep() waits on that time source, and close() releases what still waits, leaving no timer', async () => {
    const timers = createClock(0);
    const clock = new Clock(timers);
    const woke: string[] = [];
    void clock.sleep(100).then(() => woke.push('a'));
    void clock.sleep(300).then(() => woke.push('b'));
    assert.equal(clock.pendingTimers, 2);
    await timers.tickAsync(99);
    assert.deepEqual(woke, []);
    await timers.tickAsync(1);
    assert.deepEqual(woke, ['a']);
    clock.close();
    await Promise.resolve();
    assert.deepEqual(woke, ['a', 'b'], 'released at close, at 100 ms');
    assert.equal(timers.now, 100);
    assert.equal(timers.countTimers(), 0);
    assert.equal(clock.pendingTimers, 0);
    await clock.sleep(1_000); // after close: at once
    assert.equal(timers.countTimers(), 0);
  });

  it('uses the real timers when none are given', () => {
    const clock = new Clock();
    const before = Date.now();
    const now = clock.now();
    assert.ok(now >= before && now <= Date.now(), 'Date.now(), read between two reads of it');
  });
});
