import * as assert from 'node:assert/strict';
import { EditHistory, type HistoryLimits } from '../../../src/core/nextEdit/editHistory';
import { renderEdits } from '../../../src/core/nextEdit/renderEdits';

const DOC = 'file:///ws/src/a.ts';
const OTHER = 'file:///ws/src/b.ts';

/** A history on a clock the test moves; `type` inserts text one character at a time, as typing does. */
function setup(text: string, limits: Partial<HistoryLimits> = {}) {
  let now = 1_000;
  const history = new EditHistory(() => now, limits);
  history.open(DOC, 'src/a.ts', text);
  const type = (offset: number, chars: string, id = DOC): void => {
    for (const [k, c] of [...chars].entries()) history.change(id, [{ offset: offset + k, length: 0, text: c }]);
  };
  return { history, type, tick: (ms: number) => (now += ms) };
}

const plain = (h: EditHistory, id = DOC) => h.edits(id).map(({ start, oldText, newText }) => ({ start, oldText, newText }));

describe('core/nextEdit EditHistory', () => {
  it('keeps its own copy of the text, so it knows what a change removed', () => {
    const { history } = setup('const items = 1;');
    history.change(DOC, [{ offset: 6, length: 5, text: 'orders' }]);
    assert.equal(history.text(DOC), 'const orders = 1;');
    assert.deepEqual(plain(history), [{ start: 6, oldText: 'items', newText: 'orders' }]);
  });

  it('merges typing into one edit (adjacent changes), and a fix of it', () => {
    const { history, type } = setup('f();\n');
    type(2, 'a, b');
    history.change(DOC, [{ offset: 5, length: 1, text: '' }]); // Backspace on "b"
    type(5, 'c');
    assert.deepEqual(plain(history), [{ start: 2, oldText: '', newText: 'a, c' }]);
  });

  it('merges a change on one of the latest edit\'s lines, not one on another line', () => {
    const { history } = setup('let a = 1;\nlet b = 2;\n');
    history.change(DOC, [{ offset: 4, length: 1, text: 'x' }]);
    history.change(DOC, [{ offset: 8, length: 1, text: '9' }]);
    assert.deepEqual(plain(history), [{ start: 4, oldText: 'a = 1', newText: 'x = 9' }]);
    history.change(DOC, [{ offset: 15, length: 1, text: 'y' }]);
    assert.equal(history.edits(DOC).length, 2);
  });

  it('a word selected and retyped inside a block just typed is a new edit (a rename), and the typing after it merges into it', () => {
    const { history, type } = setup('');
    type(0, 'function scale(count) {\n  return count * 2;\n}\n');
    assert.equal(history.edits(DOC).length, 1, 'the block typed is one edit');
    const at = 'function scale('.length;
    history.change(DOC, [{ offset: at, length: 5, text: 't' }]); // "count" selected, "t" typed over it
    type(at + 1, 'otal');
    assert.deepEqual(plain(history), [{ start: at, oldText: 'count', newText: 'total' }], 'the rename, not the block with the new name');
    const hunks = renderEdits(history.edits(), { textOf: (id) => history.text(id) });
    assert.match(hunks.join(''), /-function scale\(count\) \{\n\+function scale\(total\) \{\n/);
  });

  it('a suggestion accepted at the end of the typing (its word replaced up to the end) stays in the same edit', () => {
    const { history, type } = setup('\n');
    type(0, 'const x = fooB');
    history.change(DOC, [{ offset: 10, length: 4, text: 'fooBar' }]);
    assert.deepEqual(plain(history), [{ start: 0, oldText: '', newText: 'const x = fooBar' }]);
  });

  it('a suggestion accepted inside an auto-closed bracket (`ba` → `bar`, `)` after it) stays in the typed block', () => {
    const { history, type } = setup('\n');
    type(0, 'foo');
    history.change(DOC, [{ offset: 3, length: 0, text: '()' }]); // "(" typed, ")" auto-closed
    type(4, 'ba');
    history.change(DOC, [{ offset: 4, length: 2, text: 'bar' }]); // IntelliSense: "ba" → "bar"
    assert.deepEqual(plain(history), [{ start: 0, oldText: '', newText: 'foo(bar)' }], 'one block typed, no edit of an existing line');
    assert.doesNotMatch(renderEdits(history.edits(), { textOf: (id) => history.text(id) }).join(''), /-foo\(ba\)/);
  });

  it('a fuzzy suggestion accepted at the caret (`gEBI` → `getElementById`, `)` after it) stays in the typed block', () => {
    const { history, type } = setup('\n');
    type(0, 'f');
    history.change(DOC, [{ offset: 1, length: 0, text: '()' }]);
    type(2, 'gEBI');
    history.change(DOC, [{ offset: 2, length: 4, text: 'getElementById' }]);
    assert.deepEqual(plain(history), [{ start: 0, oldText: '', newText: 'f(getElementById)' }]);
  });

  it('forgets an edit that ends where it began (typed, then deleted)', () => {
    const { history, type } = setup('x\n');
    type(1, 'ab');
    history.change(DOC, [{ offset: 1, length: 2, text: '' }]);
    assert.deepEqual(plain(history), []);
  });

  it('moves the edits after a change, forgets an older edit a change rewrote, keeps time order', () => {
    const { history, tick } = setup('one\ntwo\nthree\nfour\n');
    history.change(DOC, [{ offset: 14, length: 4, text: 'FOUR' }]);
    tick(10);
    history.change(DOC, [{ offset: 8, length: 5, text: 'THREE' }]);
    tick(10);
    history.change(DOC, [{ offset: 0, length: 0, text: 'zero\n' }]);
    assert.deepEqual(plain(history), [
      { start: 19, oldText: 'four', newText: 'FOUR' },
      { start: 13, oldText: 'three', newText: 'THREE' },
      { start: 0, oldText: '', newText: 'zero\n' },
    ]);
    tick(10);
    history.change(DOC, [{ offset: 13, length: 10, text: 'x' }]); // over THREE (not the latest) and FOUR
    assert.deepEqual(plain(history), [
      { start: 0, oldText: '', newText: 'zero\n' },
      { start: 13, oldText: 'THREE\nFOUR', newText: 'x' },
    ]);
    assert.equal(history.text(DOC), 'zero\none\ntwo\nx\n');
  });

  it('is bounded in count, total size and age; an edit over the size limit is not kept', () => {
    const { history, tick } = setup(`${'x\n'.repeat(50)}`, { maxEdits: 3, maxTotalChars: 1_000, maxEditChars: 40, maxAgeMs: 60_000 });
    for (let k = 0; k < 5; k++) history.change(DOC, [{ offset: k * 4, length: 1, text: 'y' }]);
    assert.deepEqual(plain(history).map((e) => e.start), [8, 12, 16], 'the 3 newest');
    history.change(DOC, [{ offset: 40, length: 0, text: 'z'.repeat(41) }]);
    assert.equal(history.edits(DOC).length, 3, 'a paste over maxEditChars is not an edit to follow');
    tick(60_001);
    assert.deepEqual(plain(history), [], 'older than maxAgeMs');
  });

  it('bounds the total characters, dropping the oldest', () => {
    const { history } = setup(`${'x\n'.repeat(20)}`, { maxTotalChars: 25, maxEditChars: 20 });
    history.change(DOC, [{ offset: 0, length: 1, text: 'a'.repeat(10) }]);
    history.change(DOC, [{ offset: 14, length: 1, text: 'b'.repeat(10) }]);
    history.change(DOC, [{ offset: 28, length: 1, text: 'c'.repeat(10) }]);
    assert.deepEqual(plain(history).map((e) => e.newText[0]), ['b', 'c']);
  });

  it('forgets a closed document, ignores untracked ones, and tracks per document', () => {
    const { history } = setup('a');
    history.open(OTHER, 'src/b.ts', 'b');
    history.change(OTHER, [{ offset: 1, length: 0, text: '!' }]);
    history.change(DOC, [{ offset: 0, length: 1, text: 'A' }]);
    history.change('file:///ws/untracked.ts', [{ offset: 0, length: 0, text: 'x' }]);
    assert.deepEqual(history.edits().map((e) => e.path), ['src/b.ts', 'src/a.ts']);
    assert.equal(history.lastEdit(OTHER)?.newText, '!');
    history.close(DOC);
    assert.equal(history.tracks(DOC), false);
    assert.deepEqual(history.edits().map((e) => e.path), ['src/b.ts']);
  });

  it('opened again with another text (reloaded from disk), a document starts afresh', () => {
    const { history } = setup('a');
    history.change(DOC, [{ offset: 1, length: 0, text: 'b' }]);
    history.open(DOC, 'src/a.ts', 'ab');
    assert.equal(history.edits(DOC).length, 1, 'the same text: the edits still hold');
    history.open(DOC, 'src/a.ts', 'other');
    assert.deepEqual(history.edits(DOC), []);
    assert.equal(history.text(DOC), 'other');
  });

  it('stops tracking a document over maxDocumentChars', () => {
    const { history } = setup('small', { maxDocumentChars: 10 });
    history.change(DOC, [{ offset: 5, length: 0, text: ' and now large' }]);
    assert.equal(history.tracks(DOC), false);
    assert.deepEqual(history.edits(), []);
  });

  it('renders edits as small unified-diff hunks, oldest first, one header per run of the same file, ignored files left out', () => {
    const { history, tick } = setup('function total(items) {\n  return items.length;\n}\n');
    history.open(OTHER, 'src/b.ts', 'total(list);\n');
    history.change(DOC, [{ offset: 15, length: 5, text: 'orders' }]);
    tick(5);
    history.change(DOC, [{ offset: 25, length: 0, text: '  const n = 0;\n' }]);
    tick(5);
    history.change(OTHER, [{ offset: 6, length: 4, text: 'orders' }]);
    const textOf = (id: string) => history.text(id);
    const hunks = renderEdits(history.edits(), { textOf });
    assert.deepEqual(hunks, [
      '--- src/a.ts\n+++ src/a.ts\n@@ -1,1 +1,1 @@\n-function total(items) {\n+function total(orders) {\n',
      '@@ -2,0 +2,1 @@\n+  const n = 0;\n',
      '--- src/b.ts\n+++ src/b.ts\n@@ -1,1 +1,1 @@\n-total(list);\n+total(orders);\n',
    ]);
    assert.deepEqual(renderEdits(history.edits(), { textOf, includeDocument: (id) => id !== OTHER }).length, 2);
  });

  it('multi-root: two documents with the same relative path are told apart by id (a header each, gated each)', () => {
    const A = 'file:///A/config.ts';
    const B = 'file:///B/config.ts';
    const history = new EditHistory(() => 1_000);
    history.open(A, 'config.ts', 'port = 1;\n');
    history.open(B, 'config.ts', 'secret = 1;\n');
    history.change(A, [{ offset: 7, length: 1, text: '2' }]);
    history.change(B, [{ offset: 9, length: 1, text: '2' }]);
    const textOf = (id: string) => history.text(id);
    assert.deepEqual(renderEdits(history.edits(), { textOf }), [
      '--- config.ts\n+++ config.ts\n@@ -1,1 +1,1 @@\n-port = 1;\n+port = 2;\n',
      '--- config.ts\n+++ config.ts\n@@ -1,1 +1,1 @@\n-secret = 1;\n+secret = 2;\n',
    ], 'a header for each document, though their paths are equal');
    assert.doesNotMatch(renderEdits(history.edits(), { textOf, includeDocument: (id) => id === A }).join(''), /secret/, 'the gate refuses B, not A');
  });

  it('cuts a long hunk with a note', () => {
    const { history } = setup('start\n');
    history.change(DOC, [{ offset: 6, length: 0, text: Array.from({ length: 12 }, (_, k) => `line ${k}\n`).join('') }]);
    const [hunk] = renderEdits(history.edits(), { textOf: (id) => history.text(id), maxHunkLines: 4 });
    assert.match(hunk ?? '', /^@@ -2,0 \+2,12 @@\n\+line 0\n\+line 1\n\+line 2\n\+line 3\n\+… \(8 more lines\)\n$/m);
  });
});
