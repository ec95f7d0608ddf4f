import assert from 'node:assert/strict';
import { costByKind, totalCost } from '../../../src/core/usage/cost';
import type { UsageEvent, UsageEventOf } from '../../../src/core/usage/events';
import { countersOf, Ledger } from '../../../src/core/usage/ledger';
import { RATES, TIERS } from '../../../src/core/usage/rates';
import { parseUsageSettings } from '../../../src/core/usage/settings';
import { levelOf, summarize } from '../../../src/core/usage/summary';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../../src/core/usage/time';

const at = (iso: string): number => Date.parse(iso);
const chat = (t: number, completion: number, extra: Partial<UsageEventOf<'chat'>> = {}): UsageEvent => ({
  kind: 'chat', at: t, model: 'gpt-oss:120b', promptTokens: 100, completionTokens: completion, reasoningTokens: 0, estimated: false, ...extra,
});
const settings = parseUsageSettings({ tier: 'tier1' });

describe('usage ledger, cost and forecast', () => {
  it('bills each kind at the contract rates', () => {
    assert.equal(RATES.input.eurPerUnit * 1e6, 1.8);
    assert.equal(RATES.output.eurPerUnit * 1e6, 8);
    assert.equal(RATES.reasoning.eurPerUnit * 1e6, 8);
    assert.equal(RATES.rerank.eurPerUnit * 1e6, 4);
    assert.equal(RATES.audio.eurPerUnit, 0.01);
    const c = countersOf(chat(0, 1_000_000, { promptTokens: 2_000_000, reasoningTokens: 250_000 }));
    assert.ok(c);
    const k = costByKind(c);
    assert.equal(k.input.toFixed(6), '3.600000');
    assert.equal(k.output.toFixed(6), '6.000000', 'reasoning is inside completion_tokens: billed once');
    assert.equal(k.reasoning.toFixed(6), '2.000000');
    const r = countersOf({ kind: 'rerank', at: 0, model: 'r', searchUnits: 3, rerankedTokens: 500_000, estimated: true });
    assert.ok(r);
    assert.equal(costByKind(r).rerank.toFixed(6), '2.000000');
    assert.equal(r.estimated, 1);
    const e = countersOf({ kind: 'embeddings', at: 0, model: 'e', promptTokens: 1_000_000, estimated: false });
    assert.ok(e);
    assert.equal(totalCost(e).toFixed(6), '1.800000');
  });

  it('bills any started audio minute, per request', () => {
    const minutes = (s: number): number => countersOf({ kind: 'transcription', at: 0, model: 'w', audioSeconds: s })?.audioMinutes ?? -1;
    assert.equal(minutes(1), 1);
    assert.equal(minutes(60), 1);
    assert.equal(minutes(60.001), 2);
    assert.equal(minutes(0), 0);
    const ledger = new Ledger('UTC');
    ledger.add({ kind: 'transcription', at: 1000, model: 'w', audioSeconds: 61 });
    ledger.add({ kind: 'transcription', at: 2000, model: 'w', audioSeconds: 30 });
    const total = ledger.total(0, DAY_MS);
    assert.equal(total.audioMinutes, 3, '2 + 1 started minutes, not ceil(91 s) = 2');
    assert.equal(costByKind(total).audio.toFixed(2), '0.03');
  });

  it('ignores negative, missing and non-finite figures', () => {
    const c = countersOf({ kind: 'chat', at: 0, model: 'm', promptTokens: -5, completionTokens: Number.NaN, reasoningTokens: 7, estimated: false });
    assert.deepEqual([c?.input, c?.output, c?.reasoning], [0, 0, 0]);
  });

  it('folds minutes into hours and hours into days without changing any window total', () => {
    const tz = 'Europe/Paris';
    const ledger = new Ledger(tz);
    const start = at('2026-05-01T08:00:00Z');
    for (let i = 0; i < 72 * 4; i++) ledger.add(chat(start + i * 15 * MINUTE_MS, 10));
    const before = ledger.size;
    const now = start + 72 * HOUR_MS;
    const windows: [number, number][] = [
      [at('2026-05-01T22:00:00Z'), at('2026-05-02T22:00:00Z')], // a Paris day
      [at('2026-04-30T22:00:00Z'), at('2026-05-31T22:00:00Z')], // the Paris month
      [now - HOUR_MS, now],
    ];
    const totals = windows.map(([a, b]) => ledger.total(a, b).output);
    ledger.fold(now);
    assert.ok(ledger.size < before / 4, `${ledger.size} buckets after folding ${before}`);
    assert.deepEqual(windows.map(([a, b]) => ledger.total(a, b).output), totals);
    const grains = new Set(ledger.all().map((b) => b.g));
    assert.deepEqual([...grains].sort(), ['d', 'h', 'm']);
    // Days past 400 days are dropped.
    ledger.fold(now + 401 * DAY_MS);
    assert.equal(ledger.size, 0);
  });

  it('summarises the hour, the day and the month across their boundaries in the user time zone', () => {
    const tz = 'America/New_York';
    const ledger = new Ledger(tz);
    // 23:30 on Jan 31 in New York = 04:30Z Feb 1: still January and Jan 31 there.
    ledger.add(chat(at('2026-02-01T04:30:00Z'), 1000));
    ledger.add(chat(at('2026-02-01T05:10:00Z'), 200)); // 00:10 Feb 1 local
    ledger.add(chat(at('2026-02-01T05:20:00Z'), 30));
    const s = summarize(ledger, settings, at('2026-02-01T05:30:00Z'));
    assert.equal(s.hour.used, 230);
    assert.equal(s.day.used, 230);
    assert.equal(s.month.outputTokens, 230);
    assert.equal(s.month.label, '2026-02');
    assert.equal(s.hour.resetsAtLabel, '01:00');
    assert.equal(s.hour.cap, TIERS.tier1.outputTokensPerHour);
    assert.equal(s.day.cap, 3_600_000);
    assert.equal(s.month.budgetEur, 1000);
    assert.equal(s.month.creditEur, 200);
    // The same events seen from UTC: all on Feb 1.
    const utc = summarize(Ledger.from(ledger.all(), 'UTC'), settings, at('2026-02-01T05:30:00Z'));
    assert.equal(utc.day.used, 1230);
    assert.equal(s.charts.hours.t.length, 24);
    assert.equal(s.charts.days.t.length, 30);
    assert.equal(s.charts.hours.output.at(-1), 230);
    assert.equal(s.charts.days.output.at(-2), 1000);
  });

  it('forecasts when the hourly cap, the daily cap and the monthly budget are reached at the current pace', () => {
    const ledger = new Ledger('UTC');
    const now = at('2026-07-10T12:30:00Z');
    // 60 000 output tokens in the last half hour: 60 000 tokens/hour.
    for (let i = 0; i < 30; i++) ledger.add(chat(now - (i + 1) * MINUTE_MS, 2000, { promptTokens: 0 }));
    const s = summarize(ledger, settings, now);
    assert.equal(s.forecast.outputTokensPerHour, 60_000);
    assert.deepEqual(s.forecast.hourCap, { state: 'notThisWindow' }, '90 000 left at 60 000/h: not before 13:00');
    assert.equal(s.forecast.dayCap.state, 'notThisWindow');
    // Faster: 120 000 in the last half hour.
    for (let i = 0; i < 30; i++) ledger.add(chat(now - (i + 1) * MINUTE_MS, 2000, { promptTokens: 0 }));
    const fast = summarize(ledger, settings, now);
    assert.equal(fast.forecast.hourCap.state, 'at');
    if (fast.forecast.hourCap.state === 'at') {
      assert.equal(fast.forecast.hourCap.at, now + 0.25 * HOUR_MS, '30 000 left at 120 000/h: 15 minutes');
      assert.equal(fast.forecast.hourCap.label, '12:45');
    }
    const over = summarize(ledger, parseUsageSettings({ tier: 'tier1', monthlyBudget: 0.5 }), now);
    assert.deepEqual(over.forecast.monthBudget, { state: 'reached' }, '0.96 EUR spent over a 0.50 budget');
    const idle = summarize(new Ledger('UTC'), settings, now);
    assert.deepEqual(idle.forecast.hourCap, { state: 'idle' });
    const monthly = summarize(ledger, parseUsageSettings({ tier: 'monthly' }), now);
    assert.deepEqual(monthly.forecast.hourCap, { state: 'noLimit' });
    assert.equal(monthly.hour.cap, undefined);
  });

  it('colours the status bar: warning above 80 % of a cap, error at the cap, none without caps', () => {
    const now = at('2026-07-10T12:30:00Z');
    const level = (tokens: number, tier: 'tier1' | 'monthly' = 'tier1'): string => {
      const ledger = new Ledger('UTC');
      ledger.add(chat(now, tokens));
      return levelOf(summarize(ledger, parseUsageSettings({ tier }), now));
    };
    assert.equal(level(120_000), 'normal', 'exactly 80 %');
    assert.equal(level(120_001), 'warning');
    assert.equal(level(149_999), 'warning');
    assert.equal(level(150_000), 'error');
    assert.equal(level(5_000_000, 'monthly'), 'normal');
  });

  it('falls back to tier defaults for invalid settings', () => {
    assert.deepEqual(parseUsageSettings({ tier: 'tier9', monthlyBudget: -3, upfrontCredit: 'x', waitAtCap: 'yes' }), { tier: 'tier1', monthlyBudgetEur: undefined, upfrontCreditEur: undefined, waitAtCap: false, cachedInputEurPerMillion: undefined });
  });
});
