import * as assert from 'node:assert/strict';
import { EditSession } from '../../../src/core/edit';
import { applyRowEdits, tokens, without } from './docModel';

const ORIGINAL = [
  '  function total(value) {',
  '    const tax = value * 0.2;',
  '    log("computing");',
  '    return value + tax;',
  '  }',
];
const REWRITE = [
  '  // Adds the tax.',
  '  function total(amount) {',
  '    const tax = amount * 0.2;',
  '    log("computing");',
  '    return amount + tax;',
  '  }',
];

/** Streams `text` token by token into a session over rows that start as the original; checks the layout at every step. */
function stream(original: readonly string[], text: string): { session: EditSession; rows: string[] } {
  const session = new EditSession(original);
  const rows = [...original];
  for (const t of tokens(text)) {
    applyRowEdits(rows, session.push(t));
    assert.equal(rows.length, session.rowCount(), 'the session knows how many rows it shows');
    assert.deepEqual(without(rows, session.decorations().added), [...original], 'without the added rows, the document is the original');
  }
  applyRowEdits(rows, session.end());
  assert.equal(rows.length, session.rowCount());
  return { session, rows };
}

describe('core/edit EditSession (live diff in the document, accept and reject)', () => {
  it('shows each hunk as removed lines then added lines, and the whole rewrite when every hunk is accepted', () => {
    const { session, rows } = stream(ORIGINAL, `\`\`\`js\n${REWRITE.join('\n')}\n\`\`\`\n`);
    const d = session.decorations();
    assert.deepEqual(without(rows, d.added), ORIGINAL);
    assert.deepEqual(without(rows, d.removed), REWRITE, 'without the removed rows, the document is the rewrite');
    assert.deepEqual(session.hunks().map((h) => [h.row, h.removed, h.added]), [[0, 2, 3], [6, 1, 1]]);
    assert.equal(session.done, false);
    applyRowEdits(rows, session.acceptAll());
    assert.deepEqual(rows, REWRITE);
    assert.deepEqual(session.finalLines(), REWRITE);
    assert.equal(session.done, true);
  });

  it('puts the original back when every hunk is rejected', () => {
    const { session, rows } = stream(ORIGINAL, REWRITE.join('\n'));
    applyRowEdits(rows, session.rejectAll());
    assert.deepEqual(rows, ORIGINAL);
    assert.deepEqual(session.finalLines(), ORIGINAL);
    assert.equal(session.done, true);
  });

  it('accepts one hunk and rejects another, in any order, the rows matching the final text', () => {
    for (const order of [[0, 1], [1, 0]]) {
      const { session, rows } = stream(ORIGINAL, REWRITE.join('\n'));
      for (const id of order) applyRowEdits(rows, id === 1 ? session.reject(id) : session.accept(id));
      const expected = [...REWRITE.slice(0, 4), '    return value + tax;', '  }'];
      assert.deepEqual(session.finalLines(), expected, `order ${order.join(',')}`);
      assert.deepEqual(rows, expected, `order ${order.join(',')}`);
      assert.deepEqual(session.decorations(), { removed: [], added: [] });
      assert.equal(session.done, true);
    }
  });

  it('shows the line in progress as soon as it differs from the original, before its end arrives', () => {
    const session = new EditSession(ORIGINAL);
    const rows = [...ORIGINAL];
    applyRowEdits(rows, session.push('  function total('));
    assert.deepEqual(session.decorations().added, [], 'a prefix of the original line is not a change yet');
    applyRowEdits(rows, session.push('amo'));
    assert.deepEqual(session.decorations().added, [{ row: 0, count: 1 }]);
    assert.equal(rows[0], '  function total(amo');
    assert.equal(rows.length, ORIGINAL.length + 1);
  });

  it('decides hunks only once closed; Reject All while streaming restores the original and stops', () => {
    const session = new EditSession(ORIGINAL);
    const rows = [...ORIGINAL];
    applyRowEdits(rows, session.push(`${REWRITE.slice(0, 4).join('\n')}\n    return am`));
    assert.deepEqual(session.accept(1), [], 'the open hunk cannot be decided');
    applyRowEdits(rows, session.accept(0));
    assert.deepEqual(rows.slice(0, 4), REWRITE.slice(0, 4));
    applyRowEdits(rows, session.rejectAll());
    assert.deepEqual(rows, [...REWRITE.slice(0, 4), ...ORIGINAL.slice(3)]);
    assert.equal(session.streaming, false);
    assert.deepEqual(session.push('more\n'), [], 'nothing is shown after a cancel');
    assert.equal(session.done, true);
  });

  it('strips chatter and fences, and moves the rewrite onto the range indentation', () => {
    const original = ['    if (x) {', '        y();', '    }'];
    const answer = 'Here is the updated code:\n```ts\nif (x) {\n    z();\n}\n```\nI replaced y with z.';
    const { session, rows } = stream(original, answer);
    assert.deepEqual(without(rows, session.decorations().removed), ['    if (x) {', '        z();', '    }']);
  });

  it('reports no change when the model gives the range back', () => {
    const { session, rows } = stream(ORIGINAL, ORIGINAL.join('\n'));
    assert.equal(session.changed, false);
    assert.equal(session.done, true);
    assert.deepEqual(rows, ORIGINAL);
  });

  it('keeps the rows consistent on a long rewrite with insertions, deletions and edits streamed by tokens', () => {
    const original = Array.from({ length: 300 }, (_, i) => (i % 7 === 0 ? '}' : `  step_${i}(value);`));
    const rewrite: string[] = [];
    for (const [i, line] of original.entries()) {
      if (i % 11 === 0) continue;
      if (i % 13 === 0) rewrite.push('  // note');
      rewrite.push(i % 5 === 0 ? line.replace('value', 'amount') : line);
    }
    const { session, rows } = stream(original, rewrite.join('\n'));
    assert.deepEqual(without(rows, session.decorations().removed), rewrite);
    applyRowEdits(rows, session.acceptAll());
    assert.deepEqual(rows, rewrite);
  });
});
