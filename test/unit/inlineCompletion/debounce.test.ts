import * as assert from 'node:assert/strict';
import { createClock } from '@sinonjs/fake-timers';
import { DebounceScheduler, DEFAULT_DEBOUNCE_MS } from '../../../src/core/inlineCompletion/debounce';

describe('core/inlineCompletion DebounceScheduler (fake timers)', () => {
  it('runs only the last job of a burst of keystrokes, after the delay', async () => {
    const clock = createClock(0);
    const scheduler = new DebounceScheduler(clock);
    assert.equal(scheduler.delay, DEFAULT_DEBOUNCE_MS);
    const ran: string[] = [];
    const first = scheduler.schedule(async () => ran.push('a'));
    await clock.tickAsync(DEFAULT_DEBOUNCE_MS - 1);
    const second = scheduler.schedule(async () => ran.push('b'));
    assert.deepEqual(await first, { kind: 'superseded' });
    await clock.tickAsync(DEFAULT_DEBOUNCE_MS - 1);
    assert.deepEqual(ran, []);
    await clock.tickAsync(1);
    assert.deepEqual(await second, { kind: 'ran', value: 1 });
    assert.deepEqual(ran, ['b']);
  });

  it('aborts the request in flight on the next keystroke', async () => {
    const clock = createClock(0);
    const scheduler = new DebounceScheduler(clock, 50);
    let seen: AbortSignal | undefined;
    const first = scheduler.schedule((signal) => {
      seen = signal;
      return new Promise<string>((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
    });
    await clock.tickAsync(50);
    assert.equal(seen?.aborted, false);
    assert.equal(scheduler.busy, true);
    const second = scheduler.schedule(async () => 'next');
    assert.equal(seen?.aborted, true);
    assert.deepEqual(await first, { kind: 'superseded' });
    await clock.tickAsync(50);
    assert.deepEqual(await second, { kind: 'ran', value: 'next' });
    assert.equal(scheduler.busy, false);
  });

  it('follows the caller\'s signal, a per-call delay, and a changed delay', async () => {
    const clock = createClock(0);
    const scheduler = new DebounceScheduler(clock, 100);
    const caller = new AbortController();
    const pending = scheduler.schedule(async () => 'x', caller.signal);
    caller.abort();
    assert.deepEqual(await pending, { kind: 'superseded' });
    const aborted = new AbortController();
    aborted.abort();
    assert.deepEqual(await scheduler.schedule(async () => 'y', aborted.signal), { kind: 'superseded' });
    const slow = scheduler.schedule(async () => 'slow', undefined, 300);
    await clock.tickAsync(299);
    scheduler.setDelay(10);
    assert.equal(scheduler.delay, 10);
    await clock.tickAsync(1);
    assert.deepEqual(await slow, { kind: 'ran', value: 'slow' });
    assert.throws(() => scheduler.setDelay(-1), RangeError);
    assert.equal(clock.countTimers(), 0);
  });

  it('passes a job failure through when nothing superseded it', async () => {
    const clock = createClock(0);
    const scheduler = new DebounceScheduler(clock, 10);
    const failing = scheduler.schedule(() => Promise.reject(new Error('boom')));
    const caught = failing.catch((e: unknown) => (e as Error).message);
    await clock.tickAsync(10);
    assert.equal(await caught, 'boom');
  });
});
