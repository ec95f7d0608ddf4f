import * as assert from 'node:assert/strict';
import { EarlyStop } from '../../../src/core/inlineCompletion/earlyStop';
import { decideMode } from '../../../src/core/inlineCompletion/mode';

function feed(stop: EarlyStop, deltas: string[]): { at: number; reason: string | undefined } {
  for (const [k, d] of deltas.entries()) {
    const reason = stop.push(d);
    if (reason) return { at: k, reason };
  }
  return { at: -1, reason: undefined };
}

describe('core/inlineCompletion EarlyStop', () => {
  it('single-line: decides at the first line break, even one the fence stripper holds back', () => {
    const stop = new EarlyStop({ kind: 'single' }, 'x = ', 64);
    assert.deepEqual(feed(stop, ['compute', '(a)', '\n', 'more', '\n']), { at: 2, reason: 'lineBreak' });
    assert.equal(stop.text(), 'compute(a)\n');
  });

  it('single-line: a fence header or a chatter line is not the line break', () => {
    const stop = new EarlyStop({ kind: 'single' }, 'x = ', 64);
    assert.deepEqual(feed(stop, ['Here is the completion:', '\n', '```', 'ts\n', 'value', '()', '\n']), { at: 6, reason: 'lineBreak' });
  });

  it('multi-line: decides when the block closed, not before', () => {
    const prefix = 'function f() {';
    const stop = new EarlyStop(decideMode(prefix, ''), prefix, 256);
    const deltas = ['\n', '  ', 'return', ' 1;', '\n', '}', '\n', 'function', ' g'];
    assert.deepEqual(feed(stop, deltas), { at: 6, reason: 'blockClosed' });
  });

  it('multi-line Python: decides at the first dedented character', () => {
    const prefix = 'def f(x):';
    const stop = new EarlyStop(decideMode(prefix, ''), prefix, 256);
    assert.deepEqual(feed(stop, ['\n', '    ', 'return', ' x', '\n', 'print', '(1)']), { at: 5, reason: 'blockClosed' });
  });

  it('stops after max tokens', () => {
    const prefix = 'function f() {';
    const stop = new EarlyStop(decideMode(prefix, ''), prefix, 3);
    assert.deepEqual(feed(stop, ['\n', '  a', '  b', '  c']), { at: 2, reason: 'maxTokens' });
    assert.equal(stop.stopReason, 'maxTokens');
  });

  it('returns the whole text, closing fence removed, when the stream ends undecided', () => {
    const stop = new EarlyStop({ kind: 'single' }, '', 64);
    feed(stop, ['```py\n', 'print(1)', '\n```']);
    assert.equal(stop.stopReason, 'lineBreak');
    const open = new EarlyStop(decideMode('if x:', ''), 'if x:', 64);
    feed(open, ['\n', '    y()', '\n```']);
    assert.equal(open.stopReason, undefined);
    assert.equal(open.text(), '\n    y()');
  });
});
