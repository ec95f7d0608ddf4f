import * as assert from 'node:assert/strict';
import { createClock } from '@sinonjs/fake-timers';
import type { SchedulerTimers } from '../../../src/core/inlineCompletion/debounce';
import { LONG_PAUSE_MS, NEXT_EDIT_RHYTHM_FACTOR, PauseBudget, type BudgetTicket } from '../../../src/core/inlineCompletion/pauseBudget';
import { simulateTyping, TWO_FUNCTIONS, typingScript } from './typingSimulation';

const DOC = 'file:///ws/a.ts';

describe('core/inlineCompletion PauseBudget', () => {
  let clock: ReturnType<typeof createClock>;
  /** Extra lateness of every timer the budget sets (a loaded event loop). */
  let lateMs: number;
  let budget: PauseBudget;

  beforeEach(() => {
    clock = createClock(Date.parse('2026-04-14T10:20:00Z'));
    lateMs = 0;
    const timers: SchedulerTimers = {
      setTimeout: (callback, ms) => clock.setTimeout(callback, ms + lateMs),
      clearTimeout: (handle) => clock.clearTimeout(handle as Parameters<typeof clock.clearTimeout>[0]),
    };
    budget = new PauseBudget({ timers, now: () => clock.now });
  });

  /** Settles `promise` into a box that can be read while the clock moves. */
  function watch<T>(promise: Promise<T>): { value: T | undefined; settled: boolean } {
    const box: { value: T | undefined; settled: boolean } = { value: undefined, settled: false };
    void promise.then((v) => {
      box.value = v;
      box.settled = true;
    });
    return box;
  }

  it('a pause gives ghost text its request first; next edit waits while ghost text shows something', async () => {
    budget.keystroke(DOC, 2);
    const ghost = watch(budget.ghostText(100));
    const next = watch(budget.nextEdit(400));
    await clock.tickAsync(101);
    assert.ok(ghost.value, 'ghost text is admitted after its wait');
    await clock.tickAsync(200);
    ghost.value.done(true);
    await clock.tickAsync(400);
    assert.equal(next.settled, false, 'no second request while the ghost text is fresh');
    await clock.tickAsync(LONG_PAUSE_MS);
    assert.ok(next.value, 'the pause lasted on: next edit asks once');
    assert.deepEqual(budget.stats.granted, { ghostText: 1, nextEdit: 1 });
  });

  it('next edit takes the pause when ghost text answered nothing, and waits for ghost text in flight first', async () => {
    budget.keystroke(DOC, 2);
    const ghost = watch(budget.ghostText(100));
    const next = watch(budget.nextEdit(400));
    await clock.tickAsync(600);
    assert.equal(next.settled, false, 'ghost text is still answering');
    ghost.value?.done(false);
    await clock.tickAsync(1);
    assert.ok(next.value);
  });

  it('next edit asks after its idle wait when ghost text never asked (off, or served nothing)', async () => {
    budget.keystroke(DOC, 2);
    const next = watch(budget.nextEdit(400));
    await clock.tickAsync(399);
    assert.equal(next.settled, false);
    await clock.tickAsync(2);
    assert.ok(next.value);
  });

  it('ghost text still gathering its context (the provider called, not yet asking) keeps its first place', async () => {
    budget.keystroke(DOC, 2);
    const release = budget.holdForGhostText();
    const next = watch(budget.nextEdit(400));
    await clock.tickAsync(700);
    assert.equal(next.settled, false, 'next edit waits for ghost text');
    const ghost = watch(budget.ghostText(100));
    await clock.tickAsync(1);
    assert.ok(ghost.value, 'ghost text gets the pause although next edit waited longer');
    ghost.value.done(false);
    release();
    await clock.tickAsync(1);
    assert.ok(next.value, 'ghost text had nothing to show: next edit follows');
  });

  it('ghost text shown from the cache or type-ahead keeps next edit for the long pause', async () => {
    budget.keystroke(DOC, 2);
    budget.ghostShown();
    const next = watch(budget.nextEdit(400));
    await clock.tickAsync(1_000);
    assert.equal(next.settled, false);
    await clock.tickAsync(LONG_PAUSE_MS);
    assert.ok(next.value);
  });

  it('at most one request per pause: a second ask of ghost text in the same pause is refused', async () => {
    budget.keystroke(DOC, 2);
    const first = watch(budget.ghostText(0));
    await clock.tickAsync(1);
    const second = watch(budget.ghostText(0));
    await clock.tickAsync(1);
    assert.ok(first.value);
    assert.equal(second.settled, true);
    assert.equal(second.value, undefined);
  });

  it('a keystroke ends the pause: the waits are refused and the request in flight is aborted', async () => {
    budget.keystroke(DOC, 2);
    const ghost = watch(budget.ghostText(0));
    await clock.tickAsync(1);
    const ticket = ghost.value as BudgetTicket;
    const next = watch(budget.nextEdit(400));
    await clock.tickAsync(100);
    budget.keystroke(DOC, 3);
    await clock.tickAsync(1);
    assert.equal(ticket.signal.aborted, true);
    assert.deepEqual({ settled: next.settled, value: next.value }, { settled: true, value: undefined });
    assert.equal(budget.stats.aborted, 1);
  });

  it('counts a version once, whoever reports it, and never an older one; a cursor move at the same version is a new pause', () => {
    assert.equal(budget.keystroke(DOC, 2), true);
    assert.equal(budget.keystroke(DOC, 2, 10), false, 'ghost text reports the version next edit saw');
    assert.equal(budget.keystroke(DOC, 1), false, 'a late report of an older version');
    assert.equal(budget.keystroke(DOC, 2, 10), false);
    assert.equal(budget.keystroke(DOC, 2, 4), true, 'the cursor moved');
    assert.equal(budget.keystroke('file:///ws/b.ts', 1), true);
    assert.equal(budget.stats.keystrokes, 3);
  });

  it('a document closed and opened again at the same address (Untitled-1 reused, versions from 1 again) opens a pause at its first edit', async () => {
    const untitled = 'untitled:Untitled-1';
    assert.equal(budget.keystroke(untitled, 2), true);
    const first = watch(budget.nextEdit(400));
    await clock.tickAsync(450);
    assert.ok(first.value, 'next edit asks after the rename');
    first.value.done(true);
    for (let v = 3; v <= 5; v++) assert.equal(budget.keystroke(untitled, v), true);
    // Closed; a new editor gets the same address and is renamed again (version 2).
    budget.forget(untitled);
    assert.equal(budget.keystroke(untitled, 2), true, 'the edit of the new document is a keystroke, not a late report');
    const again = watch(budget.nextEdit(400));
    await clock.tickAsync(450);
    assert.ok(again.value, 'next edit asks in the new pause (it was refused as "budgetSpent")');
    assert.equal(budget.stats.granted.nextEdit, 2);
  });

  it('a keystroke queued behind a late timer is seen before the request leaves', async () => {
    budget.keystroke(DOC, 2);
    lateMs = 150;
    const ghost = watch(budget.ghostText(100));
    // The timer was due at 100 and runs at 250; the key pressed at 180 waited behind it in the queue.
    clock.setTimeout(() => budget.keystroke(DOC, 3), 250);
    await clock.tickAsync(1_000);
    assert.deepEqual({ settled: ghost.settled, value: ghost.value }, { settled: true, value: undefined });
    assert.equal(budget.stats.granted.ghostText, 0);
  });

  it('waits longer when timers run late (the lateness is learned) and when the user types slowly', async () => {
    lateMs = 200;
    budget.keystroke(DOC, 2);
    await clock.tickAsync(10);
    const first = watch(budget.ghostText(0));
    await clock.tickAsync(2_000);
    assert.ok(first.value);
    assert.ok(budget.latenessMs() >= 200, String(budget.latenessMs()));
    lateMs = 0;
    for (let v = 3; v < 12; v++) {
      budget.keystroke(DOC, v);
      await clock.tickAsync(250);
    }
    budget.keystroke(DOC, 12);
    const start = clock.now;
    const next = watch(budget.nextEdit(400));
    while (!next.settled) await clock.tickAsync(10);
    const waited = clock.now - start;
    assert.ok(waited >= 250 * NEXT_EDIT_RHYTHM_FACTOR + 200, `waited ${waited} ms`);
  });
});

