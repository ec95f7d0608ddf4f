import assert from 'node:assert/strict';
import { addChatRequestTokens, BATCH_EUR_PER_TOKEN, estimateJobCost } from '../../../src/core/usage/batchCost';
import { DEFAULT_MAX_TOKENS, RATES } from '../../../src/core/usage/rates';

describe('batch cost estimate', () => {
  it('prices batch work at half the standard rate (contract: 0.90 and 4.00 EUR per million)', () => {
    assert.equal(BATCH_EUR_PER_TOKEN.input * 2, RATES.input.eurPerUnit);
    assert.equal(BATCH_EUR_PER_TOKEN.output * 2, RATES.output.eurPerUnit);
    const e = estimateJobCost({ inputTokens: 1_000_000, outputTokens: 1_000_000 });
    assert.ok(Math.abs(e.standardEur - 9.8) < 1e-9);
    assert.ok(Math.abs(e.batchEur - 4.9) < 1e-9);
    assert.ok(Math.abs(e.savedEur - 4.9) < 1e-9);
  });

  it("counts each request's prompt and its max_tokens (the server default when unset)", () => {
    const tokens = { inputTokens: 0, outputTokens: 0 };
    addChatRequestTokens(tokens, { messages: [{ role: 'user', content: 'x'.repeat(300) }], max_tokens: 50 });
    addChatRequestTokens(tokens, { messages: [{ role: 'user', content: 'y' }] });
    assert.equal(tokens.outputTokens, 50 + DEFAULT_MAX_TOKENS);
    assert.ok(tokens.inputTokens > 100);
  });

  it('never prices negative tokens', () => {
    assert.deepEqual(estimateJobCost({ inputTokens: -5, outputTokens: -1 }), { inputTokens: 0, outputTokens: 0, standardEur: 0, batchEur: 0, savedEur: 0 });
  });
});
