import assert from 'node:assert/strict';
import { buildCommitPrompt, ContextTooSmallError, MAX_DIFF_TOKENS, NothingToDescribeError, type CommitPromptInput } from '../../../src/core/commitMessage/prompt';
import { gitignoreFolders, ignoredPaths } from '../../../src/core/commitMessage/ignored';
import { summariseDiff } from '../../../src/core/commitMessage/summarise';
import { parseDiff } from '../../../src/core/commitMessage/diff';

/** A git diff of one modified file with `lines` changed lines, each `width` characters. */
function fileDiff(path: string, lines: number, width = 40, marker = path): string {
  const body = Array.from({ length: lines }, (_, i) => `+${`${marker} line ${i} `.padEnd(width, 'x')}`);
  return [`diff --git a/${path} b/${path}`, 'index 1111111..2222222 100644', `--- a/${path}`, `+++ b/${path}`, `@@ -1,0 +1,${lines} @@`, ...body].join('\n');
}

const input = (over: Partial<CommitPromptInput>): CommitPromptInput => ({
  repositoryName: 'shop',
  source: 'staged',
  diff: fileDiff('src/a.ts', 3),
  ignored: new Set(),
  untracked: [],
  recentMessages: [],
  maxModelLen: 32_768,
  ...over,
});

const userText = (p: ReturnType<typeof buildCommitPrompt>): string => String(p.messages[1]?.content);

