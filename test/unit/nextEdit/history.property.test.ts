import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseAnswer } from '../../../src/core/nextEdit/answer';
import { EditHistory } from '../../../src/core/nextEdit/editHistory';
import { renderEdits } from '../../../src/core/nextEdit/renderEdits';
import { windowEdits } from '../../../src/core/nextEdit/suggestion';
import { applyEdits } from '../../../src/core/nextEdit/text';
import { editWindow } from '../../../src/core/nextEdit/window';
import { check, weirdString } from '../properties/harness';

const ID = 'file:///ws/a.ts';
const piece = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', '\r\n', '\t', '{', '}'), maxLength: 6 });
const change = fc.record({ offset: fc.nat(60), length: fc.nat(6), text: piece });

describe('core/nextEdit recorder and answer properties', () => {
  it('the recorder\'s text follows the changes, and every edit it keeps holds its new text where it says', () => {
    check(
      fc.property(piece, fc.array(fc.tuple(change, fc.nat(3_000)), { maxLength: 30 }), (start, changes) => {
        let now = 0;
        const history = new EditHistory(() => now, { maxEdits: 5, maxTotalChars: 40, maxEditChars: 20 });
        history.open(ID, 'a.ts', start);
        let text = start;
        for (const [c, gap] of changes) {
          now += gap;
          const offset = Math.min(c.offset, text.length);
          const end = Math.min(offset + c.length, text.length);
          text = text.slice(0, offset) + c.text + text.slice(end);
          history.change(ID, [{ offset, length: end - offset, text: c.text }]);
          assert.equal(history.text(ID), text);
          const edits = history.edits(ID);
          assert.ok(edits.length <= 5);
          for (const e of edits) {
            assert.equal(text.slice(e.start, e.start + e.newText.length), e.newText, JSON.stringify(e));
            assert.notEqual(e.oldText, e.newText);
          }
          assert.deepEqual(edits.map((e) => e.at), [...edits.map((e) => e.at)].sort((a, b) => a - b), 'time-ordered');
          renderEdits(edits, { textOf: (id) => history.text(id) });
        }
      }),
      300,
    );
  });

  it('any answer parses to a rewritten window or to nothing, and the edits rebuild what it parsed to', () => {
    const doc = 'function total(items) {\r\n\tlet sum = 0;\r\n\treturn sum;\r\n}\r\n';
    const window = editWindow(doc, 10);
    assert.ok(window);
    check(
      fc.property(fc.oneof(weirdString, fc.string({ maxLength: 80 }), fc.constantFrom('```\n', '<window>', '</window>\n```', '<CURSOR>')), fc.array(fc.string({ maxLength: 20 }), { maxLength: 4 }), (head, rest) => {
        const raw = [head, ...rest].join('\n');
        const parsed = parseAnswer(raw, window);
        if (parsed === undefined) return;
        assert.equal(applyEdits(doc, windowEdits(window, parsed)), doc.slice(0, window.start) + parsed + doc.slice(window.end));
      }),
      300,
    );
  });
});
