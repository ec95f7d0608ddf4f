import * as assert from 'node:assert/strict';
import { validateApiKey, validatePatPart } from '../../../src/core/inputValidation';

describe('core/inputValidation', () => {
  it('accepts a plausible API key', () => {
    assert.equal(validateApiKey('  sk-abcdefgh12345  '), undefined);
  });

  for (const [input, reason] of [
    ['', /empty/],
    ['   ', /empty/],
    ['sk-abc def-123', /spaces/],
    ['Bearer sk-abcdefgh', /Bearer/],
    ['sk-1', /too short/],
  ] as const) {
    it(`rejects ${JSON.stringify(input)} with a specific reason, without echoing it`, () => {
      const message = validateApiKey(input);
      assert.match(message ?? '', reason);
      if (input.trim()) assert.ok(!(message ?? '').includes(input.trim()));
    });
  }

  it('checks both parts of a personal access token', () => {
    assert.equal(validatePatPart('pat-123', 'ID'), undefined);
    assert.match(validatePatPart('', 'secret') ?? '', /secret is empty/);
    assert.match(validatePatPart('a b', 'ID') ?? '', /ID contains spaces/);
  });
});
