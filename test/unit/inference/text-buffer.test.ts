import assert from 'node:assert/strict';
import { TextBuffer } from '../../../src/core/inference/chat/textBuffer';

describe('inference/chat/TextBuffer', () => {
  it('returns the deltas joined in order across block boundaries', () => {
    for (const count of [0, 1, 511, 512, 513, 1024, 1500]) {
      const buffer = new TextBuffer();
      const expected: string[] = [];
      for (let i = 0; i < count; i++) {
        const delta = `${i},`;
        buffer.append(delta);
        expected.push(delta);
      }
      assert.equal(buffer.toString(), expected.join(''), `${count} deltas`);
    }
  });

  it('can be read mid-stream without losing what comes after', () => {
    const buffer = new TextBuffer();
    for (let i = 0; i < 600; i++) buffer.append('a');
    assert.equal(buffer.toString().length, 600);
    for (let i = 0; i < 600; i++) buffer.append('b');
    assert.equal(buffer.toString(), 'a'.repeat(600) + 'b'.repeat(600));
  });
});
