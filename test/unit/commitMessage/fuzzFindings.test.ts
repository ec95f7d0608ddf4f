import assert from 'node:assert/strict';
import { parseDiff } from '../../../src/core/commitMessage/diff';
import { buildCommitPrompt } from '../../../src/core/commitMessage/prompt';
import { summariseDiff } from '../../../src/core/commitMessage/summarise';
import { estimateMessageTokens } from '../../../src/core/inference/models/tokens';

// Counterexamples the property suite found (test/unit/properties/commitMessage.property.test.ts),
// kept as examples (issue 31, item 14).

/** A git diff of one modified file with one added line. */
function oneLineDiff(path: string): string {
  return [`diff --git a/${path} b/${path}`, 'index 1111111..2222222 100644', `--- a/${path}`, `+++ b/${path}`, '@@ -1,0 +1 @@', `+${path} changed`].join('\n');
}

describe('core/commitMessage fuzz findings', () => {
  it('a summary of 10 one-line diffs stays within its 260-character budget (each left-out file added ~22 uncounted characters: 508)', () => {
    const files = parseDiff(Array.from({ length: 10 }, (_, i) => oneLineDiff(`a${i}`)).join('\n'));
    const summary = summariseDiff(files, 260);
    assert.ok(summary.text.length <= 260, `${summary.text.length} characters`);
    // Every file is still accounted for: named, cut or counted.
    assert.equal(summary.bodiesLeftOut.length + summary.cut.length + summary.notNamed.length + files.filter((f) => summary.text.includes(`+${f.path} changed`)).length, 10);
  });

  it('the prompt for 250 changed files stays within a 6,560-token context by its own estimate (it reached ~8,300)', () => {
    const diff = Array.from({ length: 250 }, (_, i) => oneLineDiff(`src/${String(i).padStart(3, '0')}`.padEnd(32, 'x'))).join('\n');
    const prompt = buildCommitPrompt({ repositoryName: 'shop', source: 'staged', diff, ignored: new Set(), untracked: [], recentMessages: [], maxModelLen: 6560 });
    const tokens = prompt.messages.reduce((sum, m) => sum + estimateMessageTokens(m), 0) + prompt.maxTokens;
    assert.ok(tokens <= 6560, `${tokens} tokens`);
    const report = prompt.report;
    assert.equal(report.sent.length, 250);
    assert.equal(report.cut.length + report.bodiesLeftOut.length + report.notNamed.length, 250);
  });
});
