import assert from 'node:assert/strict';
import { addRound, addUsage, budgetNote, leftOf, capState, DEFAULT_TURN_CAPS, exceedsHourly, NO_SPEND, parseTurnCaps, passesCostCap, raiseCaps, requestCeiling, spendEur, spendTokens, type TurnSpend } from '../../../src/core/agent/turnBudget';
import { eurPerUnit } from '../../../src/core/usage/cost';

const spend = (promptTokens: number, completionTokens: number, extra: Partial<TurnSpend> = {}): TurnSpend => ({ ...NO_SPEND, rounds: 1, promptTokens, completionTokens, ...extra });

describe('turn cost cap arithmetic', () => {
  it('sums the rounds’ usage, cached and reasoning tokens never above their totals', () => {
    let s = addRound(NO_SPEND, { promptTokens: 1000, completionTokens: 200, totalTokens: 1200, cachedTokens: 400, reasoningTokens: 50 });
    s = addRound(s, { promptTokens: 1500, completionTokens: 100, totalTokens: 1600, cachedTokens: 9999, reasoningTokens: 500 });
    assert.deepEqual(s, { rounds: 2, promptTokens: 2500, cachedTokens: 1900, completionTokens: 300, reasoningTokens: 150 });
    assert.equal(spendTokens(s), 2800);
  });

  it('prices like the meter: input 1.8, output and reasoning 8 EUR per million, cached at its own rate when set', () => {
    const s = spend(1_000_000, 1_000_000, { cachedTokens: 500_000, reasoningTokens: 250_000 });
    assert.ok(Math.abs(spendEur(s) - (1.8 + 8)) < 1e-9, 'cached tokens cost the input rate by default');
    const cheapCache = eurPerUnit(0.2);
    assert.ok(Math.abs(spendEur(s, cheapCache) - (0.5 * 1.8 + 0.5 * 0.2 + 8)) < 1e-9);
  });

  it('is ok below 80 % of both caps, warns from 80 %, and is reached at the cap', () => {
    const caps = { maxTokens: 10_000, maxCostEur: 100 };
    assert.equal(capState(spend(7_000, 999), caps).level, 'ok');
    const warn = capState(spend(7_000, 1_000), caps);
    assert.deepEqual([warn.level, warn.cap, warn.tokens], ['warning', 'tokens', 8_000]);
    assert.equal(capState(spend(9_000, 1_000), caps).level, 'reached');
  });

  it('the cost cap counts too, whichever is nearer wins', () => {
    const caps = { maxTokens: 100_000_000, maxCostEur: 1 };
    const state = capState(spend(0, 101_000), caps); // 0.808 EUR of output
    assert.deepEqual([state.level, state.cap], ['warning', 'cost']);
    assert.equal(capState(spend(0, 125_000), caps).level, 'reached');
    assert.equal(capState(spend(0, 125_000), { maxTokens: 1_000_000, maxCostEur: undefined }).level, 'ok', 'no cost cap: the tokens alone count');
  });

  it('checks a request before it is sent: its estimated prompt and all of its max_tokens, priced, against what is left of the cost cap', () => {
    // The review's scenario: a 0.05 EUR cap, one 120k-token prompt on a 128k model (8k left to answer).
    const request = { model: 'm', messages: [{ role: 'user' as const, content: 'x'.repeat(360_000) }], max_tokens: 8_000 };
    const ceiling = requestCeiling(request);
    assert.deepEqual([ceiling.promptTokens, ceiling.completionTokens], [120_004, 8_000]);
    const passed = passesCostCap(NO_SPEND, ceiling, { maxTokens: 5_000_000, maxCostEur: 0.05 });
    assert.ok(passed, 'refused before the first round');
    assert.ok(Math.abs(passed.requestEur - (120_004 * 1.8 + 8_000 * 8) / 1e6) < 1e-9, String(passed.requestEur));
    assert.deepEqual([passed.spentEur, passed.capEur], [0, 0.05]);
    // A small request fits until the spend plus it would pass the cap.
    const small = requestCeiling({ model: 'm', messages: [{ role: 'user', content: 'x'.repeat(2_996) }], max_tokens: 1_000 }); // 1 000 prompt tokens: 0.0098 EUR
    const caps = { maxTokens: 5_000_000, maxCostEur: 0.05 };
    assert.equal(passesCostCap(spend(10_000, 2_000), small, caps), undefined, '0.034 + 0.0098 fits');
    assert.ok(passesCostCap(spend(10_000, 3_000), small, caps), '0.042 + 0.0098 passes');
    assert.equal(passesCostCap(spend(10_000, 3_000), small, { ...caps, maxCostEur: undefined }), undefined, 'no cost cap');
    assert.equal(requestCeiling({ model: 'm', messages: [] }).completionTokens, 0, 'no max_tokens: the prompt alone');
  });

  it('a compaction summary’s usage counts against the caps without being a round', () => {
    const s = addUsage(addRound(NO_SPEND, { promptTokens: 1000, completionTokens: 100, totalTokens: 1100 }), { promptTokens: 5000, completionTokens: 500, totalTokens: 5500 });
    assert.deepEqual([s.rounds, spendTokens(s)], [1, 6600]);
  });

  it('projects the next round against the hourly allowance at the turn’s rate', () => {
    const s = { ...NO_SPEND, rounds: 2, promptTokens: 10_000, completionTokens: 3_000 };
    assert.equal(exceedsHourly(s, 1_501), false, '1 500 per round fits in 1 501');
    assert.equal(exceedsHourly(s, 1_499), true);
    assert.equal(exceedsHourly(s, undefined), false, 'no hourly cap');
    assert.equal(exceedsHourly(NO_SPEND, 0), false, 'no rate before the first round');
  });

  it('parses the settings (invalid values fall back to the defaults) and raises caps for Continue', () => {
    assert.deepEqual(parseTurnCaps({}), DEFAULT_TURN_CAPS);
    assert.deepEqual(parseTurnCaps({ maxTurnTokens: -1, maxTurnCostEur: 'ten' }), DEFAULT_TURN_CAPS);
    assert.deepEqual(parseTurnCaps({ maxTurnTokens: 1234.7, maxTurnCostEur: 0.5 }), { maxTokens: 1234, maxCostEur: 0.5 });
    assert.deepEqual(raiseCaps({ maxTokens: 1000, maxCostEur: 0.5 }, 2), { maxTokens: 2000, maxCostEur: 1 });
    assert.deepEqual(parseTurnCaps({ maxTurnCostEur: null }), { maxTokens: DEFAULT_TURN_CAPS.maxTokens, maxCostEur: undefined }, 'null: no cost cap');
    assert.deepEqual(raiseCaps({ maxTokens: 1000, maxCostEur: undefined }, 2), { maxTokens: 2000, maxCostEur: undefined });
  });

  it('tells the model its caps (a stable sentence), and computes what the tier has left', () => {
    assert.match(budgetNote({ maxTokens: 200_000, maxCostEur: 2 }), /at most 200,000 tokens or 2\.00 EUR for this task/);
    assert.doesNotMatch(budgetNote({ maxTokens: 200_000, maxCostEur: undefined }), /EUR/);
    assert.equal(leftOf(120_000, 150_000), 30_000);
    assert.equal(leftOf(200_000, 150_000), 0);
    assert.equal(leftOf(5, undefined), undefined);
  });
});
