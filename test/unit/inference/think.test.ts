import assert from 'node:assert/strict';
import { splitThinking, ThinkSplitter } from '../../../src/core/inference';

function run(deltas: readonly string[]): { text: string; thinking: string } {
  let text = '';
  let thinking = '';
  const s = new ThinkSplitter((kind, chunk) => {
    if (kind === 'text') text += chunk;
    else thinking += chunk;
  });
  for (const d of deltas) s.push(d);
  s.flush();
  return { text, thinking };
}

describe('inference/chat think splitting', () => {
  const content = 'Pre <think>step 1, a<b</think>\n\nAnswer: x < y <thin and <think>more</think> end';

  it('splits a whole string', () => {
    assert.deepEqual(splitThinking(content), {
      text: 'Pre Answer: x < y <thin and end',
      thinking: 'step 1, a<bmore',
    });
  });

  it('gives the same result for every way of cutting the content into two or three deltas', () => {
    const expected = splitThinking(content);
    for (let i = 0; i <= content.length; i++) {
      assert.deepEqual(run([content.slice(0, i), content.slice(i)]), expected, `cut at ${i}`);
      for (let j = i; j <= content.length; j += 7) {
        assert.deepEqual(run([content.slice(0, i), content.slice(i, j), content.slice(j)]), expected, `cut at ${i},${j}`);
      }
    }
  });

  it('gives the same result one character at a time', () => {
    assert.deepEqual(run([...content]), splitThinking(content));
  });

  it('releases a held-back "<" that turned out not to be a tag', () => {
    assert.deepEqual(run(['a <', 'b']), { text: 'a <b', thinking: '' });
    assert.deepEqual(run(['ends with <thi']), { text: 'ends with <thi', thinking: '' });
  });

  it('treats an unterminated think block as thinking', () => {
    assert.deepEqual(run(['<think>still going']), { text: '', thinking: 'still going' });
  });

  it('passes plain text through untouched', () => {
    assert.deepEqual(run(['Hello', ' ', 'world\n']), { text: 'Hello world\n', thinking: '' });
  });
});
