import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { diffText } from '../../../src/core/nextEdit/diff';
import { windowEdits } from '../../../src/core/nextEdit/suggestion';
import { applyEdits } from '../../../src/core/nextEdit/text';
import { editWindow } from '../../../src/core/nextEdit/window';
import { check } from '../properties/harness';

/** Short lines from a small alphabet, so random texts share lines and characters. */
const line = fc.oneof(fc.constantFrom('', '}', '  return x;', '\tif (a) {', 'const items = [];', 'foo(bar)'), fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\t', '(', ')'), maxLength: 6 }));
const eol = fc.constantFrom('\n', '\r\n');
const text = fc.tuple(fc.array(fc.tuple(line, eol), { maxLength: 12 }), line).map(([lines, last]) => lines.map(([l, e]) => l + e).join('') + last);

describe('core/nextEdit diff properties', () => {
  it('applying the edits to the text gives the rewritten text; edits are ordered, disjoint, inside, never empty', () => {
    check(
      fc.property(text, text, (before, after) => {
        const edits = diffText(before, after);
        assert.equal(applyEdits(before, edits), after);
        let at = 0;
        for (const e of edits) {
          assert.ok(e.start >= at && e.end >= e.start && e.end <= before.length, JSON.stringify(edits));
          assert.ok(e.end > e.start || e.newText !== '', 'no empty edit');
          at = e.end;
        }
        if (before === after) assert.deepEqual(edits, []);
      }),
      400,
    );
  });

  it('the window edits, applied to the document, put the rewritten window in place of the window', () => {
    check(
      fc.property(text, text, fc.nat(), (doc, rewritten, cursorSeed) => {
        const window = editWindow(doc, cursorSeed % (doc.length + 1), { linesAbove: 3, linesBelow: 3, maxChars: 10_000 });
        assert.ok(window);
        const result = applyEdits(doc, windowEdits(window, rewritten));
        assert.equal(result, doc.slice(0, window.start) + rewritten + doc.slice(window.end));
      }),
      300,
    );
  });
});

/** A character of a small alphabet that holds surrogate pairs sharing their high (or low) half. */
const unit = fc.constantFrom('a', 'b', '\n', '😀', '😁', '😂', '🙂', '𝒜', 'é', ' ');
const unicodeText = fc.array(unit, { maxLength: 16 }).map((units) => units.join(''));

/** True when `offset` falls between the two halves of a surrogate pair of `text`. */
function splitsPair(text: string, offset: number): boolean {
  if (offset <= 0 || offset >= text.length) return false;
  const high = text.charCodeAt(offset - 1);
  const low = text.charCodeAt(offset);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}

/** True when `text` holds a half of a surrogate pair without its other half. */
function hasLoneSurrogate(text: string): boolean {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

describe('core/nextEdit diff properties: code points', () => {
  it('an emoji swapped for one with the same high surrogate is one whole character replaced, not half of one', () => {
    // 😀 is \uD83D\uDE00 and 😁 is \uD83D\uDE01: a trim by code units kept the shared \uD83D.
    const edits = diffText('const face = "😀";\n', 'const face = "😁";\n');
    assert.deepEqual(edits, [{ start: 14, end: 16, newText: '😁' }]);
    // The same low surrogate, different high ones (𝒜 is \uD835\uDC9C, 🂜 is \uD83C\uDC9C).
    assert.deepEqual(diffText('x𝒜y', 'x🂜y'), [{ start: 1, end: 3, newText: '🂜' }]);
  });

  it('any pair of strings: every edit starts and ends on a code point boundary, its new text is whole code points, and the edits reproduce the target', () => {
    check(
      fc.property(unicodeText, unicodeText, (before, after) => {
        const edits = diffText(before, after);
        assert.equal(applyEdits(before, edits), after);
        for (const e of edits) {
          assert.ok(!splitsPair(before, e.start) && !splitsPair(before, e.end), JSON.stringify({ before, after, edits }));
          assert.ok(!hasLoneSurrogate(e.newText), JSON.stringify({ before, after, edits }));
        }
      }),
      500,
    );
  });
});
