import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { pagesOf, parsePageRange } from '../../../src/core/documents/pageRange';
import { check, weirdString } from './harness';

// The page-range box parses what is typed on each keystroke, against any page count.

const part = fc.oneof(
  fc.tuple(fc.option(fc.nat(2 ** 31), { nil: undefined }), fc.boolean(), fc.option(fc.nat(2 ** 31), { nil: undefined })).map(([a, dash, b]) => `${a ?? ''}${dash ? '-' : ''}${b ?? ''}`),
  weirdString,
);

describe('properties: page ranges', () => {
  it('a range is a message or sorted, disjoint intervals inside the document, as many as the parts typed at most', () => {
    check(
      fc.property(fc.array(part, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 2 ** 31 - 1 }), (parts, pageCount) => {
        const text = parts.join(',');
        const parsed = parsePageRange(text, pageCount);
        if (!parsed.ok) {
          assert.ok(parsed.message.length > 0);
          return;
        }
        assert.ok(parsed.ranges.length <= parts.length);
        let previous = 0;
        let count = 0;
        for (const [from, to] of parsed.ranges) {
          assert.ok(Number.isSafeInteger(from) && Number.isSafeInteger(to) && from >= 1 && (previous === 0 || from > previous + 1) && from <= to && to <= pageCount, JSON.stringify(parsed.ranges));
          previous = to;
          count += to - from + 1;
        }
        assert.equal(parsed.count, count);
        assert.ok(pagesOf(parsed, 5).length === Math.min(5, count));
      }),
      500,
    );
  });
});
