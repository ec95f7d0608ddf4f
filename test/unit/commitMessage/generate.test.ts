import assert from 'node:assert/strict';
import { CancelledError, UsageCapError } from '../../../src/core/errors';
import { writeCommitMessage } from '../../../src/core/commitMessage/generate';
import { buildCommitPrompt } from '../../../src/core/commitMessage/prompt';
import type { InferenceClient } from '../../../src/core/inference';
import type { UsageEvent } from '../../../src/core/usage/events';
import { createMeteredInferenceClient, type MeteredClientOptions } from '../../../src/core/usage/meteredClient';
import { startSandbox, type Sandbox, type SandboxProfile } from '../../sandbox/index';

/** A git diff of `files` modified files with `lines` added lines each. */
function bigDiff(files: number, lines: number): string {
  return Array.from({ length: files }, (_, f) => [
    `diff --git a/src/f${f}.ts b/src/f${f}.ts`, 'index 1111111..2222222 100644', `--- a/src/f${f}.ts`, `+++ b/src/f${f}.ts`, `@@ -1,0 +1,${lines} @@`,
    ...Array.from({ length: lines }, (_, i) => `+export const value${f}_${i} = compute(${i}, 'a somewhat long argument');`),
  ].join('\n')).join('\n');
}

for (const profile of ['contract', 'production'] as SandboxProfile[]) {
  describe(`core/commitMessage writeCommitMessage against the sandbox (${profile})`, function () {
    let sandbox: Sandbox;
    let events: UsageEvent[];
    const clients: InferenceClient[] = [];

    before(async () => {
      sandbox = await startSandbox({ port: 0, profile });
    });
    after(async () => sandbox.close());
    beforeEach(() => {
      events = [];
    });
    afterEach(async () => {
      await Promise.all(clients.splice(0).map((c) => c.close()));
      sandbox.control.reset();
    });

    function client(options: Partial<MeteredClientOptions> = {}): InferenceClient {
      const c = createMeteredInferenceClient({ baseUrl: sandbox.inferenceUrl, apiKey: () => Promise.resolve(sandbox.credentials.apiKey), retry: { attempts: 1 }, onUsage: (e) => events.push(e), ...options });
      clients.push(c);
      return c;
    }

    it('sizes a large diff from the model\'s max_model_len (/v1/models), streams the message and meters it as kind commit', async () => {
      const c = client();
      const model = await c.models.find('qwen2.5-coder:7b');
      assert.equal(model?.maxModelLen, 16_384, 'the context comes from /v1/models');
      const prompt = buildCommitPrompt({ repositoryName: 'shop', source: 'staged', diff: bigDiff(6, 400), ignored: new Set(), untracked: [], recentMessages: ['feat: a', 'fix: b', 'feat: c'], maxModelLen: model?.maxModelLen ?? 0 });
      assert.equal(prompt.report.cut.length, 6, 'every file was shortened to fit 16k tokens');
      const seen: string[] = [];
      const written = await writeCommitMessage(c, 'qwen2.5-coder:7b', prompt, (text) => seen.push(text));
      assert.ok(seen.length > 3, `the message arrived in ${seen.length} steps`);
      for (let i = 1; i < seen.length; i++) assert.ok((seen[i] as string).startsWith((seen[i - 1] as string).trimEnd()), 'each step extends the last');
      assert.equal(seen.at(-1), written.message);
      assert.match(written.message, /^Echo \(qwen2\.5-coder:7b\): Write the commit message for the staged changes of the repository "shop"\./);
      assert.equal(written.finishReason, 'length', 'the echo of a long prompt is cut at max_tokens');
      const [request] = sandbox.control.requests({ pathPrefix: '/v1/chat/completions' });
      assert.equal(request?.status, 200, 'the prompt fitted the context');
      const commits = events.filter((e) => e.kind === 'commit');
      assert.equal(commits.length, 1);
      assert.ok(commits[0]?.kind === 'commit' && commits[0].promptTokens > 8000 && commits[0].completionTokens > 0);
      assert.equal(events.filter((e) => e.kind === 'chat').length, 0, 'not counted as chat');
    });

    it('stops the request when aborted, and the cap check refuses before anything is sent', async () => {
      sandbox.control.setLatency({ ms: 0, chunkDelayMs: 30, pathPrefix: '/v1/chat/completions' });
      const prompt = buildCommitPrompt({ repositoryName: 'shop', source: 'unstaged', diff: bigDiff(1, 50), ignored: new Set(), untracked: [], recentMessages: [], maxModelLen: 131_072 });
      const abort = new AbortController();
      const running = writeCommitMessage(client(), 'gpt-oss:120b', prompt, () => abort.abort(), abort.signal);
      await assert.rejects(running, (e: unknown) => e instanceof CancelledError);
      assert.ok(events.some((e) => e.kind === 'commit' && e.estimated), 'what arrived before the cancel is metered');

      const blocked = client({ beforeGeneration: async () => { throw new UsageCapError('cap', 'hour', 10, 10, new Date(), 'soon'); } });
      sandbox.control.clearRequests();
      await assert.rejects(writeCommitMessage(blocked, 'gpt-oss:120b', prompt, () => undefined), (e: unknown) => e instanceof UsageCapError);
      assert.equal(sandbox.control.requests({ pathPrefix: '/v1/chat/completions' }).length, 0);
    });
  });
}
