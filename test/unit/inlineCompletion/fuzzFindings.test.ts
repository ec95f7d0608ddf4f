// Counterexamples found by fuzzing ghost-text post-processing (issue 31, item 13), kept as plain
// examples: the same inputs without the answer's final line break were already handled.
import * as assert from 'node:assert/strict';
import { decideMode } from '../../../src/core/inlineCompletion/mode';
import { postProcess } from '../../../src/core/inlineCompletion/postProcess';

function run(prefix: string, suffix: string, raw: string): string | undefined {
  return postProcess({ raw, prefix, suffix, mode: decideMode(prefix, suffix), marker: '<CURSOR>' });
}

describe('core/inlineCompletion postProcess: inputs found by fuzzing', () => {
  it('an answer ending with a line break still drops the lines the suffix already has (`return result` once)', () => {
    const prefix = 'def area(r):\n    ';
    const suffix = '\n    return result\n';
    assert.equal(run(prefix, suffix, 'result = 3.14 * r * r\n    return result\n'), 'result = 3.14 * r * r');
    assert.equal(run(prefix, suffix, 'result = 3.14 * r * r\n    return result'), 'result = 3.14 * r * r', 'without the final line break: as before');
  });

  it('an answer ending with a line break still drops what the rest of the line already has (`foo(a,` not `foo(a,,`)', () => {
    assert.equal(run('foo(', ',', 'a,\n'), 'a');
    assert.equal(run('foo(', ',', 'a,'), 'a', 'without the final line break: as before');
  });
});
