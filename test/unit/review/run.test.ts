import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listChanges } from '../../../src/core/commitMessage/fromGit';
import { gitProcessRunner } from '../../../src/core/commitMessage/gitProcess';
import { MAX_FILE_DIFF_CHARS, readReviewChanges } from '../../../src/core/review/changes';
import { planReview } from '../../../src/core/review/prompt';
import { runReview } from '../../../src/core/review/run';
import type { UsageEvent } from '../../../src/core/usage/events';
import { countersOf } from '../../../src/core/usage/ledger';
import { createMeteredInferenceClient } from '../../../src/core/usage/meteredClient';
import { validEvent } from '../../../src/core/usage/validate';
import { startSandbox, type Sandbox } from '../../sandbox/index';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });

const BASE = Array.from({ length: 30 }, (_, k) => `const v${k + 1} = ${k + 1};`).join('\n') + '\n';

describe('core/review: from a real repository to placed findings (against the sandbox)', () => {
  let sandbox: Sandbox;
  let root = '';
  before(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  after(async () => sandbox.close());
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'stratus-review-unit-'));
    git(root, 'init', '-q');
    writeFileSync(join(root, 'a.ts'), BASE);
    writeFileSync(join(root, 'big.ts'), 'x\n');
    writeFileSync(join(root, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]));
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'base');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('reads with ten lines of context, leaves out binary and over-cap files, and meters the answers as kind review', async () => {
    const lines = BASE.trimEnd().split('\n');
    lines.splice(15, 1, 'const v16 = eval(userInput); // TODO check');
    writeFileSync(join(root, 'a.ts'), `${lines.join('\n')}\n`);
    writeFileSync(join(root, 'big.ts'), `${'const filler = "a long line of a large generated table";\n'.repeat(Math.ceil((MAX_FILE_DIFF_CHARS * 1.2) / 50))}`);
    writeFileSync(join(root, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 2]));
    const runner = gitProcessRunner('git', root);
    const listed = await listChanges(runner);
    assert.equal(listed.source, 'unstaged');
    const changes = await readReviewChanges(runner, { source: listed.source, files: listed.files, ignored: new Set(), untracked: [] });
    assert.deepEqual(changes.files.map((f) => f.path), ['a.ts']);
    assert.deepEqual(changes.binary, ['logo.png']);
    assert.deepEqual(changes.tooLarge, ['big.ts']);
    // -U10: lines 6..26 around the change at line 16.
    assert.match(changes.files[0]?.hunks[0] ?? '', /^@@ -6,21 \+6,21 @@/);

    const plan = planReview({ repositoryName: 'repo', source: 'unstaged', maxModelLen: 131072 }, changes);
    assert.equal(plan.requests.length, 1);
    assert.match(String(plan.requests[0]?.messages[1]?.content), /Files whose diff is too large to review \(not shown\): big\.ts\./);
    const events: UsageEvent[] = [];
    const client = createMeteredInferenceClient({ baseUrl: sandbox.inferenceUrl, apiKey: () => Promise.resolve(sandbox.credentials.apiKey), retry: { attempts: 1 }, onUsage: (e) => events.push(e) });
    let parts: number[] = [];
    try {
      const result = await runReview({ client, model: 'gpt-oss:120b', plan, onPart: (k) => (parts = [...parts, k]) });
      assert.deepEqual(result.findings.map((f) => [f.path, f.placedLine, f.severity, f.placement]), [['a.ts', 16, 'error', 'exact'], ['a.ts', 16, 'info', 'exact']]);
      assert.equal(result.findings[0]?.suggestion, 'rename eval to safeEval');
      assert.deepEqual([result.parts, result.skipped, result.unreadableParts, result.cutParts], [1, 0, [], []]);
    } finally {
      await client.close();
    }
    assert.deepEqual(parts, [1]);
    const generated = events.filter((e) => e.kind !== 'rateLimit');
    assert.deepEqual(generated.map((e) => e.kind), ['review']);
    assert.ok(generated[0] && validEvent(generated[0]));
    assert.ok((countersOf(generated[0])?.input ?? 0) > 0, 'billed like chat');
  });

  it('a cancelled review stops at once with a cancellation, sending no further part', async () => {
    writeFileSync(join(root, 'a.ts'), BASE.replace('const v3 = 3;', 'const v3 = eval(x);'));
    const runner = gitProcessRunner('git', root);
    const listed = await listChanges(runner);
    const changes = await readReviewChanges(runner, { source: listed.source, files: listed.files, ignored: new Set(), untracked: [] });
    const plan = planReview({ repositoryName: 'repo', source: 'unstaged', maxModelLen: 131072 }, changes);
    const abort = new AbortController();
    abort.abort();
    const client = createMeteredInferenceClient({ baseUrl: sandbox.inferenceUrl, apiKey: () => Promise.resolve(sandbox.credentials.apiKey), retry: { attempts: 1 } });
    try {
      await assert.rejects(runReview({ client, model: 'gpt-oss:120b', plan, signal: abort.signal }), (error: Error) => error.name === 'CancelledError');
    } finally {
      await client.close();
    }
  });
});
