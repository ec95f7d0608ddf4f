import * as assert from 'node:assert/strict';
import { FenceStripper } from '../../../src/core/inference/completions/fenceStripper';

function run(deltas: string[]): string {
  const stripper = new FenceStripper();
  return deltas.map((d) => stripper.push(d)).join('') + stripper.end();
}

describe('core/completion/FenceStripper', () => {
  it('passes plain text through unchanged', () => {
    assert.equal(run(['return a', ' + b;', '\n}']), 'return a + b;\n}');
  });

  it('removes a fence split across many deltas', () => {
    assert.equal(run(['`', '``', 'ts', '\nconst x', ' = 1;\n', '`', '``']), 'const x = 1;');
  });

  it('keeps backticks that are content', () => {
    assert.equal(run(['const s = `a`;', '\nlet t = `b`']), 'const s = `a`;\nlet t = `b`');
  });

  it('handles a whole answer in one delta and leading blank lines', () => {
    assert.equal(run(['\n```python\nprint(1)\n```\n']), 'print(1)');
  });
});
