import * as assert from 'node:assert/strict';
import { CURSOR_MARKER, editWindow, linesAround, markedWindow } from '../../../src/core/nextEdit/window';

const lines = (n: number): string => Array.from({ length: n }, (_, k) => `line ${k}`).join('\n');

describe('core/nextEdit editWindow', () => {
  it('takes whole lines around the cursor, up to the limits', () => {
    const text = lines(40);
    const cursor = text.indexOf('line 20') + 3;
    const w = editWindow(text, cursor, { linesAbove: 2, linesBelow: 3, maxChars: 10_000 });
    assert.ok(w);
    assert.equal(w.startLine, 18);
    assert.equal(w.endLine, 24);
    assert.equal(w.text, 'line 18\nline 19\nline 20\nline 21\nline 22\nline 23');
    assert.equal(text.slice(w.start, w.end), w.text);
    assert.equal(w.cursor, cursor - w.start);
  });

  it('is clamped at the start of the file', () => {
    const text = lines(10);
    const w = editWindow(text, 2, { linesAbove: 5, linesBelow: 2, maxChars: 10_000 });
    assert.deepEqual([w?.start, w?.startLine, w?.endLine, w?.text], [0, 0, 3, 'line 0\nline 1\nline 2']);
  });

  it('is clamped at the end of the file, which may end with a line break', () => {
    const text = `${lines(10)}\n`;
    const w = editWindow(text, text.length, { linesAbove: 1, linesBelow: 5, maxChars: 10_000 });
    assert.ok(w);
    assert.equal(w.end, text.length);
    assert.equal(w.endLine, 11);
    assert.equal(w.text, 'line 9\n');
    assert.equal(w.cursor, w.text.length);
  });

  it('drops the farthest lines (above first at equal distance) to stay under maxChars', () => {
    const text = lines(20);
    const cursor = text.indexOf('line 10');
    const w = editWindow(text, cursor, { linesAbove: 5, linesBelow: 5, maxChars: 7 * 4 + 3 });
    assert.ok(w);
    assert.ok(w.text.length <= 31);
    assert.equal(w.text, 'line 9\nline 10\nline 11\nline 12');
  });

  it('gives no window when the cursor line alone is over the limit (minified file)', () => {
    assert.equal(editWindow('x'.repeat(5_000), 10, { linesAbove: 3, linesBelow: 3, maxChars: 3_000 }), undefined);
  });

  it('keeps CRLF in the window text and excludes the last line\'s line end; the marked window uses \\n', () => {
    const text = 'a\r\nbc\r\nd\r\n';
    const w = editWindow(text, 4, { linesAbove: 0, linesBelow: 0, maxChars: 100 });
    assert.ok(w);
    assert.equal(w.text, 'bc');
    assert.equal(w.eol, '\r\n');
    const wide = editWindow(text, 4, { linesAbove: 1, linesBelow: 0, maxChars: 100 });
    assert.ok(wide);
    assert.equal(markedWindow(wide), `a\nb${CURSOR_MARKER}c`);
    assert.deepEqual(linesAround(text, w, 2), { above: ['a'], below: ['d', ''] });
  });
});
