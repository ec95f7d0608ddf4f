import * as assert from 'node:assert/strict';
import { diffText, splitKeepingEnds } from '../../../src/core/nextEdit/diff';
import { applyEdits } from '../../../src/core/nextEdit/text';

describe('core/nextEdit diffText', () => {
  it('an identical text gives no edit', () => {
    assert.deepEqual(diffText('a\nb\nc', 'a\nb\nc'), []);
    assert.deepEqual(diffText('', ''), []);
  });

  it('a pure insertion inside a line is one insertion of just the new characters', () => {
    const before = 'function total(items) {\n  return sum(items);\n}';
    const after = 'function total(items) {\n  return sum(items, 0);\n}';
    assert.deepEqual(diffText(before, after), [{ start: before.indexOf(');') , end: before.indexOf(');'), newText: ', 0' }]);
  });

  it('a pure insertion of whole lines is one insertion', () => {
    const before = 'a\nc\n';
    const after = 'a\nb\nc\n';
    assert.deepEqual(diffText(before, after), [{ start: 2, end: 2, newText: 'b\n' }]);
  });

  it('a deletion removes only the characters that go', () => {
    assert.deepEqual(diffText('let x = 1;\nlet y = 2;\nlet z = 3;', 'let x = 1;\nlet z = 3;'), [{ start: 11, end: 22, newText: '' }]);
    const [edit, ...more] = diffText('call(a, b, c)', 'call(a, c)');
    assert.deepEqual([edit?.end !== undefined && edit.end - edit.start, edit?.newText, more], [3, '', []]);
  });

  it('several changed places give several edits, in order, each narrowed to its characters', () => {
    const before = 'const items = load();\nlog("x");\nlog("y");\nfor (const i of items) use(i);\n';
    const after = 'const orders = load();\nlog("x");\nlog("y");\nfor (const i of orders) use(i);\n';
    const edits = diffText(before, after);
    assert.deepEqual(edits.map((e) => [before.slice(e.start, e.end), e.newText]), [['item', 'order'], ['item', 'order']]);
    assert.equal(applyEdits(before, edits), after);
  });

  it('changed lines that keep their count are narrowed line by line, not as one block', () => {
    const before = 'a(items);\nb(items);\n';
    const after = 'a(orders);\nb(orders);\n';
    assert.deepEqual(diffText(before, after).map((e) => [before.slice(e.start, e.end), e.newText]), [['item', 'order'], ['item', 'order']]);
  });

  it('a line end is part of its line: CRLF kept, a missing last line end is a change like any other', () => {
    const before = 'a\r\nb\r\nc';
    const after = 'a\r\nB\r\nc\r\nd';
    const edits = diffText(before, after);
    assert.equal(applyEdits(before, edits), after);
    assert.deepEqual(edits, [{ start: 3, end: 4, newText: 'B' }, { start: 7, end: 7, newText: '\r\nd' }]);
    assert.deepEqual(splitKeepingEnds('x\r\ny\n'), ['x\r\n', 'y\n']);
  });

  it('a rewrite of every line still applies exactly', () => {
    const before = 'one\ntwo\nthree';
    const after = 'uno\ndos\ntres\ncuatro';
    assert.equal(applyEdits(before, diffText(before, after)), after);
    assert.equal(applyEdits('', diffText('', 'x\ny')), 'x\ny');
    assert.equal(applyEdits('x\ny', diffText('x\ny', '')), '');
  });
});
