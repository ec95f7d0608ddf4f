import assert from 'node:assert/strict';
import { cleanCommitMessage } from '../../../src/core/commitMessage/cleanup';

describe('core/commitMessage output cleanup', () => {
  it('removes thinking, a preamble, a wrapping fence or quotes, and keeps subject, blank line, body', () => {
    assert.equal(cleanCommitMessage('<think>the diff adds x</think>\nHere is the commit message:\n\n```\nAdd x\n- detail one   \n\n\n- detail two\n```\n'), 'Add x\n\n- detail one\n\n- detail two');
    assert.equal(cleanCommitMessage('Commit message: "Fix the parser"'), 'Fix the parser');
    assert.equal(cleanCommitMessage('fix(core): keep "quotes" inside'), 'fix(core): keep "quotes" inside');
    assert.equal(cleanCommitMessage('\r\nAdd y\r\nBecause z.\r\n'), 'Add y\n\nBecause z.');
  });

  it('while streaming, holds back an unclosed think block and a fence still opening, and keeps the trailing newline', () => {
    assert.equal(cleanCommitMessage('<think>still thinking', true), '');
    assert.equal(cleanCommitMessage('``', true), '');
    assert.equal(cleanCommitMessage('```text\nAdd', true), 'Add');
    assert.equal(cleanCommitMessage('Add the\n', true), 'Add the\n');
    assert.equal(cleanCommitMessage('"Add', true), '"Add', 'an opening quote alone is not removed before the message ends');
  });
});
