import assert from 'node:assert/strict';
import { redact, REDACTED, Redactor } from '../../../src/core/http/redact';

describe('http/redact', () => {
  it('removes every occurrence of each known secret', () => {
    const out = redact('key sk-live-123456 then sk-live-123456 and tok-abcdef', ['sk-live-123456', 'tok-abcdef']);
    assert.equal(out, `key ${REDACTED} then ${REDACTED} and ${REDACTED}`);
  });

  it('removes Authorization values and URL credentials even for unknown secrets', () => {
    const out = redact('Authorization: Bearer abc.def-ghi and proxy http://bob:hunter2@proxy:3128/');
    assert.ok(!out.includes('abc.def-ghi'));
    assert.ok(!out.includes('hunter2'));
    assert.ok(out.includes(`Bearer ${REDACTED}`));
  });

  it('ignores empty and very short values instead of shredding the text', () => {
    assert.equal(redact('a b c', ['', undefined, 'a']), 'a b c');
    assert.equal(redact('Bearer token missing'), 'Bearer token missing');
  });

  it('Redactor remembers secrets and forgets the oldest beyond its bound', () => {
    const r = new Redactor();
    r.add('first-secret');
    for (let i = 0; i < 40; i++) r.add(`rotated-token-${i}`);
    assert.ok(r.redact('rotated-token-39').includes(REDACTED));
    assert.equal(r.redact('first-secret'), 'first-secret');
  });
});
