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
