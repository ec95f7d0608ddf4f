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
import type { InferenceClient } from '../../../src/core/inference/api';
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

  /** A plan of at least two parts: five far-apart changes in a small context. */
  async function twoPartPlan(): Promise<ReturnType<typeof planReview>> {
    const lines = BASE.trimEnd().split('\n').concat(Array.from({ length: 400 }, (_, k) => `const w${k} = ${k};`));
    for (const at of [2, 90, 180, 270, 360]) lines[at] = `const changed${at} = eval(input${at}); // ${'long comment '.repeat(30)}`;
    writeFileSync(join(root, 'a.ts'), `${lines.join('\n')}\n`);
    const runner = gitProcessRunner('git', root);
    const listed = await listChanges(runner);
    const changes = await readReviewChanges(runner, { source: listed.source, files: listed.files, ignored: new Set(), untracked: [] });
    const plan = planReview({ repositoryName: 'repo', source: 'unstaged', maxModelLen: 3072 }, changes);
    assert.ok(plan.requests.length >= 2, `${plan.requests.length} part(s)`);
    return plan;
  }

  /** The sandbox's client, counting the requests made and calling `afterAnswer` when one is answered. */
  function countingClient(afterAnswer: () => void = () => undefined): { client: Pick<InferenceClient, 'chatStream'>; sent: () => number; close: () => Promise<void> } {
    const real = createMeteredInferenceClient({ baseUrl: sandbox.inferenceUrl, apiKey: () => Promise.resolve(sandbox.credentials.apiKey), retry: { attempts: 1 } });
    let sent = 0;
    const client: Pick<InferenceClient, 'chatStream'> = {
      chatStream: (request, options) => {
        sent++;
        const stream = real.chatStream(request, options);
        return { ...stream, consume: async (onEvent) => {
          const result = await stream.consume(onEvent);
          afterAnswer();
          return result;
        } };
      },
    };
    return { client, sent: () => sent, close: () => real.close() };
  }

  it('a review cancelled while part 1 is sent stops with a cancellation, making no request for part 2', async () => {
    const plan = await twoPartPlan();
    const abort = new AbortController();
    const counting = countingClient();
    const parts: number[] = [];
    try {
      await assert.rejects(runReview({ client: counting.client, model: 'gpt-oss:120b', plan, signal: abort.signal, onPart: (k) => {
        parts.push(k);
        if (k === 1) abort.abort();
      } }), (error: Error) => error.name === 'CancelledError');
    } finally {
      await counting.close();
    }
    assert.deepEqual(parts, [1]);
    assert.equal(counting.sent(), 1, 'exactly one request');
  });

  it('a review cancelled once part 1 is answered sends no further part', async () => {
    const plan = await twoPartPlan();
    const abort = new AbortController();
    const counting = countingClient(() => abort.abort());
    const parts: number[] = [];
    try {
      await assert.rejects(runReview({ client: counting.client, model: 'gpt-oss:120b', plan, signal: abort.signal, onPart: (k) => parts.push(k) }), (error: Error) => error.name === 'CancelledError');
    } finally {
      await counting.close();
    }
    assert.deepEqual(parts, [1]);
    assert.equal(counting.sent(), 1, 'part 1 only');
  });

  it('an empty answer is not "no findings": its part is counted as not reviewed', async () => {
    const plan = await twoPartPlan();
    let call = 0;
    const answers = ['', '```json\n[]\n```', '   \n'];
    const client = {
      chatStream: () => ({ consume: async () => ({ text: answers[call++] ?? '[]', finishReason: 'stop' }) }),
    } as unknown as Pick<InferenceClient, 'chatStream'>;
    const result = await runReview({ client, model: 'm', plan });
    assert.deepEqual(result.findings, []);
    assert.deepEqual(result.emptyParts, plan.requests.length >= 3 ? [1, 3] : [1]);
    assert.deepEqual(result.unreadableParts, []);
  });

  it('reads the diff whatever prefixes the user\'s git config sets (diff.mnemonicPrefix, diff.noprefix); a pure rename has no line to review', async () => {
    for (const [key, value] of [['diff.mnemonicPrefix', 'true'], ['diff.noprefix', 'true']] as const) {
      git(root, 'config', key, value);
      writeFileSync(join(root, 'a.ts'), BASE.replace('const v3 = 3;', 'const v3 = eval(x);'));
      git(root, 'add', 'a.ts');
      const runner = gitProcessRunner('git', root);
      const listed = await listChanges(runner);
      assert.equal(listed.source, 'staged');
      const changes = await readReviewChanges(runner, { source: listed.source, files: listed.files, ignored: new Set(), untracked: [] });
      assert.deepEqual(changes.files.map((f) => [f.path, f.hunks.length]), [['a.ts', 1]], `with ${key}`);
      assert.deepEqual(changes.noLines, []);
      git(root, 'config', '--unset', key);
      git(root, 'reset', '-q', '--hard');
    }
    git(root, 'config', 'diff.mnemonicPrefix', 'true');
    git(root, 'mv', 'a.ts', 'moved.ts');
    const runner = gitProcessRunner('git', root);
    const listed = await listChanges(runner);
    const changes = await readReviewChanges(runner, { source: listed.source, files: listed.files, ignored: new Set(), untracked: [] });
    assert.deepEqual(changes.files, [], 'nothing to send');
    assert.deepEqual(changes.noLines, ['moved.ts']);
    assert.equal(planReview({ repositoryName: 'repo', source: 'staged', maxModelLen: 131072 }, changes).requests.length, 0);
  });
});
