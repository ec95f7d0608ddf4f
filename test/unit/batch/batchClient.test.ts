import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, OutcomeUnknownError } from '../../../src/core/errors';
import {
  BatchError,
  cancelBatch,
  completedOrThrow,
  createBatch,
  getBatch,
  listBatches,
  matchResults,
  openResults,
  readResults,
  submitBatchJob,
  uploadBatchFile,
  waitForBatch,
  type Batch,
  type BatchResult,
} from '../../../src/core/inference/batch';
import { chatRequests, startBatchRig, type BatchRig } from './helpers';

const STEP = 60_000;

for (const profile of ['contract', 'production'] as const) {
  describe(`batch client over real HTTP (${profile})`, () => {
    let rig: BatchRig;
    beforeEach(async () => {
      rig = await startBatchRig({ profile, batchStepMs: STEP, retry: { attempts: 1 } });
    });
    afterEach(() => rig.close());

    async function submit(n: number, extra: Parameters<typeof chatRequests>[1] = 'gpt-oss:120b'): Promise<Batch> {
      const result = await submitBatchJob(rig.transport, chatRequests(n, extra), { endpoint: '/v1/chat/completions', tmpDir: rig.tmp, name: 'test' });
      assert.equal(result.error, undefined);
      assert.equal(result.parts.length, 1);
      return (result.parts[0] as { batch: Batch }).batch;
    }

    it('moves validating -> in_progress -> finalizing -> completed as the clock advances, request_counts growing', async () => {
      const batch = await submit(8);
      assert.equal(batch.status, 'validating');
      assert.equal(batch.requestCounts.total, 8);
      const seen: Array<[string, number]> = [];
      const final = await waitForBatch(rig.transport, batch.id, { sleep: rig.sleep, initialDelayMs: 20_000, maxDelayMs: 40_000, onUpdate: (b) => seen.push([b.status, b.requestCounts.completed]) });
      assert.equal(final.status, 'completed');
      const statuses = [...new Set(seen.map(([s]) => s))];
      assert.deepEqual(statuses, ['validating', 'in_progress', 'finalizing', 'completed']);
      const progress = seen.filter(([s]) => s === 'in_progress').map(([, c]) => c);
      assert.ok(progress.some((c) => c > 0 && c < 8), `some partial progress: ${progress.join(',')}`);
      assert.ok(final.outputFileId);
      assert.ok(final.expiresAt !== undefined && final.completedAt !== undefined && final.expiresAt - final.completedAt === 7 * 86_400_000);
    });

    it('polls with a growing delay up to its ceiling', async () => {
      const batch = await submit(2);
      await waitForBatch(rig.transport, batch.id, { sleep: rig.sleep, initialDelayMs: 10_000, maxDelayMs: 40_000 });
      assert.deepEqual(rig.sleeps.slice(0, 3), [10_000, 20_000, 40_000]);
      assert.ok(rig.sleeps.every((ms) => ms <= 40_000));
    });

    it('waits as long as a 429 Retry-After asks before reading again', async () => {
      const batch = await submit(2);
      rig.sandbox.control.burst({ status: 429, count: 1, retryAfterSeconds: 120, pathPrefix: '/v1/batches/' });
      const final = await waitForBatch(rig.transport, batch.id, { sleep: rig.sleep, initialDelayMs: 10_000, maxDelayMs: 300_000 });
      assert.equal(rig.sleeps[0], 120_000);
      assert.equal(final.status, 'completed');
    });

    it('reads again after a 503, and gives up after maxFailures in a row', async () => {
      const batch = await submit(2);
      rig.sandbox.control.burst({ status: 503, count: 2, pathPrefix: '/v1/batches/' });
      const final = await waitForBatch(rig.transport, batch.id, { sleep: rig.sleep, initialDelayMs: 10_000 });
      assert.equal(final.status, 'completed');
      rig.sandbox.control.burst({ status: 503, count: 5, pathPrefix: '/v1/batches/' });
      await assert.rejects(waitForBatch(rig.transport, batch.id, { sleep: rig.sleep, maxFailures: 3 }), (e: unknown) => e instanceof ApiError && e.status === 503);
    });

    it('matches results by custom_id in any order, with per-line errors (partial success)', async () => {
      const requests = [...chatRequests(7), { customId: 'bad-model', body: { model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] } }];
      const submitted = await submitBatchJob(rig.transport, requests, { endpoint: '/v1/chat/completions', tmpDir: rig.tmp });
      const batch = submitted.parts[0]?.batch as Batch;
      const final = completedOrThrow(await waitForBatch(rig.transport, batch.id, { sleep: rig.sleep }));
      assert.deepEqual(final.requestCounts, { total: 8, completed: 7, failed: 1 });
      const order: string[] = [];
      const answers = new Map<string, BatchResult>();
      const summary = await matchResults(
        requests.map((r) => r.customId),
        readResults(await openResults(rig.transport, final.outputFileId as string)),
        (r) => {
          order.push(r.customId);
          answers.set(r.customId, r);
        },
      );
      assert.equal(summary.succeeded, 7);
      assert.deepEqual(summary.failed.map((f) => [f.customId, f.code]), [['bad-model', 'model_not_found']]);
      assert.deepEqual(summary.missing, []);
      assert.notDeepEqual(order, requests.map((r) => r.customId), 'the sandbox answers out of order');
      const first = answers.get('item-3');
      assert.ok(first?.ok);
      assert.match(JSON.stringify(first.body), /Summarise file 3/);
    });

    it('reports a batch the provider refused at validation with its errors and line numbers', async () => {
      const path = join(rig.tmp, 'bad.jsonl');
      writeFileSync(path, '{"custom_id":"a","method":"POST","url":"/v1/chat/completions","body":{}}\nnot json\n{"method":"POST","url":"/v1/chat/completions","body":{}}\n');
      const file = await uploadBatchFile(rig.transport, path, 'bad.jsonl');
      const batch = await createBatch(rig.transport, { inputFileId: file.id, endpoint: '/v1/chat/completions' });
      const final = await waitForBatch(rig.transport, batch.id, { sleep: rig.sleep });
      assert.equal(final.status, 'failed');
      assert.throws(
        () => completedOrThrow(final),
        (e: unknown) => e instanceof BatchError && e.reason === 'validation_failed' && e.details.issues?.map((i) => i.line).join(',') === '2,3' && /line 2/.test(e.message),
      );
    });

    it('cancels a running batch: cancelled, and its results are not offered as complete', async () => {
      const batch = await submit(6);
      rig.sandbox.control.advanceTime(STEP * 2);
      const cancelled = await cancelBatch(rig.transport, batch.id);
      assert.equal(cancelled.status, 'cancelled');
      assert.ok(cancelled.requestCounts.completed > 0 && cancelled.requestCounts.completed < 6);
      rig.sandbox.control.advanceTime(STEP * 10);
      const { batch: later } = await getBatch(rig.transport, batch.id);
      assert.equal(later.status, 'cancelled');
      assert.throws(() => completedOrThrow(later), (e: unknown) => e instanceof BatchError && e.reason === 'cancelled');
      await assert.rejects(cancelBatch(rig.transport, (await submitAndComplete()).id), (e: unknown) => e instanceof ApiError && e.status === 409);
    });

    async function submitAndComplete(): Promise<Batch> {
      const batch = await submit(1);
      return waitForBatch(rig.transport, batch.id, { sleep: rig.sleep });
    }

    it('a batch not done within 24 h expires', async () => {
      rig.sandbox.control.setBatches({ hold: true });
      const batch = await submit(3);
      const final = await waitForBatch(rig.transport, batch.id, { sleep: rig.sleep, maxDelayMs: 3_600_000 });
      assert.equal(final.status, 'expired');
      assert.throws(() => completedOrThrow(final), (e: unknown) => e instanceof BatchError && e.reason === 'expired');
    });

    it('results older than 7 days are gone: results_deleted', async () => {
      const final = await submitAndComplete();
      rig.sandbox.control.advanceTime(7 * 86_400_000 + 1000);
      await assert.rejects(openResults(rig.transport, final.outputFileId as string), (e: unknown) => e instanceof BatchError && e.reason === 'results_deleted');
    });

    it('lists the account batches, newest first', async () => {
      const a = await submit(1);
      const b = await submit(1);
      const list = await listBatches(rig.transport, { limit: 10 });
      assert.deepEqual(list.map((x) => x.id), [b.id, a.id]);
    });

    for (const [available, status] of [['not_found', 404], ['forbidden', 403]] as const) {
      it(`an account without the Batch API (${status}) is BatchError unavailable, nothing created`, async () => {
        rig.sandbox.control.setBatches({ available });
        const result = await submitBatchJob(rig.transport, chatRequests(2), { endpoint: '/v1/chat/completions', tmpDir: rig.tmp });
        assert.ok(result.error instanceof BatchError && result.error.reason === 'unavailable' && result.error.details.status === status);
        assert.equal(result.parts.length, 0);
        assert.equal(result.unsent.length, 1);
        await assert.rejects(listBatches(rig.transport), (e: unknown) => e instanceof BatchError && e.reason === 'unavailable');
      });
    }

    it('splits a job over the line limit into several batches, each within it', async () => {
      const result = await submitBatchJob(rig.transport, chatRequests(7), { endpoint: '/v1/chat/completions', tmpDir: rig.tmp, maxLines: 3 });
      assert.equal(result.error, undefined);
      assert.deepEqual(result.parts.map((p) => p.batch.requestCounts.total), [3, 3, 1]);
      assert.deepEqual(result.parts.map((p) => [p.part.firstCustomId, p.part.lastCustomId]), [['item-0', 'item-2'], ['item-3', 'item-5'], ['item-6', 'item-6']]);
    });

    it('refuses a request alone over the byte limit before sending anything', async () => {
      const big = { customId: 'big', body: { model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'x'.repeat(5000) }] } };
      await assert.rejects(
        submitBatchJob(rig.transport, [...chatRequests(2), big], { endpoint: '/v1/chat/completions', tmpDir: rig.tmp, maxBytes: 4096 }),
        (e: unknown) => e instanceof BatchError && e.reason === 'too_large' && e.details.customId === 'big',
      );
      assert.equal(rig.sandbox.control.requests({ pathPrefix: '/v1/' }).length, 0);
    });
  });
}

