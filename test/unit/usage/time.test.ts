import assert from 'node:assert/strict';
import { formatClock, formatDate, HOUR_MS, startOfDay, startOfHour, startOfMonth, startOfNextDay, startOfNextMonth } from '../../../src/core/usage/time';

const at = (iso: string): number => Date.parse(iso);

describe('usage time windows', () => {
  it('gives the local hour, day and month in UTC', () => {
    const t = at('2026-03-15T10:42:13.500Z');
    assert.equal(startOfHour(t, 'UTC'), at('2026-03-15T10:00:00Z'));
    assert.equal(startOfDay(t, 'UTC'), at('2026-03-15T00:00:00Z'));
    assert.equal(startOfNextDay(t, 'UTC'), at('2026-03-16T00:00:00Z'));
    assert.equal(startOfMonth(t, 'UTC'), at('2026-03-01T00:00:00Z'));
    assert.equal(startOfNextMonth(t, 'UTC'), at('2026-04-01T00:00:00Z'));
  });

  it('starts the day at local midnight in Paris, and a DST day lasts 23 hours', () => {
    // 2026-03-29: clocks go from 02:00 CET to 03:00 CEST.
    const t = at('2026-03-29T12:00:00Z');
    assert.equal(startOfDay(t, 'Europe/Paris'), at('2026-03-28T23:00:00Z'));
    assert.equal(startOfNextDay(t, 'Europe/Paris'), at('2026-03-29T22:00:00Z'));
    assert.equal(startOfNextDay(t, 'Europe/Paris') - startOfDay(t, 'Europe/Paris'), 23 * HOUR_MS);
    // 2026-10-25: back to CET, a 25-hour day.
    const autumn = at('2026-10-25T12:00:00Z');
    assert.equal(startOfNextDay(autumn, 'Europe/Paris') - startOfDay(autumn, 'Europe/Paris'), 25 * HOUR_MS);
  });

  it('starts hours on the half hour (UTC) in a zone with a 30-minute offset', () => {
    const t = at('2026-06-01T10:10:00Z'); // 15:40 in Kolkata (+05:30)
    assert.equal(startOfHour(t, 'Asia/Kolkata'), at('2026-06-01T09:30:00Z'));
    assert.equal(formatClock(startOfHour(t, 'Asia/Kolkata') + HOUR_MS, 'Asia/Kolkata'), '16:00');
    assert.equal(startOfDay(t, 'Asia/Kolkata'), at('2026-05-31T18:30:00Z'));
  });

  it('places the month boundary by the local calendar, not UTC', () => {
    // 2026-01-31T23:30Z is already February 1st in Berlin.
    const t = at('2026-01-31T23:30:00Z');
    assert.equal(formatDate(t, 'Europe/Berlin'), '2026-02-01');
    assert.equal(startOfMonth(t, 'Europe/Berlin'), at('2026-01-31T23:00:00Z'));
    assert.equal(startOfMonth(t, 'UTC'), at('2026-01-01T00:00:00Z'));
    assert.equal(startOfNextMonth(t, 'America/New_York'), at('2026-02-01T05:00:00Z'));
  });
});
