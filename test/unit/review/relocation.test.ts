import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listChanges } from '../../../src/core/commitMessage/fromGit';
import { gitProcessRunner } from '../../../src/core/commitMessage/gitProcess';
import { readReviewChanges } from '../../../src/core/review/changes';
import { numberDiff } from '../../../src/core/review/diffParts';
import { placeFindings } from '../../../src/core/review/placement';
import { locateLine, mapLine, parseLineShifts, readWorkingTreeShifts, type LineSource } from '../../../src/core/review/relocation';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' });

/** Two functions with the same body: only the lines around a line tell them apart. */
const BASE = [
  "import type { User } from './user';",
  '',
  'export function canRead(user: User): boolean {',
  '  if (!user.active) return false;',
  "  return user.roles.includes('admin');",
  '}',
  '',
  'export function canWrite(user: User): boolean {',
  '  if (!user.active) return false;',
  "  return user.roles.includes('admin');",
  '}',
  '',
];

const linesOf = (text: string): LineSource => {
  const lines = text.split('\n');
  return { lineCount: lines.length, lineAt: (i) => lines[i] ?? '' };
};

describe('core/review relocation: a reviewed line where it is now', () => {
  let root = '';
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'stratus-review-relocate-'));
    git(root, 'init', '-q');
    writeFileSync(join(root, 'access.ts'), BASE.join('\n'));
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'base');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('a staged change in canWrite with unstaged lines added above: the finding lands in canWrite, not on the same line of canRead', async () => {
    // Staged: canWrite also refuses a suspended user.
    const staged = [...BASE];
    staged.splice(9, 0, '  if (user.suspended) return false;');
    writeFileSync(join(root, 'access.ts'), staged.join('\n'));
    git(root, 'add', 'access.ts');
    // Unstaged: five lines above both functions.
    const imports = Array.from({ length: 5 }, (_, k) => `import { helper${k} } from './helper${k}';`);
    writeFileSync(join(root, 'access.ts'), [...imports, ...staged].join('\n'));
    const runner = gitProcessRunner('git', root);
    const listed = await listChanges(runner);
    assert.equal(listed.source, 'staged');
    const changes = await readReviewChanges(runner, { source: listed.source, files: listed.files, ignored: new Set(), untracked: [] });
    const { index } = numberDiff(changes.files);
    // The model's finding: canWrite's return (line 11 of the index), shown as context.
    const { placed } = placeFindings([{ file: 'access.ts', line: 11, severity: 'warning', message: 'Writers should need the editor role.' }], index);
    const finding = placed[0];
    assert.ok(finding?.witness);
    assert.equal(finding.placement, 'exact');
    const shifts = await readWorkingTreeShifts(runner, 'access.ts');
    assert.ok(shifts);
    const worktree = readFileSync(join(root, 'access.ts'), 'utf8');
    const located = locateLine(linesOf(worktree), finding.witness, (mapLine(shifts, finding.placedLine) ?? 0) - 1, true);
    assert.deepEqual(located, { line: 15 }, 'line 16 of the working tree: canWrite\'s return');
    assert.match(worktree.split('\n').slice(12, 16).join('\n'), /canWrite[\s\S]*suspended[\s\S]*includes\('admin'\)/);
    // In a document with unsaved edits too (the map no longer exact), the window finds the same line.
    const unsaved = `// unsaved 1\n// unsaved 2\n${worktree}`;
    assert.deepEqual(locateLine(linesOf(unsaved), finding.witness, 15, false), { line: 17 });
  });

  it('a line the working tree changed since is moved; a line whose window matches twice is ambiguous, listed not guessed', () => {
    const witness = { text: "  return user.roles.includes('admin');", window: [[-1, '  if (!user.active) return false;'], [1, '}']] as const };
    assert.deepEqual(locateLine(linesOf(BASE.join('\n')), witness, 9, false), { reason: 'ambiguous' });
    assert.deepEqual(locateLine(linesOf(BASE.join('\n')), witness, 9, true), { line: 9 }, 'mapped through the diff: exact');
    assert.deepEqual(locateLine(linesOf(BASE.join('\n').replace(/includes\('admin'\)/g, "includes('owner')")), witness, 9, false), { reason: 'moved' });
    assert.deepEqual(locateLine(linesOf(BASE.join('\n')), witness, 4, true), { line: 4 });
    assert.deepEqual(locateLine(linesOf(BASE.join('\n')), witness, 5, true), { reason: 'moved' });
  });

  it('maps lines through -U0 hunks: insertions, removals, replacements', () => {
    const shifts = parseLineShifts('diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -0,0 +1,5 @@\n+a\n@@ -4 +9,2 @@\n-x\n+y\n+z\n@@ -10,3 +15,0 @@\n-p\n-q\n-r\n@@ -20,0 +24 @@\n+s\n');
    assert.deepEqual(shifts, [{ start: 0, count: 0, newCount: 5 }, { start: 4, count: 1, newCount: 2 }, { start: 10, count: 3, newCount: 0 }, { start: 20, count: 0, newCount: 1 }]);
    assert.deepEqual([1, 3, 4, 5, 9, 10, 12, 13, 20, 21].map((l) => mapLine(shifts, l)), [6, 8, undefined, 11, 15, undefined, undefined, 16, 23, 25]);
  });
});
