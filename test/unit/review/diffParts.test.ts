import assert from 'node:assert/strict';
import type { FileDiff } from '../../../src/core/commitMessage/diff';
import { numberDiff, splitIntoParts } from '../../../src/core/review/diffParts';
import { matchPath, placeFindings } from '../../../src/core/review/placement';
import { locateLine } from '../../../src/core/review/relocation';
import { partBudgetChars, planReview, REVIEW_SYSTEM } from '../../../src/core/review/prompt';
import { estimateMessageTokens } from '../../../src/core/inference/models/tokens';

function file(path: string, hunks: string[]): FileDiff {
  return { path, status: 'modified', binary: false, added: 0, removed: 0, hunks };
}

const CART = file('src/cart.ts', ['@@ -10,4 +10,5 @@ export function total()\n const a = 1;\n-const b = 2;\n+const b = 3;\n+const c = 4;\n const d = 5;\n\\ No newline at end of file']);

/** The diff rows (not headers) of all parts, in order, without their numbers. */
function bodyRows(text: string): string[] {
  return text.split('\n').filter((r) => /^ {0,5}\d* [ +-]/.test(r) && !r.startsWith('###') && !r.startsWith('@@'));
}

describe('review: the numbered diff and its parts', () => {
  it('numbers each row with its new-file line; removed rows have none; the index knows shown and changed lines', () => {
    const { files, index } = numberDiff([CART]);
    assert.deepEqual(files[0]?.hunks[0], [
      '@@ -10,4 +10,5 @@ export function total()',
      '    10  const a = 1;',
      '       -const b = 2;',
      '    11 +const b = 3;',
      '    12 +const c = 4;',
      '    13  const d = 5;',
      '       \\ No newline at end of file',
    ]);
    assert.equal(files[0]?.header, '### src/cart.ts (modified, +0 -0)');
    assert.deepEqual([...(index.get('src/cart.ts')?.shown ?? [])].sort((a, b) => a - b), [10, 11, 12, 13]);
    assert.deepEqual(index.get('src/cart.ts')?.changed, [11, 12]);
  });

  it('puts everything in one part when it fits', () => {
    const { files } = numberDiff([CART, file('b.ts', ['@@ -1 +1 @@\n-x\n+y'])]);
    const parts = splitIntoParts(files, 10_000);
    assert.equal(parts.length, 1);
    assert.deepEqual(parts[0]?.files, ['src/cart.ts', 'b.ts']);
    assert.match(parts[0]?.text ?? '', /^### src\/cart\.ts[\s\S]*\n\n### b\.ts \(modified, \+0 -0\)\n@@ -1 \+1 @@\n {7}-x\n {5}1 \+y$/);
  });

  it('splits many hunks into parts that each fit, every row sent exactly once, headers repeated as continued', () => {
    const hunks = Array.from({ length: 40 }, (_, k) => `@@ -${k * 20 + 1},2 +${k * 20 + 1},2 @@\n context ${k}\n-old ${k}\n+new ${k}`);
    const { files } = numberDiff([file('big.ts', hunks), file('small.ts', ['@@ -1 +1 @@\n-a\n+b'])]);
    const budget = 400;
    const parts = splitIntoParts(files, budget);
    assert.ok(parts.length > 3, `${parts.length} parts`);
    for (const part of parts) assert.ok(part.text.length <= budget, `a part of ${part.text.length} chars`);
    assert.match(parts[1]?.text ?? '', /^### big\.ts \(modified, \+0 -0\) \(continued\)\n@@/);
    const all = parts.flatMap((p) => bodyRows(p.text));
    const expected = files.flatMap((f) => f.hunks.flatMap((h) => h.slice(1)));
    assert.deepEqual(all, expected);
    assert.deepEqual(parts.at(-1)?.files.at(-1), 'small.ts');
  });

  it('splits one hunk larger than a part between rows, numbering its pieces, no row lost or cut', () => {
    const rows = Array.from({ length: 300 }, (_, k) => `+line number ${k} of a very long added block`);
    const { files } = numberDiff([file('huge.ts', [`@@ -0,0 +1,300 @@\n${rows.join('\n')}`])]);
    const parts = splitIntoParts(files, 2_000);
    assert.ok(parts.length >= 6);
    for (const part of parts) assert.ok(part.text.length <= 2_000);
    assert.match(parts[0]?.text ?? '', /^### huge\.ts \(modified, \+0 -0\)\n@@ -0,0 \+1,300 @@ \(piece 1 of \d+\)\n {5}1 \+line number 0/);
    assert.match(parts[1]?.text ?? '', /^### huge\.ts \(modified, \+0 -0\) \(continued\)\n@@ -0,0 \+1,300 @@ \(piece 2 of \d+\)/);
    assert.deepEqual(parts.flatMap((p) => bodyRows(p.text)), files[0]?.hunks[0]?.slice(1));
  });

  it('plans one request per part within the model\'s context, says which part it is, and estimates the cost', () => {
    const hunks = Array.from({ length: 200 }, (_, k) => `@@ -${k * 30 + 1},2 +${k * 30 + 1},2 @@\n ${'context '.repeat(10)}${k}\n-old ${k}\n+${'new '.repeat(20)}${k}`);
    const changes = { source: 'staged' as const, files: [file('big.ts', hunks)], ignored: 0, binary: ['logo.png'], generated: [], tooLarge: ['table.ts'], notRead: [], noLines: [] };
    const plan = planReview({ repositoryName: 'shop', source: 'staged', maxModelLen: 4096 }, changes);
    assert.ok(plan.requests.length > 1, `${plan.requests.length} requests`);
    for (const request of plan.requests) {
      const tokens = request.messages.reduce((sum, m) => sum + estimateMessageTokens(m), 0);
      assert.ok(tokens + request.maxTokens <= 4096, `${tokens} + ${request.maxTokens} tokens`);
      assert.equal(request.messages[0]?.content, REVIEW_SYSTEM);
    }
    assert.match(String(plan.requests[1]?.messages[1]?.content), /^Review the staged changes of the repository "shop" \(part 2 of \d+: the diff was too large for one request/);
    assert.match(String(plan.requests[0]?.messages[1]?.content), /Binary or generated files changed \(not shown, do not comment on them\): logo\.png\./);
    assert.match(String(plan.requests[0]?.messages[1]?.content), /too large to review \(not shown\): table\.ts\./);
    assert.ok(plan.estimatedEur > 0);
    assert.equal(plan.promptTokens, plan.requests.reduce((s, r) => s + r.promptTokens, 0));
    assert.throws(() => partBudgetChars(600), /context \(600 tokens\)/);
  });
});

describe('review: placing findings on the diff', () => {
  const { index } = numberDiff([CART, file('lib/util/strings.ts', ['@@ -40,2 +40,3 @@\n a\n+b\n c'])]);

  it('matches paths written with ./, a/ or b/, backslashes, or as the only suffix', () => {
    const paths = ['src/cart.ts', 'lib/util/strings.ts'];
    assert.equal(matchPath('./src/cart.ts', paths), 'src/cart.ts');
    assert.equal(matchPath('b/src/cart.ts', paths), 'src/cart.ts');
    assert.equal(matchPath('src\\cart.ts', paths), 'src/cart.ts');
    assert.equal(matchPath('strings.ts', paths), 'lib/util/strings.ts');
    assert.equal(matchPath('/repo/lib/util/strings.ts', paths), 'lib/util/strings.ts');
    assert.equal(matchPath('other.ts', paths), undefined);
  });

  it('matches a file name copied from the diff header: its counts, "(continued)" and a rename\'s old path dropped', () => {
    const paths = ['src/cart.ts', 'lib/util/strings.ts', 'docs/notes (draft)'];
    assert.equal(matchPath('src/cart.ts (modified, +3 -1)', paths), 'src/cart.ts');
    assert.equal(matchPath('### src/cart.ts (modified, +3 -1) (continued)', paths), 'src/cart.ts');
    assert.equal(matchPath('old/cart.ts → src/cart.ts (renamed, +1 -2)', paths), 'src/cart.ts');
    assert.equal(matchPath('old/cart.ts -> src/cart.ts', paths), 'src/cart.ts');
    assert.equal(matchPath('strings.ts (modified)', paths), 'lib/util/strings.ts');
    assert.equal(matchPath('docs/notes (draft)', paths), 'docs/notes (draft)', 'a path that ends in parentheses itself');
  });

  it('anchors lines removed at the end of the file on its last line, never past it; a deleted file\'s findings are placed nowhere', () => {
    const { index } = numberDiff([
      file('tail.ts', ['@@ -8,4 +8,2 @@\n a\n b\n-c\n-d']),
      file('gap.ts', ['@@ -5,2 +4,0 @@\n-x\n-y']),
      { ...file('gone.ts', ['@@ -1,2 +0,0 @@\n-one\n-two']), status: 'deleted' },
    ]);
    assert.deepEqual(index.get('tail.ts')?.changed, [9], 'the last line of the new file (8..9), not 10');
    assert.deepEqual(index.get('gap.ts')?.changed, [4], 'an empty new side names the line before the removal');
    const { placed } = placeFindings([
      { file: 'tail.ts', line: 10, severity: 'warning', message: 'removed at the end' },
      { file: 'gone.ts', line: 1, severity: 'error', message: 'on a deleted file' },
    ], index);
    assert.deepEqual(placed.map((f) => [f.path, f.placedLine, f.placement, f.lineText]), [
      ['tail.ts', 9, 'nearest', 'b'],
      ['gone.ts', 1, 'deleted', undefined],
    ]);
  });

  it('records the reviewed text of the line each finding is placed on (without a CRLF file\'s carriage return)', () => {
    const { index } = numberDiff([CART, file('crlf.ts', ['@@ -1,2 +1,2 @@\n keep\r\n-old\r\n+new\r'])]);
    assert.equal(index.get('src/cart.ts')?.text.get(12), 'const c = 4;');
    const { placed } = placeFindings([
      { file: 'src/cart.ts', line: 10, severity: 'info', message: 'context' },
      { file: 'src/cart.ts', line: 99, severity: 'info', message: 'nearest' },
      { file: 'crlf.ts', line: 2, severity: 'info', message: 'crlf' },
    ], index);
    assert.deepEqual(placed.map((f) => [f.placedLine, f.lineText]), [[10, 'const a = 1;'], [12, 'const c = 4;'], [2, 'new']]);
  });

  it('places on the named line when the diff shows it, else on the nearest changed line, else lists it as unplaced', () => {
    const { placed, duplicates } = placeFindings([
      { file: 'src/cart.ts', line: 13, severity: 'warning', message: 'context line' },
      { file: 'src/cart.ts', line: 500, severity: 'error', message: 'far below' },
      { file: 'src/cart.ts', line: 1, severity: 'error', message: 'far above' },
      { file: 'strings.ts', line: 41, severity: 'info', message: 'suffix' },
      { file: 'README.md', line: 3, severity: 'info', message: 'not in the diff' },
      { file: './src/cart.ts', line: 13, severity: 'warning', message: 'Context line' },
    ], index);
    assert.deepEqual(placed.map((f) => [f.path, f.line, f.placedLine, f.placement]), [
      ['src/cart.ts', 13, 13, 'exact'],
      ['src/cart.ts', 500, 12, 'nearest'],
      ['src/cart.ts', 1, 11, 'nearest'],
      ['lib/util/strings.ts', 41, 41, 'exact'],
      ['README.md', 3, 3, 'unplaced'],
    ]);
    assert.equal(duplicates, 1);
  });

  it('finds a finding\'s line again where edits moved it by its window of lines, never the closest same text; says when it changed or is ambiguous', () => {
    const lines = ['a', 'x', 'b', 'target', 'c', 'target'];
    const doc = { lineCount: lines.length, lineAt: (i: number): string => lines[i] ?? '' };
    assert.deepEqual(locateLine(doc, { text: 'target', window: [[-1, 'b'], [1, 'c']] }, 1, false), { line: 3 }, 'two lines below, found by its window');
    assert.deepEqual(locateLine(doc, { text: 'target', window: [[-1, 'c']] }, 3, false), { line: 5 }, 'the farther line, whose window matches');
    assert.deepEqual(locateLine(doc, { text: 'b', window: [] }, 5, false), { line: 2 });
    assert.deepEqual(locateLine(doc, { text: 'gone', window: [] }, 3, false), { reason: 'moved' });
    assert.deepEqual(locateLine(doc, { text: 'target', window: [] }, 3, false), { reason: 'ambiguous' }, 'the same text twice, nothing to tell them apart');
  });
});
