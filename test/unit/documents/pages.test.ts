import assert from 'node:assert/strict';
import { DocumentError } from '../../../src/core/documents/errors';
import { formatPageRange, pagesOf, parsePageRange } from '../../../src/core/documents/pageRange';
import { checkSize, countActions, needsPageRange, planPages } from '../../../src/core/documents/plan';
import type { PageInfo } from '../../../src/core/documents/types';

describe('documents: page ranges', () => {
  it('reads pages, ranges and open ends, sorted without repeats', () => {
    assert.deepEqual(parsePageRange('3, 1-2, 2, 9-', 10), { ok: true, ranges: [[1, 3], [9, 10]], count: 5 });
    assert.deepEqual(parsePageRange(' -2 ', 10), { ok: true, ranges: [[1, 2]], count: 2 });
    assert.deepEqual(parsePageRange('7', 7), { ok: true, ranges: [[7, 7]], count: 1 });
    const parsed = parsePageRange('3, 1-2, 2, 9-', 10);
    assert.ok(parsed.ok);
    assert.deepEqual(pagesOf(parsed), [1, 2, 3, 9, 10]);
    assert.deepEqual(pagesOf(parsed, 4), [1, 2, 3, 9]);
  });

  // Fuzz finding (issue 31, item 15): `1-` built every page in memory before the page cap was
  // checked, on each keystroke (n = 5,000,000: 300-390 MB; n = 2^31-1: an untyped RangeError).
  it('keeps an open range on a huge document as one interval, and hands out pages only up to the limit', () => {
    for (const n of [5_000_000, 2 ** 31 - 1]) {
      const parsed = parsePageRange('1-', n);
      assert.deepEqual(parsed, { ok: true, ranges: [[1, n]], count: n });
      assert.ok(parsed.ok);
      assert.deepEqual(pagesOf(parsed, 3), [1, 2, 3]);
    }
    // The representation grows with the ranges typed, never with the pages they hold.
    const many = parsePageRange('1-, 5-9, 2, 100-2000000000, 7', 2 ** 31 - 1);
    assert.deepEqual(many, { ok: true, ranges: [[1, 2 ** 31 - 1]], count: 2 ** 31 - 1 });
    assert.deepEqual(parsePageRange('10-20, 1-3, 4, 30-', 5_000_000), { ok: true, ranges: [[1, 4], [10, 20], [30, 5_000_000]], count: 4 + 11 + 4_999_971 });
  });

  it('says what is wrong with a range it cannot read', () => {
    const message = (text: string): string => {
      const r = parsePageRange(text, 5);
      assert.equal(r.ok, false);
      return r.ok ? '' : r.message;
    };
    assert.match(message(''), /Type pages/);
    assert.match(message('a-b'), /"a-b" is not a page/);
    assert.match(message('0'), /start at 1/);
    assert.match(message('4-9'), /5 page\(s\); "4-9" goes past/);
    assert.match(message('4-2'), /runs backwards/);
    assert.match(message('1,,2'), /"" is not a page/);
  });

  it('formats pages back as a short range', () => {
    assert.equal(formatPageRange([1, 2, 3, 5, 7, 8]), '1-3, 5, 7-8');
    assert.equal(formatPageRange([]), '');
  });
});

describe('documents: page planning and caps', () => {
  const page = (number: number, textChars: number, hasImage: boolean): PageInfo => ({ number, textChars, hasImage });

  it('offers the text layer where there is one, OCR for scans, nothing for blank pages', () => {
    const plan = planPages([page(1, 800, false), page(2, 0, true), page(3, 3, true), page(4, 0, false), page(5, 400, true)], 'auto');
    assert.deepEqual(plan.map((p) => p.action), ['text', 'ocr', 'ocr', 'empty', 'text']);
    assert.deepEqual(countActions(plan), { text: 2, ocr: 2, empty: 1 });
  });

  it('reads every page with an image by OCR when asked, keeping the text layer of pages without one', () => {
    const plan = planPages([page(1, 800, false), page(2, 0, true), page(3, 400, true), page(4, 5, false)], 'ocrAll');
    assert.deepEqual(plan.map((p) => p.action), ['text', 'ocr', 'ocr', 'text']);
  });

  it('refuses a file over the size cap with the file, both sizes and the setting', () => {
    const caps = { maxBytes: 2 * 1024 * 1024, maxPages: 30 };
    assert.doesNotThrow(() => checkSize('a.pdf', 2 * 1024 * 1024, caps));
    assert.throws(
      () => checkSize('big.pdf', 3 * 1024 * 1024, caps),
      (e: unknown) => e instanceof DocumentError && e.reason === 'too_large' && e.message === 'big.pdf is 3.0 MB; documents are limited to 2.0 MB (setting stratus.documents.maxFileSizeMB).',
    );
  });

  it('asks for a page range only past the page cap', () => {
    assert.equal(needsPageRange(30, { maxBytes: 1, maxPages: 30 }), false);
    assert.equal(needsPageRange(31, { maxBytes: 1, maxPages: 30 }), true);
  });
});
