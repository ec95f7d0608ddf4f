// Issue 22, trust: every message from a webview is validated against the protocol types.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseFromWebview } from '../../../src/core/usage/protocol';
import { check, weirdJson, weirdNumber } from '../properties/harness';

const KNOWN = ['ready', 'exportCsv', 'reset', 'openSettings', 'painted'];

describe('trust: the Usage webview\'s messages are validated', () => {
  it('accepts exactly the protocol\'s messages, and returns fresh objects without extra fields', () => {
    for (const type of ['ready', 'exportCsv', 'reset', 'openSettings'] as const) {
      assert.deepEqual(parseFromWebview({ type, extra: 'x', command: 'workbench.action.terminal.new' }), { type });
    }
    assert.deepEqual(parseFromWebview({ type: 'painted', ms: 12.5, html: '<img>' }), { type: 'painted', ms: 12.5 });
  });

  it('refuses unknown types, prototype names, wrong casing and bad fields', () => {
    for (const bad of [
      undefined, null, 'ready', ['ready'], 42, {}, { type: 'READY' }, { type: ' ready' }, { type: 'constructor' }, { type: '__proto__' }, { type: 'toString' },
      { type: 'painted' }, { type: 'painted', ms: -1 }, { type: 'painted', ms: '5' }, { type: 'painted', ms: Number.NaN }, { type: 'painted', ms: Infinity },
      { type: ['ready'] }, { type: { toString: () => 'ready' } },
    ]) {
      assert.equal(parseFromWebview(bad), undefined, JSON.stringify(bad) ?? String(bad));
    }
  });

  it('property: any value parses to undefined or to one known message holding only its own fields', () => {
    const message = fc.oneof(weirdJson, fc.record({ type: fc.oneof(fc.constantFrom(...KNOWN), fc.string({ maxLength: 12 })), ms: fc.oneof(weirdNumber, weirdJson) }, { requiredKeys: [] }));
    check(
      fc.property(message, (value) => {
        const parsed = parseFromWebview(value);
        if (parsed === undefined) return;
        assert.ok(KNOWN.includes(parsed.type));
        assert.deepEqual(Object.keys(parsed).sort(), parsed.type === 'painted' ? ['ms', 'type'] : ['type']);
        if (parsed.type === 'painted') assert.ok(Number.isFinite(parsed.ms) && parsed.ms >= 0);
      }),
      500,
    );
  });
});
