// Ghost-text requests are sent once and give up fast (INLINE_CALL): a suggestion retried for 2-3 s
// or held 60 s on a stalled stream is stale by the time it could show. The fake-clock bounds
// (4 s without a first byte, 3 s of silence) are asserted by the fault matrix's inline row.
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/core/errors';
import { createInferenceClient, type InferenceClient } from '../../../src/core/inference';
import { callTransport, INLINE_CALL } from '../../../src/core/inference/shared/call';
import { startSandbox, type Sandbox, type SandboxProfile } from '../../sandbox/index';

describe('inline completion requests: sent once, short timeouts', () => {
  it('purpose inline asks the transport for no retry and short first-byte and idle timeouts', () => {
    assert.deepEqual(callTransport({ purpose: 'inline' }), { timeouts: { firstByteMs: INLINE_CALL.firstByteTimeoutMs, idleMs: INLINE_CALL.idleTimeoutMs }, retry: false });
    assert.ok(INLINE_CALL.firstByteTimeoutMs <= 5_000 && INLINE_CALL.idleTimeoutMs <= 5_000);
  });

  it('a call\'s own settings win over its purpose; other purposes keep the transport defaults', () => {
    assert.deepEqual(callTransport({ purpose: 'inline', firstByteTimeoutMs: 9_000 }), { timeouts: { firstByteMs: 9_000, idleMs: INLINE_CALL.idleTimeoutMs }, retry: false });
    for (const purpose of [undefined, 'chat', 'edit', 'ocr', 'commit'] as const) assert.deepEqual(callTransport({ purpose }), {}, String(purpose));
    assert.deepEqual(callTransport({ purpose: 'chat' }, { firstByteTimeoutMs: 300_000 }), { timeouts: { firstByteMs: 300_000 } }, 'the endpoint\'s fallback');
    assert.deepEqual(callTransport({ purpose: 'inline' }, { firstByteTimeoutMs: 300_000 }).timeouts?.firstByteMs, INLINE_CALL.firstByteTimeoutMs, 'the purpose beats the endpoint\'s fallback');
    assert.deepEqual(callTransport({ idleTimeoutMs: 1_500, retry: false }), { timeouts: { idleMs: 1_500 }, retry: false });
  });

  for (const profile of ['contract', 'production'] as SandboxProfile[]) {
    describe(`against the sandbox (${profile})`, () => {
      let sandbox: Sandbox;
      let client: InferenceClient;
      before(async () => {
        sandbox = await startSandbox({ port: 0, profile });
        // Retries without waiting, so the test shows the count and never sleeps.
        client = createInferenceClient({ baseUrl: sandbox.inferenceUrl, apiKey: () => Promise.resolve(sandbox.credentials.apiKey), retry: { baseDelayMs: 1, maxDelayMs: 1 } });
      });
      after(async () => {
        await client.close();
        await sandbox.close();
      });
      afterEach(() => sandbox.control.reset());

      const request = { model: 'qwen3-coder:30b', prompt: 'const total = ', max_tokens: 16 };

      for (const status of [503, 429, 500] as const) {
        it(`a ${status} on a ghost-text request fails at once (one request); the same on a chat-purpose completion is retried`, async () => {
          sandbox.control.burst({ status, count: 1, pathPrefix: '/v1/completions' });
          await assert.rejects(client.completeStream(request, { purpose: 'inline' }).consume(), (e: unknown) => e instanceof ApiError && e.status === status);
          assert.equal(sandbox.control.requests({ pathPrefix: '/v1/completions' }).length, 1, 'not retried');
          sandbox.control.reset();
          sandbox.control.burst({ status, count: 1, pathPrefix: '/v1/completions' });
          const answer = await client.completeStream(request).consume();
          assert.ok(answer.text.length > 0);
          assert.equal(sandbox.control.requests({ pathPrefix: '/v1/completions' }).length, 2, 'retried once and answered');
        });
      }
    });
  }
});
