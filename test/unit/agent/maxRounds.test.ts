import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clampMaxRounds, MAX_ROUNDS } from '../../../src/core/agent/settings';

interface Schema { default: number; minimum: number; maximum: number }

function schema(): Schema {
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
    contributes: { configuration: Array<{ properties: Record<string, Schema> }> };
  };
  const found = manifest.contributes.configuration.map((c) => c.properties['stratus.agent.maxRounds']).find(Boolean);
  assert.ok(found, 'stratus.agent.maxRounds is contributed');
  return found;
}

describe('stratus.agent.maxRounds is kept within its schema', () => {
  it('uses the bounds and default the setting\'s schema declares', () => {
    const { default: byDefault, minimum, maximum } = schema();
    assert.deepEqual({ default: MAX_ROUNDS.default, minimum: MAX_ROUNDS.minimum, maximum: MAX_ROUNDS.maximum }, { default: byDefault, minimum, maximum });
  });

  it('takes a value beyond the bounds to the nearest bound', () => {
    const { minimum, maximum } = schema();
    assert.equal(clampMaxRounds(1_000_000), maximum);
    assert.equal(clampMaxRounds(maximum + 1), maximum);
    assert.equal(clampMaxRounds(0), minimum);
    assert.equal(clampMaxRounds(-5), minimum);
  });

  it('keeps a valid value, rounds a fraction, and falls back to the default for anything not a number', () => {
    assert.equal(clampMaxRounds(20), 20);
    assert.equal(clampMaxRounds(2.6), 3);
    for (const value of [undefined, null, '20', Number.NaN, Number.POSITIVE_INFINITY, {}, true]) {
      assert.equal(clampMaxRounds(value), schema().default, String(value));
    }
  });
});
