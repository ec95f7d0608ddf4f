import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIST_MAX_BYTES } from '../../../src/core/commitMessage/boundedDiff';
import { commitPromptFromGit, listChanges } from '../../../src/core/commitMessage/fromGit';
import { gitProcessRunner, type GitRunner } from '../../../src/core/commitMessage/gitProcess';
import { estimateMessageTokens } from '../../../src/core/inference/models/tokens';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });

/** The runner, counting what each command asked for and what it read. */
function counting(runner: GitRunner): { runner: GitRunner; calls: Array<{ args: readonly string[]; maxBytes: number; read: number; truncated: boolean }> } {
  const calls: Array<{ args: readonly string[]; maxBytes: number; read: number; truncated: boolean }> = [];
  return {
    calls,
    runner: async (args, maxBytes, signal) => {
      const out = await runner(args, maxBytes, signal);
      calls.push({ args, maxBytes, read: out.stdout.length, truncated: out.truncated });
      return out;
    },
  };
}

describe('core/commitMessage bounded diff reads (issue 31, item 8)', () => {
  let dir = '';
  before(function () {
    this.timeout(60_000);
    dir = mkdtempSync(join(tmpdir(), 'stratus-bounded-'));
    git(dir, 'init', '-q');
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'small.ts'), 'export const a = 1;\n');
    writeFileSync(join(dir, 'old name.md'), 'one\ntwo\nthree\nfour\nfive\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'first');
    // About 24 MB of staged diff: far more than any prompt holds.
    const line = 'const value = "a line of a huge generated-looking but hand-written table";\n';
    writeFileSync(join(dir, 'src', 'huge.ts'), line.repeat(320_000));
    writeFileSync(join(dir, 'src', 'small.ts'), 'export const a = 2;\nexport const b = 3;\n');
    writeFileSync(join(dir, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3]));
    writeFileSync(join(dir, 'src', '*.ts'), 'export const star = 1;\n');
    git(dir, 'mv', 'old name.md', 'new name.md');
    git(dir, 'add', '-A');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('never reads a staged diff far larger than the budget whole: each read is capped by its share', async () => {
    const diffBytes = Buffer.byteLength(git(dir, 'diff', '--cached'));
    assert.ok(diffBytes > 20_000_000, `${diffBytes} bytes staged`);
    const { runner, calls } = counting(gitProcessRunner('git', dir));
    const { source, files } = await listChanges(runner);
    assert.equal(source, 'staged');
    const byPath = new Map(files.map((f) => [f.path, f]));
    assert.deepEqual([...byPath.keys()].sort(), ['*.ts', 'logo.png', 'new name.md', 'src/huge.ts', 'src/small.ts'].map((p) => (p === '*.ts' ? 'src/*.ts' : p)).sort());
    assert.deepEqual([byPath.get('src/huge.ts')?.added, byPath.get('logo.png')?.binary, byPath.get('new name.md')?.oldPath, byPath.get('src/*.ts')?.status], [320_000, true, 'old name.md', 'added']);

    const maxModelLen = 32_768;
    const prompt = await commitPromptFromGit(runner, { repositoryName: 'r', source, ignored: new Set(), untracked: [], recentMessages: [], maxModelLen }, files);
    const diffReads = calls.filter((c) => c.args.includes('--'));
    // The binary file is never read; the others once each, the huge one cut.
    assert.deepEqual(diffReads.map((c) => c.args[c.args.length - 1]).sort(), ['new name.md', 'src/*.ts', 'src/huge.ts', 'src/small.ts']);
    const budgetChars = maxModelLen * 3;
    const read = diffReads.reduce((sum, c) => sum + c.read, 0);
    // Each read asks for at most the budget (and the file's header lines); all of them together read
    // at most the budget and the headers: what a small file does not use goes to the larger ones.
    assert.ok(diffReads.every((c) => c.maxBytes <= budgetChars + 1000), diffReads.map((c) => c.maxBytes).join(', '));
    assert.ok(read <= budgetChars + diffReads.length * 1000 && read < diffBytes / 100, `${read} bytes read of ${diffBytes}`);
    assert.ok(diffReads.find((c) => c.args.includes('src/huge.ts'))?.truncated);
    // The lists are capped too.
    assert.ok(calls.filter((c) => !c.args.includes('--')).every((c) => c.maxBytes === LIST_MAX_BYTES && !c.truncated));

    const text = String(prompt.messages[1]?.content);
    assert.match(text, /### src\/huge\.ts \(added, \+320000 -0\)\n@@ -0,0 \+1,320000 @@\n\+const value/);
    assert.match(text, /… \(the rest of this file's diff is left out\)/);
    assert.match(text, /### src\/small\.ts \(modified, \+2 -1\)\n@@[^\n]*\n-export const a = 1;\n\+export const a = 2;\n\+export const b = 3;/);
    assert.match(text, /### old name\.md → new name\.md \(renamed, \+0 -0\)/);
    assert.match(text, /Binary files changed \(content not shown\): logo\.png\./);
    assert.deepEqual(prompt.report.cut, ['src/huge.ts']);
    const tokens = prompt.messages.reduce((sum, m) => sum + estimateMessageTokens(m), 0) + prompt.maxTokens;
    assert.ok(tokens <= maxModelLen, `${tokens} tokens`);
  });

  it('describes the unstaged changes when nothing is staged, and a fake runner sees only capped requests', async () => {
    const calls: Array<{ args: readonly string[]; maxBytes: number }> = [];
    const fake: GitRunner = (args, maxBytes) => {
      calls.push({ args, maxBytes });
      const staged = args.includes('--cached');
      const body = staged ? '' : args.includes('--numstat') ? '5000000\t0\tbig.txt\0' : args.includes('--name-status') ? 'M\0big.txt\0' : `diff --git a/big.txt b/big.txt\n--- a/big.txt\n+++ b/big.txt\n@@ -1 +1,5000000 @@\n${'+x\n'.repeat(Math.ceil(maxBytes / 3) + 10)}`;
      const bytes = Buffer.from(body);
      return Promise.resolve({ stdout: bytes.subarray(0, maxBytes), truncated: bytes.length > maxBytes });
    };
    const { source, files } = await listChanges(fake);
    assert.equal(source, 'unstaged');
    const prompt = await commitPromptFromGit(fake, { repositoryName: 'r', source, ignored: new Set(), untracked: [], recentMessages: [], maxModelLen: 8192 }, files);
    const read = calls.filter((c) => c.args.includes('--'));
    assert.equal(read.length, 1);
    assert.ok((read[0]?.maxBytes ?? Infinity) <= 8192 * 3, `${read[0]?.maxBytes}`);
    assert.deepEqual(prompt.report.cut, ['big.txt']);
  });
});
