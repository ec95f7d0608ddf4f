import assert from 'node:assert/strict';
import { countersOf } from '../../../src/core/usage/ledger';
import { validEvent } from '../../../src/core/usage/validate';
import type { UsageEvent } from '../../../src/core/usage/events';

describe('documents: usage kind ocr', () => {
  const event: UsageEvent = { kind: 'ocr', at: 1_700_000_000_000, model: 'deepseek-ocr:3b', promptTokens: 900, completionTokens: 300, reasoningTokens: 0, estimated: false };

  it('is a valid stored event, and counts its tokens like chat (so the tier guard sees them)', () => {
    assert.equal(validEvent(event), true);
    assert.equal(validEvent({ ...event, completionTokens: -1 }), false);
    const counters = countersOf(event);
    assert.ok(counters);
    assert.deepEqual([counters.requests, counters.input, counters.output, counters.inlineRequests], [1, 900, 300, 0]);
  });
});