describe('core/commitMessage prompt', () => {
  it('sends a small staged diff whole, with the repository style in the system message and the recent subjects', () => {
    const prompt = buildCommitPrompt(input({ recentMessages: ['feat(cart): add coupons', 'fix(cart): round totals', 'chore: bump deps', 'feat: search'] }));
    assert.equal(prompt.messages[0]?.role, 'system');
    assert.match(String(prompt.messages[0]?.content), /Conventional Commits.*\(feat, chore, fix\)/);
    const text = userText(prompt);
    assert.match(text, /^Write the commit message for the staged changes of the repository "shop"\./);
    assert.match(text, /Recent commit subjects[^\n]*\n- feat\(cart\): add coupons\n- fix\(cart\): round totals/);
    assert.match(text, /### src\/a\.ts \(modified, \+3 -0\)\n@@ -1,0 \+1,3 @@\n\+src\/a\.ts line 0/);
    assert.doesNotMatch(text, /too large/);
    assert.deepEqual(prompt.report.sent, ['src/a.ts']);
    assert.deepEqual([prompt.report.cut, prompt.report.bodiesLeftOut, prompt.report.notNamed], [[], [], []]);
    assert.equal(prompt.maxTokens, 1024);
  });

  it('says when nothing is staged and names untracked files without their content', () => {
    const prompt = buildCommitPrompt(input({ source: 'unstaged', untracked: ['notes/todo.md'] }));
    const text = userText(prompt);
    assert.match(text, /^Nothing is staged in the repository "shop": write the commit message for its unstaged changes to tracked files\./);
    assert.match(text, /New untracked files \(not part of this change unless staged\): notes\/todo\.md\./);
  });

  it('names binary and generated files without their content, and never sends or names files a .gitignore matches', () => {
    const diff = [
      fileDiff('src/a.ts', 2),
      fileDiff('package-lock.json', 5, 40, 'LOCKFILE-CONTENT'),
      fileDiff('dist/app.min.js', 1, 40, 'MINIFIED-CONTENT'),
      'diff --git a/img/logo.png b/img/logo.png\nindex 1..2 100644\nBinary files a/img/logo.png and b/img/logo.png differ',
      fileDiff('config/secrets.env', 2, 40, 'API_TOKEN=hunter2'),
    ].join('\n');
    const paths = parseDiff(diff).map((f) => f.path);
    const ignored = ignoredPaths(paths, new Map([['', 'node_modules/\n'], ['config', '*.env\n']]));
    assert.deepEqual([...ignored], ['config/secrets.env']);
    const prompt = buildCommitPrompt(input({ diff, ignored }));
    const text = userText(prompt);
    assert.match(text, /Binary files changed \(content not shown\): img\/logo\.png\./);
    assert.match(text, /Generated files changed \(lockfiles, build output, minified; content not shown\): package-lock\.json, dist\/app\.min\.js\./);
    for (const secret of ['LOCKFILE-CONTENT', 'MINIFIED-CONTENT', 'hunter2', 'secrets.env']) assert.ok(!text.includes(secret), `${secret} was sent`);
    assert.deepEqual(prompt.report.sent, ['src/a.ts']);
    assert.equal(prompt.report.ignored, 1);
  });

  it('summarises a diff too large for the context per file: small files whole, large ones cut with what was left out, and says so', () => {
    const diff = [fileDiff('src/small.ts', 4), fileDiff('src/huge.ts', 3000), fileDiff('src/big.ts', 1500)].join('\n');
    const prompt = buildCommitPrompt(input({ diff, maxModelLen: 8192 }));
    const text = userText(prompt);
    assert.match(text, /### src\/small\.ts \(modified, \+4 -0\)\n@@ -1,0 \+1,4 @@\n(\+src\/small\.ts line \d x+\n){3}\+src\/small\.ts line 3 x+/, 'the small file is whole');
    assert.match(text, /### src\/huge\.ts \(modified, \+3000 -0\)\n@@[^\n]*\n[\s\S]*?… \(\d+ of 3001 diff lines of this file left out\)/);
    assert.match(text, /… \(\d+ of 1501 diff lines of this file left out\)/);
    assert.match(text, /The diff was too large for the context and was summarised per file \(shortened: src\/huge\.ts, src\/big\.ts\)\./);
    assert.deepEqual(prompt.report.cut, ['src/huge.ts', 'src/big.ts']);
    // The estimate (3 characters per token) of the whole request stays within the context with the answer's room.
    const chars = prompt.messages.reduce((n, m) => n + String(m.content).length, 0);
    assert.ok(chars / 3 + prompt.maxTokens <= 8192, `${Math.ceil(chars / 3)} + ${prompt.maxTokens} tokens`);
    assert.ok(chars / 3 > 8192 * 0.6, 'the budget is used, not wasted');
  });

  it('never sends more than MAX_DIFF_TOKENS of diff, even to a 1M-token model', () => {
    const diff = Array.from({ length: 40 }, (_, i) => fileDiff(`src/f${i}.ts`, 400)).join('\n');
    const prompt = buildCommitPrompt(input({ diff, maxModelLen: 1_000_000 }));
    assert.ok(userText(prompt).length <= (MAX_DIFF_TOKENS + 700) * 3, `${userText(prompt).length} characters`);
    assert.equal(prompt.report.cut.length, 40);
  });

  it('names only the largest changes when even the file list does not fit, and counts the others', () => {
    const diff = Array.from({ length: 600 }, (_, i) => fileDiff(`src/module-${String(i).padStart(3, '0')}/index.ts`, 1 + (i % 7))).join('\n');
    const prompt = buildCommitPrompt(input({ diff, maxModelLen: 4096 }));
    const text = userText(prompt);
    assert.match(text, /\(Only file names and line counts: the diff is too large to show\.\)/);
    assert.match(text, /… and \d+ more changed files, not named \(no room\)/);
    assert.ok(prompt.report.notNamed.length > 0 && prompt.report.bodiesLeftOut.length > 0);
    assert.equal(prompt.report.notNamed.length + prompt.report.bodiesLeftOut.length, 600);
    assert.ok(prompt.report.bodiesLeftOut.every((p) => text.includes(p)));
  });

  it('refuses with a reason: nothing changed, only untracked files, only ignored files, a context too small', () => {
    assert.throws(() => buildCommitPrompt(input({ diff: '' })), (e: unknown) => e instanceof NothingToDescribeError && e.reason === 'noChanges');
    assert.throws(() => buildCommitPrompt(input({ diff: '', untracked: ['a.txt'] })), (e: unknown) => e instanceof NothingToDescribeError && e.reason === 'onlyUntracked');
    assert.throws(() => buildCommitPrompt(input({ ignored: new Set(['src/a.ts']) })), (e: unknown) => e instanceof NothingToDescribeError && e.reason === 'onlyIgnored');
    assert.throws(() => buildCommitPrompt(input({ maxModelLen: 512 })), (e: unknown) => e instanceof ContextTooSmallError && e.maxModelLen === 512);
  });
});

describe('core/commitMessage summariseDiff and .gitignore rules', () => {
  it('shares the room so each file gets at least an equal part of it (water filling)', () => {
    const files = parseDiff([fileDiff('a.ts', 10), fileDiff('b.ts', 200), fileDiff('c.ts', 200)].join('\n'));
    const summary = summariseDiff(files, 6000);
    assert.deepEqual(summary.cut, ['b.ts', 'c.ts']);
    const kept = (path: string): number => (summary.text.split(`### ${path}`)[1] ?? '').split('\n### ')[0]!.split('\n').filter((l) => l.startsWith('+')).length;
    assert.equal(kept('a.ts'), 10);
    assert.ok(Math.abs(kept('b.ts') - kept('c.ts')) <= 1, `${kept('b.ts')} vs ${kept('c.ts')}`);
    assert.ok(summary.text.length <= 6000, `${summary.text.length}`);
  });

  it('lists the folders whose .gitignore applies and matches folder rules, negations and nested files', () => {
    assert.deepEqual(gitignoreFolders(['a/b/c.ts', 'd.ts']), ['', 'a', 'a/b']);
    const rules = new Map([['', 'build-cache/\n*.log\n!keep.log\n'], ['a', 'local.json\n']]);
    assert.deepEqual([...ignoredPaths(['build-cache/x/y.txt', 'x.log', 'keep.log', 'a/local.json', 'local.json', 'a/b/c.ts'], rules)].sort(), ['a/local.json', 'build-cache/x/y.txt', 'x.log']);
  });
});
