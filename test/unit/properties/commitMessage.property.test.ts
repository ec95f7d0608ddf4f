import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { FileDiff } from '../../../src/core/commitMessage/diff';
import { buildCommitPromptFromFiles, ContextTooSmallError, NothingToDescribeError } from '../../../src/core/commitMessage/prompt';
import { summariseDiff } from '../../../src/core/commitMessage/summarise';
import { estimateMessageTokens } from '../../../src/core/inference/models/tokens';
import { check } from './harness';

// The commit-message prompt is fitted to budgets computed from the model's context: whatever the
// staged changes (many files, long paths, long lines, reads cut short), it never goes over them.

const path = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.string({ minLength: 1, maxLength: 200 }),
  fc.array(fc.constantFrom('src', 'lib', 'a', 'très-long-dossier', 'x'.repeat(60)), { minLength: 1, maxLength: 6 }).map((parts) => `${parts.join('/')}.ts`),
);
const line = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ maxLength: 400 })).map((text) => `+${text.replace(/\n/g, ' ')}`);
const file: fc.Arbitrary<FileDiff> = fc.record({
  path,
  oldPath: fc.option(path, { nil: undefined }),
  status: fc.constantFrom('added', 'deleted', 'renamed', 'modified'),
  added: fc.nat(1_000_000),
  removed: fc.nat(1_000_000),
  lines: fc.array(line, { maxLength: 30 }),
  truncated: fc.boolean(),
}).map(({ lines, oldPath, ...rest }) => ({ ...rest, ...(oldPath !== undefined ? { oldPath } : {}), binary: false, hunks: lines.length > 0 ? [['@@ -1 +1 @@', ...lines].join('\n')] : [] }));

describe('properties: commit message budgets', () => {
  it('the diff summary never exceeds its budget, and accounts for every file', () => {
    check(
      fc.property(fc.array(file, { maxLength: 60 }), fc.nat(30_000), (files, budget) => {
        const summary = summariseDiff(files, budget);
        assert.ok(summary.text.length <= budget, `${summary.text.length} > ${budget}`);
        const named = summary.cut.length + summary.bodiesLeftOut.length + summary.notNamed.length;
        assert.ok(named <= files.length);
      }),
      400,
    );
  });

  it('the prompt never exceeds the model context by its own estimate (with the answer room), or says the context is too small', () => {
    check(
      fc.property(
        fc.array(file, { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 256, max: 70_000 }),
        fc.array(fc.string({ maxLength: 120 }), { maxLength: 25 }),
        fc.array(path, { maxLength: 30 }),
        fc.constantFrom('staged' as const, 'unstaged' as const),
        (files, maxModelLen, recentMessages, untracked, source) => {
          try {
            const prompt = buildCommitPromptFromFiles({ repositoryName: 'repo', source, ignored: new Set(), untracked, recentMessages, maxModelLen }, files);
            const tokens = prompt.messages.reduce((sum, m) => sum + estimateMessageTokens(m), 0) + prompt.maxTokens;
            assert.ok(tokens <= maxModelLen, `${tokens} > ${maxModelLen}`);
          } catch (error) {
            if (!(error instanceof ContextTooSmallError || error instanceof NothingToDescribeError)) throw error;
          }
        },
      ),
      150,
    );
  });
});
