import assert from 'node:assert/strict';
import { detectStyle, styleInstructions, subjectsOf } from '../../../src/core/commitMessage/style';

describe('core/commitMessage style detection', () => {
  it('detects Conventional Commits from a majority of recent subjects, with types and scopes by frequency, merges left out', () => {
    const style = detectStyle(subjectsOf([
      'feat(chat): stream answers\n\nLonger body.',
      'Merge branch \'main\' into topic',
      'fix(usage): count reasoning tokens once',
      'fix: handle empty diff',
      'docs: explain the walkthrough',
      'Update README',
      'feat(chat)!: drop the old protocol',
    ]));
    assert.equal(style.conventional, true);
    assert.deepEqual(style.types, ['feat', 'fix', 'docs']);
    assert.deepEqual(style.scopes, ['chat', 'usage']);
    assert.equal(style.capitalised, false);
    assert.equal(style.trailingPeriod, false);
    assert.equal(style.examples.length, 5);
    assert.ok(!style.examples.some((s) => s.startsWith('Merge')));
    const text = styleInstructions(style).join('\n');
    assert.match(text, /Conventional Commits: write the subject as "type\(scope\): summary" with one of the types it uses \(feat, fix, docs\); scopes it uses: chat, usage\./);
    assert.match(text, /lower-case letter/);
  });

  it('claims no style from a mixed history or from fewer than three subjects', () => {
    const mixed = detectStyle(['feat: a', 'Add b', 'Fix c', 'chore: d']);
    assert.equal(mixed.conventional, false);
    assert.deepEqual(mixed.types, []);
    const young = detectStyle(['feat: first', 'fix: second']);
    assert.equal(young.conventional, false);
    assert.deepEqual(styleInstructions(young), []);
    assert.deepEqual(styleInstructions(detectStyle([])), []);
  });

  it('reads capitals, trailing periods and a ticket prefix', () => {
    const style = detectStyle(['[PAY-12] Add refunds.', '[PAY-9] Fix rounding.', '[PAY-7] Remove dead code.', 'Tidy.']);
    assert.equal(style.conventional, false);
    assert.equal(style.capitalised, true);
    assert.equal(style.trailingPeriod, true);
    assert.equal(style.ticketPrefix, '[PAY-12]');
    const text = styleInstructions(style).join('\n');
    assert.match(text, /ticket reference such as "\[PAY-12\]"; keep that form if the changes name a ticket, never invent one/);
    assert.match(text, /capital letter/);
    assert.match(text, /End the subject with a period/);
  });
});
