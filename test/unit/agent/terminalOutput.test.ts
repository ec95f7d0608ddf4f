import * as assert from 'node:assert/strict';
import { headAndTail, plainTerminalText } from '../../../src/core/agent/terminalOutput';

describe('agent: terminal output for the model', () => {
  it('removes colours, titles and shell-integration marks', () => {
    assert.equal(plainTerminalText('\x1b]633;C\x07\x1b[32mhi\x1b[0m\r\n\x1b]0;title\x1b\\done\n'), 'hi\ndone\n');
  });

  it('keeps what a carriage return overwrote last (progress bars)', () => {
    assert.equal(plainTerminalText('10%\r50%\r100%\nnext'), '100%\nnext');
  });

  it('keeps short output whole', () => {
    assert.deepEqual(headAndTail('abc', 10), { text: 'abc', omitted: 0 });
  });

  it('keeps the head and tail of long output and says how much was cut', () => {
    const text = `${'a'.repeat(500)}${'m'.repeat(1000)}${'z'.repeat(500)}`;
    const cut = headAndTail(text, 1000);
    assert.equal(cut.omitted, 1000);
    assert.ok(cut.text.startsWith('a'.repeat(400)));
    assert.ok(cut.text.endsWith('z'.repeat(500)));
    assert.match(cut.text, /\[… 1000 characters of output left out …\]/);
  });
});