describe('ghost text and next edit share one request budget per pause (issue 40, item 16)', () => {
  const seeds = [1, 2, 3, 4, 5, 6];

  it('typing two functions at 11 keys/s with both on sends at most 15 requests per 100 keys; ghost text still shows at a pause, next edit still asks', async function () {
    this.timeout(60_000);
    for (const seed of seeds) {
      const keys = typingScript(TWO_FUNCTIONS, 11, seed);
      const run = await simulateTyping({ keys });
      assert.ok(run.requestsPer100Keys <= 15, `seed ${seed}: ${run.requestsPer100Keys.toFixed(1)} requests per 100 keys (ghost ${run.ghostRequests}, next edit ${run.nextEditRequests})`);
      assert.ok(run.ghostShownAt.includes(keys.length - 1), `seed ${seed}: ghost text at the final pause`);
      assert.ok(run.nextEditRequests > 0, `seed ${seed}: next edit asked in a pause`);
    }
  });

  it('a loaded event loop (busy 50-200 ms at a time: timers and keystrokes late) sends no more than the quiet one, and nothing for a keystroke still queued', async function () {
    this.timeout(60_000);
    for (const seed of seeds) {
      const keys = typingScript(TWO_FUNCTIONS, 11, seed);
      const quiet = await simulateTyping({ keys });
      const loaded = await simulateTyping({ keys, loaded: true });
      const sent = (r: typeof quiet): number => r.ghostRequests + r.nextEditRequests;
      assert.ok(sent(loaded) <= sent(quiet), `seed ${seed}: loaded ${sent(loaded)} > quiet ${sent(quiet)}`);
      assert.equal(loaded.phantomPauses, 0, `seed ${seed}: requests sent for a pause that never was (a key pressed, queued behind a late timer)`);
      assert.ok(loaded.ghostShownAt.includes(keys.length - 1), `seed ${seed}: ghost text at the final pause under load`);
    }
  });
});
