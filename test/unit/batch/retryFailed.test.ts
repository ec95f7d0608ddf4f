import assert from 'node:assert/strict';
import { matchResults, openResults, readResults, submitBatchJob, waitForBatch, type Batch, type BatchRequest } from '../../../src/core/inference/batch';
import { chatRequests, startBatchRig, type BatchRig } from './helpers';

for (const profile of ['contract', 'production'] as const) {
  describe(`batch: retrying the failed items over real HTTP (${profile})`, () => {
    let rig: BatchRig;
    beforeEach(async () => {
      rig = await startBatchRig({ profile, batchStepMs: 60_000, retry: { attempts: 1 } });
    });
    afterEach(() => rig.close());

    async function run(requests: BatchRequest[]): Promise<{ batch: Batch; failed: Array<{ customId: string; code: string; message: string }>; succeeded: number }> {
      const sent = await submitBatchJob(rig.transport, requests, { endpoint: '/v1/chat/completions', tmpDir: rig.tmp, name: 'retry' });
      assert.equal(sent.error, undefined);
      const final = await waitForBatch(rig.transport, (sent.parts[0] as { batch: Batch }).batch.id, { sleep: rig.sleep, initialDelayMs: 60_000 });
      assert.ok(final.outputFileId);
      const summary = await matchResults(requests.map((r) => r.customId), readResults(await openResults(rig.transport, final.outputFileId)));
      return { batch: final, failed: summary.failed, succeeded: summary.succeeded };
    }

    it('a partly failed batch says which items failed and why; a new batch of just those completes them', async () => {
      const requests = chatRequests(5);
      const marked = { ...requests[2], body: { ...(requests[2]?.body as object), messages: [{ role: 'user', content: 'FAIL-ME once' }] } } as BatchRequest;
      requests[2] = marked;
      rig.sandbox.control.setBatches({ failLinesContaining: 'FAIL-ME' });
      const first = await run(requests);
      assert.equal(first.batch.status, 'completed');
      assert.equal(first.batch.requestCounts.failed, 1);
      assert.equal(first.succeeded, 4);
      assert.deepEqual(first.failed, [{ customId: 'item-2', code: 'server_error', message: 'The model could not answer this request; retry it.' }]);

      rig.sandbox.control.setBatches({ failLinesContaining: '' });
      const retry = requests.filter((r) => first.failed.some((f) => f.customId === r.customId));
      const second = await run(retry);
      assert.equal(second.batch.requestCounts.total, 1, 'just the failed item is sent again');
      assert.deepEqual([second.succeeded, second.failed.length], [1, 0]);
    });
  });
}
