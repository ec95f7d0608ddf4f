import * as assert from 'node:assert/strict';
import type { RecordedEdit } from '../../../src/core/nextEdit/editHistory';
import { copiesOutside, isStale, rejection, unrelatedAnswer } from '../../../src/core/nextEdit/rules';
import { toSuggestion, windowEdits, type NextEditDocument } from '../../../src/core/nextEdit/suggestion';
import { editWindow, type EditWindow } from '../../../src/core/nextEdit/window';

const TEXT = 'function total(orders) {\n  let sum = 0;\n  for (const o of items) sum += o;\n  return sum;\n}\n';

function doc(text = TEXT, cursor = text.indexOf('orders') + 6, version = 7): NextEditDocument {
  return { id: 'file:///ws/a.ts', version, languageId: 'typescript', relativePath: 'a.ts', text, cursor };
}

function windowOf(d: NextEditDocument): EditWindow {
  const w = editWindow(d.text, d.cursor, { linesAbove: 1, linesBelow: 2, maxChars: 1_000 });
  assert.ok(w);
  return w;
}

/** The user's last edit: `items` renamed to `orders` in the parameter. */
const RENAME: RecordedEdit = { documentId: 'file:///ws/a.ts', path: 'a.ts', start: TEXT.indexOf('orders'), oldText: 'items', newText: 'orders', at: 0 };

function suggestionFor(rewrite: (window: string) => string, d = doc()) {
  const w = windowOf(d);
  return toSuggestion(d, w, windowEdits(w, rewrite(w.text)));
}

describe('core/nextEdit rules', () => {
  it('accepts the follow-up edit and says where it is', () => {
    const s = suggestionFor((t) => t.replace('of items', 'of orders'));
    assert.equal(rejection(s, TEXT, RENAME), undefined);
    assert.equal(s.location, 'elsewhere');
    assert.deepEqual(s.edits.map((e) => [e.oldText, e.newText, e.range.start]), [['item', 'order', { line: 2, character: 18 }]]);
    assert.deepEqual(s.jumpTo, { line: 2, character: 18 });
  });

  it('a pure insertion at the cursor is offered as ghost text', () => {
    const d = doc(TEXT, TEXT.indexOf('0;') + 2);
    const s = suggestionFor((t) => t.replace('0;', '0; // total'), d);
    assert.equal(s.location, 'atCursor');
    assert.equal(s.ghostText, ' // total');
  });

  it('rejects a suggestion that changes nothing', () => {
    assert.equal(rejection(suggestionFor((t) => t), TEXT, RENAME), 'noOp');
  });

  it('rejects a suggestion that undoes the user\'s last edit, alone or with other changes', () => {
    assert.equal(rejection(suggestionFor((t) => t.replace('(orders)', '(items)')), TEXT, RENAME), 'undoesLastEdit');
    assert.equal(rejection(suggestionFor((t) => t.replace('(orders)', '(items)').replace('let sum', 'let total')), TEXT, RENAME), 'undoesLastEdit');
    const other: RecordedEdit = { ...RENAME, documentId: 'file:///ws/b.ts' };
    assert.equal(rejection(suggestionFor((t) => t.replace('(orders)', '(items)')), TEXT, other), undefined, 'an edit of another document is no reference');
  });

  it('sees the undo of an insertion and of a deletion, but not a follow-up that touches the edit', () => {
    const typed: RecordedEdit = { ...RENAME, start: 0, oldText: '', newText: 'function ' };
    assert.equal(rejection(suggestionFor((t) => t.replace('function ', '')), TEXT, typed), 'undoesLastEdit');
    const deleted: RecordedEdit = { ...RENAME, start: TEXT.indexOf(') {'), oldText: ': Order[]', newText: '' };
    assert.equal(rejection(suggestionFor((t) => t.replace('(orders)', '(orders: Order[])')), TEXT, deleted), 'undoesLastEdit');
    assert.equal(rejection(suggestionFor((t) => t.replace('(orders)', '(orders: Order[])')), TEXT, RENAME), undefined, 'typing on after the renamed word');
  });

  it('rejects an edit outside the window', () => {
    const s = suggestionFor((t) => t.replace('of items', 'of orders'));
    const moved = { ...s, edits: s.edits.map((e) => ({ ...e, start: e.start + 500, end: e.end + 500 })) };
    assert.equal(rejection(moved, TEXT, RENAME), 'outsideWindow');
  });

  it('sees an answer that copied the lines around the window into it', () => {
    const lines = TEXT.split('\n');
    const window = lines.slice(1, 3).join('\n');
    assert.equal(copiesOutside(`${lines[0]}\n${window}`, window, [lines[0] ?? ''], [lines[3] ?? '']), true, 'the line above, repeated');
    assert.equal(copiesOutside(`${window}\n${lines[3]}`, window, [lines[0] ?? ''], [lines[3] ?? '']), true, 'the line below, repeated');
    assert.equal(copiesOutside(`${window}\n}`, window, [], ['}']), false, 'a closing brace is no evidence');
    const above = ['// header', 'import { x } from "./x";', 'const y = x;'];
    assert.equal(copiesOutside(`${above.join('\n')}\n${window}`, window, above, []), true, 'several lines from above');
    assert.equal(copiesOutside(window.replace('items', 'orders'), window, [lines[0] ?? ''], [lines[3] ?? '']), false);
  });

  it('sees an answer that is no rewrite of the window; a rename on every line is one', () => {
    assert.equal(unrelatedAnswer('I cannot help with that.', TEXT), true);
    assert.equal(unrelatedAnswer(TEXT.replace(/sum/g, 'acc').replace('items', 'orders'), TEXT), false);
    assert.equal(unrelatedAnswer('x', 'let a = 1;'), false, 'a window too small to judge');
  });

  it('a suggestion is stale once the document changed under its window, not for a change after it', () => {
    const s = suggestionFor((t) => t.replace('of items', 'of orders'));
    assert.equal(isStale(s, { version: 7, text: TEXT }), false);
    assert.equal(isStale(s, { version: 8, text: `${TEXT}// more\n` }), false, 'typed after the window');
    assert.equal(isStale(s, { version: 8, text: TEXT.replace('let sum', 'let summ') }), true, 'typed in the window');
    assert.equal(isStale(s, { version: 8, text: `// head\n${TEXT}` }), true, 'the window moved');
    assert.equal(isStale(s, undefined), true, 'the document is gone');
  });
});
