import assert from 'node:assert/strict';
import { hostGrep } from '../../harness/grep.mjs';

/** What mocha does with a string grep (Mocha#grep): it is a regular expression. */
const runs = (grep: string, fullTitle: string): boolean => grep === '' || new RegExp(grep).test(fullTitle);

describe('host grep: leaving out the tests an install cannot run', () => {
  const excluded = ['@stratus answers a streamed request from the sandbox', 'cancelling @stratus mid-stream (closes)'];

  it('passes the user grep through when nothing is excluded', () => {
    assert.equal(hostGrep('', []), '');
    assert.equal(hostGrep('chat|account', []), 'chat|account');
  });

  it('leaves out the excluded titles (matched literally) and runs everything else', () => {
    const grep = hostGrep('', excluded);
    assert.equal(runs(grep, 'inference in the host (against the sandbox) @stratus answers a streamed request from the sandbox'), false);
    assert.equal(runs(grep, 'inference in the host cancelling @stratus mid-stream (closes) the request'), false);
    assert.equal(runs(grep, 'inference in the host answers sendRequest with streamed text'), true);
    assert.equal(runs(grep, 'activation activates and reports its activation time'), true);
    assert.equal(runs(grep, 'inference cancelling @stratus mid-stream closes'), true, 'the parentheses are literal, not a group');
  });

  it('keeps the user grep as a regular expression on top of the exclusion', () => {
    const grep = hostGrep('inference|activat', excluded);
    assert.equal(runs(grep, 'inference in the host answers sendRequest with streamed text'), true);
    assert.equal(runs(grep, 'activation registers every command'), true);
    assert.equal(runs(grep, 'console in the host signs in'), false);
    assert.equal(runs(grep, 'inference in the host @stratus answers a streamed request from the sandbox'), false);
  });
});