describe('batch client: the one write policy', () => {
  let rig: BatchRig;
  beforeEach(async () => {
    // Default transport retries: the policy, not a disabled retry, keeps the writes single.
    rig = await startBatchRig({ batchStepMs: STEP });
  });
  afterEach(() => rig.close());

  it('a create whose connection breaks after the server acted is OutcomeUnknownError, sent once', async () => {
    rig.sandbox.control.resetAfterApply({ method: 'POST', pathPrefix: '/v1/batches', count: 1 });
    const result = await submitBatchJob(rig.transport, chatRequests(2), { endpoint: '/v1/chat/completions', tmpDir: rig.tmp });
    assert.ok(result.error instanceof OutcomeUnknownError);
    assert.equal(rig.sandbox.control.requests({ pathPrefix: '/v1/batches' }).length, 1);
    assert.equal(rig.sandbox.control.snapshot().batches.count, 1, 'the batch exists once on the server');
  });

  it('a 503 on create or upload is not sent again', async () => {
    rig.sandbox.control.burst({ status: 503, count: 1, pathPrefix: '/v1/batches' });
    const result = await submitBatchJob(rig.transport, chatRequests(2), { endpoint: '/v1/chat/completions', tmpDir: rig.tmp });
    assert.ok(result.error instanceof ApiError && result.error.status === 503);
    assert.equal(rig.sandbox.control.requests({ pathPrefix: '/v1/batches' }).length, 1);
    rig.sandbox.control.burst({ status: 503, count: 1, pathPrefix: '/v1/files' });
    const again = await submitBatchJob(rig.transport, chatRequests(2), { endpoint: '/v1/chat/completions', tmpDir: rig.tmp });
    assert.ok(again.error instanceof ApiError && again.error.status === 503);
    assert.equal(rig.sandbox.control.requests({ pathPrefix: '/v1/files' }).length, 2, 'one upload per job');
  });

  it('a 429 on create (a refusal) is retried', async () => {
    rig.sandbox.control.burst({ status: 429, count: 1, retryAfterSeconds: 0, pathPrefix: '/v1/batches' });
    const result = await submitBatchJob(rig.transport, chatRequests(2), { endpoint: '/v1/chat/completions', tmpDir: rig.tmp });
    assert.equal(result.error, undefined);
    assert.equal(rig.sandbox.control.requests({ pathPrefix: '/v1/batches' }).length, 2);
    assert.equal(rig.sandbox.control.snapshot().batches.count, 1);
  });
});
