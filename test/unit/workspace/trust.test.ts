import assert from 'node:assert/strict';
import { decideTrust, TRUST_ACTIONS } from '../../../src/core/workspace/trust';

describe('workspace trust: the one decision (issue 31)', () => {
  it('a trusted workspace allows every action', () => {
    for (const action of TRUST_ACTIONS) assert.deepEqual(decideTrust(action, true), { kind: 'allow' });
  });

  it('in Restricted Mode running and writing always ask, sending asks, unasked context is left out', () => {
    const kinds = Object.fromEntries(TRUST_ACTIONS.map((action) => [action, decideTrust(action, false).kind]));
    assert.deepEqual(kinds, { run: 'confirm', write: 'confirm', send: 'confirm', context: 'skip' });
    for (const action of TRUST_ACTIONS) {
      const verdict = decideTrust(action, false);
      assert.ok(verdict.kind !== 'allow' && /Restricted Mode/.test(verdict.reason), action);
    }
  });
});
