import * as assert from 'node:assert/strict';
import { lineBreaks, moveLines, moveLinesSince, moveLinesThrough, type LineSpan, type TextChange } from '../../../src/core/edit/anchoredLines';

const at = (line: number, character = 0): { line: number; character: number } => ({ line, character });
const change = (start: [number, number], end: [number, number], text: string): TextChange => ({ start: at(...start), end: at(...end), text });
/** Lines 10-14 (a five-line function). */
const span: LineSpan = { firstLine: 10, lineCount: 5 };

describe('core/edit anchoredLines: whole lines that follow the document', () => {
  it('lines inserted above move them down, by the lines inserted', () => {
    assert.deepEqual(moveLines(span, change([2, 0], [2, 0], 'import a;\nimport b;\n')), { firstLine: 12, lineCount: 5 });
    assert.deepEqual(moveLines(span, change([10, 0], [10, 0], '// added\n')), { firstLine: 11, lineCount: 5 }, 'right before the first line');
    assert.deepEqual(moveLines(span, change([9, 7], [9, 7], '\nconst x = 1;')), { firstLine: 11, lineCount: 5 }, 'Enter at the end of the line above');
    assert.deepEqual(moveLines(span, change([3, 4], [3, 4], 'typed')), span, 'typing on a line above moves nothing');
  });

  it('lines deleted above move them up', () => {
    assert.deepEqual(moveLines(span, change([2, 0], [5, 0], '')), { firstLine: 7, lineCount: 5 });
    assert.deepEqual(moveLines(span, change([7, 0], [10, 0], '')), { firstLine: 7, lineCount: 5 }, 'up to the first line');
    assert.deepEqual(moveLines(span, change([8, 3], [9, 9], 'x')), { firstLine: 9, lineCount: 5 }, 'a join above');
  });

  it('changes below leave them', () => {
    assert.deepEqual(moveLines(span, change([15, 0], [15, 0], 'more\n')), span);
    assert.deepEqual(moveLines(span, change([20, 0], [30, 0], '')), span);
  });

  it('a change inside, or overlapping either end, makes them stale', () => {
    assert.equal(moveLines(span, change([12, 4], [12, 4], 'x')), 'stale', 'typed inside');
    assert.equal(moveLines(span, change([12, 0], [12, 0], 'line\n')), 'stale', 'a line inserted inside');
    assert.equal(moveLines(span, change([10, 0], [10, 0], 'prefix')), 'stale', 'text put before the first line\'s own text');
    assert.equal(moveLines(span, change([8, 0], [11, 2], '')), 'stale', 'a deletion from above into the lines');
    assert.equal(moveLines(span, change([14, 3], [16, 0], '')), 'stale', 'a deletion from the last line to below');
    assert.equal(moveLines(span, change([9, 4], [10, 0], '')), 'stale', 'the first line joined to the one above');
    assert.equal(moveLines(span, change([0, 0], [40, 0], 'all new')), 'stale', 'the whole document replaced');
  });

  it('CRLF: a \\r\\n is one line break', () => {
    assert.equal(lineBreaks('a\r\nb\r\nc\rd\n'), 4);
    assert.deepEqual(moveLines(span, change([0, 0], [0, 0], 'one\r\ntwo\r\n')), { firstLine: 12, lineCount: 5 });
    assert.deepEqual(moveLines(span, change([9, 5], [9, 5], '\r\n')), { firstLine: 11, lineCount: 5 });
    assert.deepEqual(moveLines(span, change([10, 0], [10, 0], 'x\r')), { firstLine: 11, lineCount: 5 }, 'a lone \r ends a line too');
  });

  it('own changes inside resize them; several changes apply in order; stale stays stale', () => {
    assert.deepEqual(moveLines(span, change([12, 0], [12, 0], 'a\nb\n'), { own: true }), { firstLine: 10, lineCount: 7 });
    assert.deepEqual(moveLines(span, change([11, 0], [14, 0], ''), { own: true }), { firstLine: 10, lineCount: 2 });
    assert.deepEqual(moveLines({ firstLine: 15, lineCount: 0 }, change([14, 8], [14, 8], '\nnew'), { own: true }), { firstLine: 15, lineCount: 1 }, 'a row added after the document\'s last line');
    assert.deepEqual(moveLines(span, change([2, 0], [2, 0], 'x\n'), { own: true }), { firstLine: 11, lineCount: 5 }, 'a change well above, made while an own edit runs, still moves them');
    assert.deepEqual(moveLines(span, change([16, 0], [16, 0], 'x\n'), { own: true }), span, 'and one well below leaves them');
    assert.deepEqual(moveLinesThrough(span, [change([20, 0], [20, 0], 'x\n'), change([1, 0], [1, 0], 'y\n'), change([0, 0], [1, 0], '')]), span);
    assert.equal(moveLinesThrough(span, [change([11, 0], [11, 1], ''), change([0, 0], [0, 0], 'y\n')]), 'stale');
  });

  it('an empty place (no lines) moves with lines above and goes stale when written at', () => {
    const empty: LineSpan = { firstLine: 4, lineCount: 0 };
    assert.deepEqual(moveLines(empty, change([1, 0], [1, 0], 'x\n')), { firstLine: 5, lineCount: 0 });
    assert.deepEqual(moveLines(empty, change([4, 0], [4, 0], 'x\n')), { firstLine: 5, lineCount: 0 });
    assert.equal(moveLines(empty, change([4, 0], [4, 0], 'x')), 'stale');
  });
});

describe('core/edit anchoredLines: lines chosen in an earlier version (a quick fix offered, then run)', () => {
  const journal = [
    { from: 3, to: 4, changes: [change([0, 0], [0, 0], '// one\n')] },
    { from: 4, to: 5, changes: [change([0, 0], [0, 0], '// two\n'), change([30, 0], [30, 0], 'tail\n')] },
  ];

  it('moves them through every event since that version', () => {
    assert.deepEqual(moveLinesSince(span, 3, 5, journal), { firstLine: 12, lineCount: 5 });
    assert.deepEqual(moveLinesSince(span, 4, 5, journal), { firstLine: 11, lineCount: 5 });
    assert.deepEqual(moveLinesSince(span, 5, 5, journal), span, 'nothing changed since');
  });

  it('is stale when the journal does not reach back that far, has a gap, or a change touched them', () => {
    assert.equal(moveLinesSince(span, 1, 5, journal), 'stale', 'older than the journal');
    assert.equal(moveLinesSince(span, 3, 7, journal), 'stale', 'events missing at the end');
    assert.equal(moveLinesSince(span, 3, 5, [journal[0]!, { ...journal[1]!, from: 9 }]), 'stale', 'a gap');
    assert.equal(moveLinesSince(span, 3, 4, [{ from: 3, to: 4, changes: [change([11, 0], [11, 3], '')] }]), 'stale');
  });
});
