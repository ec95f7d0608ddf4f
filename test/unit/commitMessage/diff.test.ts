import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDiff, unquoteGitPath } from '../../../src/core/commitMessage/diff';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' });

describe('core/commitMessage parseDiff', () => {
  it('reads a real staged diff: modified, added, deleted, renamed, binary, a path with spaces and a non-ASCII one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'stratus-diff-'));
    try {
      git(dir, 'init', '-q');
      mkdirSync(join(dir, 'src'));
      writeFileSync(join(dir, 'src', 'keep.ts'), 'export const a = 1;\nexport const b = 2;\n');
      writeFileSync(join(dir, 'gone.txt'), 'bye\n');
      writeFileSync(join(dir, 'old name.md'), 'line one\nline two\nline three\nline four\n');
      git(dir, 'add', '-A');
      git(dir, 'commit', '-q', '-m', 'first');
      writeFileSync(join(dir, 'src', 'keep.ts'), 'export const a = 1;\nexport const b = 3;\nexport const c = 4;\n');
      rmSync(join(dir, 'gone.txt'));
      git(dir, 'mv', 'old name.md', 'new name.md');
      writeFileSync(join(dir, 'été.txt'), 'soleil\n');
      writeFileSync(join(dir, 'logo.bin'), Buffer.from([0, 1, 2, 3, 0, 255]));
      git(dir, 'add', '-A');
      const files = parseDiff(git(dir, 'diff', '--cached'));
      const byPath = new Map(files.map((f) => [f.path, f]));
      assert.deepEqual([...byPath.keys()].sort(), ['gone.txt', 'logo.bin', 'new name.md', 'src/keep.ts', 'été.txt']);
      assert.deepEqual({ ...byPath.get('src/keep.ts'), hunks: undefined }, { path: 'src/keep.ts', status: 'modified', binary: false, added: 2, removed: 1, hunks: undefined });
      assert.match(byPath.get('src/keep.ts')?.hunks[0] ?? '', /^@@ .* @@\n export const a = 1;\n-export const b = 2;\n\+export const b = 3;\n\+export const c = 4;$/);
      assert.equal(byPath.get('gone.txt')?.status, 'deleted');
      assert.equal(byPath.get('gone.txt')?.removed, 1);
      assert.equal(byPath.get('new name.md')?.status, 'renamed');
      assert.equal(byPath.get('new name.md')?.oldPath, 'old name.md');
      assert.equal(byPath.get('été.txt')?.status, 'added');
      assert.equal(byPath.get('logo.bin')?.binary, true);
      assert.deepEqual(byPath.get('logo.bin')?.hunks, []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps hunk lines that look like headers (a removed "-- x" or an added "+++ y" line) inside their hunk', () => {
    const diff = ['diff --git a/a.sql b/a.sql', 'index 1..2 100644', '--- a/a.sql', '+++ b/a.sql', '@@ -1,2 +1,2 @@', '--- comment', '+++ plus', ' same', ''].join('\n');
    const [file] = parseDiff(diff);
    assert.equal(file?.path, 'a.sql');
    assert.equal(file?.added, 1);
    assert.equal(file?.removed, 1);
    assert.equal(file?.hunks[0], '@@ -1,2 +1,2 @@\n--- comment\n+++ plus\n same');
  });

  it('unquotes C-quoted paths (octal UTF-8 bytes, escapes) and yields nothing for text that is not a diff', () => {
    assert.equal(unquoteGitPath('"a/\\303\\251t\\303\\251.txt"'), 'a/été.txt');
    assert.equal(unquoteGitPath('"tab\\there \\"q\\""'), 'tab\there "q"');
    assert.equal(unquoteGitPath('plain'), 'plain');
    assert.deepEqual(parseDiff(''), []);
    assert.deepEqual(parseDiff('fatal: not a git repository'), []);
  });
});
