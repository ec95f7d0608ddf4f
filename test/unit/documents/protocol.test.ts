import assert from 'node:assert/strict';
import { parseFromWebview } from '../../../src/core/documents/protocol';

describe('documents: messages from the document view', () => {
  it('accepts exactly the protocol messages', () => {
    assert.deepEqual(parseFromWebview({ type: 'ready' }, 3), { type: 'ready' });
    assert.deepEqual(parseFromWebview({ type: 'retry', page: 3 }, 3), { type: 'retry', page: 3 });
    assert.deepEqual(parseFromWebview({ type: 'openMarkdown' }, 3), { type: 'openMarkdown' });
    assert.deepEqual(parseFromWebview({ type: 'save' }, 3), { type: 'save' });
    assert.deepEqual(parseFromWebview({ type: 'cancel' }, 3), { type: 'cancel' });
  });

  it('ignores anything else: unknown types, extra fields, pages out of range or not integers', () => {
    for (const raw of [null, 'ready', [], { type: 'run', command: 'x' }, { type: 'ready', extra: 1 }, { type: 'retry', page: 4 }, { type: 'retry', page: 0 }, { type: 'retry', page: 1.5 }, { type: 'retry', page: '1' }, { type: 'save', path: '/etc/passwd' }]) {
      assert.equal(parseFromWebview(raw, 3), undefined, JSON.stringify(raw));
    }
  });
});
