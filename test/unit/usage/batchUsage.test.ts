import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { jobOverCaps, parseTurnCaps } from '../../../src/core/agent/turnBudget';
import { matchResults, openResults, readResults, submitBatchJob, waitForBatch, type Batch } from '../../../src/core/inference/batch';
import { BatchUsageTally, estimateJobCost } from '../../../src/core/usage/batchCost';
import { usageCsv } from '../../../src/core/usage/csv';
import type { UsageEvent } from '../../../src/core/usage/events';
import { capBlock } from '../../../src/core/usage/guard';
import { BASE_COUNTER_KEYS, BATCH_COUNTER_KEYS, Ledger } from '../../../src/core/usage/ledger';
import { BATCH_CAP_NOTE, usageMarkdown } from '../../../src/core/usage/markdown';
import { RATES } from '../../../src/core/usage/rates';
import { parseUsageSettings } from '../../../src/core/usage/settings';
import { BASE_FILE, UsageStore } from '../../../src/core/usage/store';
import { levelOf, summarize } from '../../../src/core/usage/summary';
import { validEvent } from '../../../src/core/usage/validate';
import { chatRequests, startBatchRig, type BatchRig } from '../batch/helpers';

const NOW = Date.UTC(2026, 3, 14, 10, 20);
const near = (a: number, b: number): boolean => Math.abs(a - b) < 1e-9;

const batchEvent = (promptTokens: number, completionTokens: number, requests = 10, estimated = false): UsageEvent => ({ kind: 'batch', at: NOW, model: 'gpt-oss:120b', requests, promptTokens, completionTokens, estimated });

describe('batch usage: metered at batch rates, apart from the caps', () => {
  it('prices batch tokens at 0.90 / 4.00 EUR per million and reports the money saved against standard rates', () => {
    const ledger = new Ledger('UTC');
    ledger.add(batchEvent(1_000_000, 1_000_000));
    const s = summarize(ledger, parseUsageSettings({}), NOW);
    assert.equal(s.batch.requests, 10);
    assert.deepEqual([s.batch.inputTokens, s.batch.outputTokens], [1_000_000, 1_000_000]);
    assert.ok(near(s.batch.costEur, 4.9), String(s.batch.costEur));
    assert.ok(near(s.batch.standardEur, 9.8), String(s.batch.standardEur));
    assert.ok(near(s.batch.savedEur, 4.9), String(s.batch.savedEur));
    const rows = Object.fromEntries(s.costs.byKind.map((k) => [k.kind, k]));
    assert.ok(near(rows.batchInput?.eur ?? -1, 0.9) && near(rows.batchOutput?.eur ?? -1, 4));
    assert.equal(rows.input?.quantity, 0, 'not priced as standard input');
    assert.equal(rows.output?.quantity, 0, 'not priced as standard output');
    assert.ok(near(s.costs.totalEur, 4.9) && near(s.month.costEur, 4.9), 'the month spend (and budget) includes it');
    assert.equal(RATES.batchInput.eurPerUnit * 2, RATES.input.eurPerUnit);
  });

  it('never counts batch work against the hourly or daily interactive cap', () => {
    const ledger = new Ledger('UTC');
    // A batch far larger than the tier's whole hourly allowance (150 000 output tokens).
    ledger.add(batchEvent(5_000_000, 2_000_000, 5_000));
    ledger.add({ kind: 'chat', at: NOW, model: 'm', promptTokens: 100, completionTokens: 40, reasoningTokens: 0, estimated: false });
    const s = summarize(ledger, parseUsageSettings({}), NOW);
    assert.equal(s.hour.used, 40);
    assert.equal(s.day.used, 40);
    assert.equal(s.forecast.outputTokensPerHour, 40);
    assert.equal(levelOf(s), 'normal');
    assert.equal(capBlock(s, { model: 'm', maxTokens: 1_000 }), undefined, 'an interactive request still passes');
    assert.equal(s.charts.hours.output.reduce((a, b) => a + b, 0), 40);
  });

  it('/usage shows the same batch figures as the view, and says batch work is not capped', () => {
    const ledger = new Ledger('UTC');
    const empty = usageMarkdown(summarize(ledger, parseUsageSettings({}), NOW));
    assert.ok(empty.includes(BATCH_CAP_NOTE), 'the note stands by the caps even before any batch');
    assert.ok(empty.includes('No batch work this month.'));
    ledger.add(batchEvent(2_000_000, 500_000, 40));
    const md = usageMarkdown(summarize(ledger, parseUsageSettings({}), NOW));
    assert.match(md, /\*\*Batch \(half price\) this month:\*\* 40 result\(s\), 2 000 000 input and 500 000 output tokens: €3\.80 \(€7\.60 at standard rates, €3\.80 saved\)\./);
    assert.match(md, /\| Batch output tokens \(half price\) \| 500 000 \| €2\.00 \|/);
  });

  it('validates a batch event (counts in range), and an estimated one marks its results estimated', () => {
    assert.ok(validEvent(batchEvent(10, 5)));
    assert.ok(!validEvent({ ...batchEvent(10, 5), requests: -1 }));
    assert.ok(!validEvent({ ...batchEvent(10, 5), promptTokens: 'many' }));
    const ledger = new Ledger('UTC');
    ledger.add(batchEvent(10, 5, 3, true));
    assert.equal(summarize(ledger, parseUsageSettings({}), NOW).estimatedRequests, 3);
  });

  it('the batch counters survive the store; a bucket written before them reads as 0; the CSV prices them', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'stratus-batch-usage-'));
    try {
      const store = new UsageStore({ dir, timeZone: 'UTC', now: () => NOW });
      await store.append([batchEvent(300, 200, 4)]);
      await store.compact();
      const loaded = (await new UsageStore({ dir, timeZone: 'UTC', now: () => NOW }).load()).ledger;
      const c = loaded.total(-Infinity, Infinity);
      assert.deepEqual([c.batchRequests, c.batchInput, c.batchOutput, c.input, c.output], [4, 300, 200, 0, 0]);
      const csv = usageCsv(loaded).split('\n');
      const header = (csv[0] ?? '').split(',');
      for (const key of [...BATCH_COUNTER_KEYS, 'cost_batch_eur']) assert.ok(header.includes(key), key);
      const row = (csv[1] ?? '').split(',');
      assert.equal(Number(row[header.indexOf('cost_batch_eur')]), Number((300 * 0.9e-6 + 200 * 4e-6).toFixed(6)));

      const old = { ...Object.fromEntries(BASE_COUNTER_KEYS.map((k) => [k, 0])), requests: 1, input: 70 };
      await fs.writeFile(path.join(dir, BASE_FILE), JSON.stringify({ format: 1, version: 1, hwm: {}, buckets: [{ g: 'h', s: NOW - 3_600_000, m: 'old', c: old }, { g: 'h', s: NOW - 3_600_000, m: 'bad', c: { ...old, batchInput: -4 } }] }));
      const before = (await new UsageStore({ dir, timeZone: 'UTC', now: () => NOW }).load()).ledger.total(-Infinity, Infinity);
      assert.equal(before.input, 70, 'the bucket with a batch counter out of range is dropped');
      for (const key of BATCH_COUNTER_KEYS) assert.equal(before[key], 0, key);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('batch usage: the tally of a results file', () => {
  it('sums the usage of answered lines; an answer without usage is estimated and marked so', () => {
    const tally = new BatchUsageTally(120);
    assert.equal(tally.event('m', NOW), undefined, 'nothing answered: nothing recorded');
    tally.add({ choices: [{ message: { content: 'ok' } }], usage: { prompt_tokens: 100, completion_tokens: 20 } });
    assert.deepEqual(tally.event('m', NOW), { kind: 'batch', at: NOW, model: 'm', requests: 1, promptTokens: 100, completionTokens: 20, estimated: false });
    tally.add({ choices: [{ message: { content: 'x'.repeat(400) } }] });
    const e = tally.event('m', NOW);
    assert.ok(e && e.kind === 'batch' && e.estimated && e.requests === 2 && e.promptTokens === 220 && e.completionTokens > 20);
  });

  for (const profile of ['contract', 'production'] as const) {
    it(`records what the sandbox's results report (${profile}): failed lines bill nothing`, async () => {
      const rig: BatchRig = await startBatchRig({ profile, batchStepMs: 60_000, retry: { attempts: 1 } });
      try {
        const requests = [...chatRequests(5), { customId: 'bad-model', body: { model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] } }];
        const sent = await submitBatchJob(rig.transport, requests, { endpoint: '/v1/chat/completions', tmpDir: rig.tmp, name: 'usage' });
        const batch = (sent.parts[0] as { batch: Batch }).batch;
        const final = await waitForBatch(rig.transport, batch.id, { sleep: rig.sleep, initialDelayMs: 60_000 });
        assert.ok(final.outputFileId);
        const tally = new BatchUsageTally(0);
        let prompt = 0;
        let completion = 0;
        const summary = await matchResults(requests.map((r) => r.customId), readResults(await openResults(rig.transport, final.outputFileId)), (r) => {
          if (!r.ok) return;
          tally.add(r.body);
          const u = (r.body as { usage: { prompt_tokens: number; completion_tokens: number } }).usage;
          prompt += u.prompt_tokens;
          completion += u.completion_tokens;
        });
        assert.equal(summary.failed.length, 1);
        const event = tally.event('gpt-oss:120b', NOW);
        assert.deepEqual(event, { kind: 'batch', at: NOW, model: 'gpt-oss:120b', requests: 5, promptTokens: prompt, completionTokens: completion, estimated: false });
        assert.ok(prompt > 0 && completion > 0);
      } finally {
        await rig.close();
      }
    });
  }
});

describe('batch usage: the caps of one task hold a bulk job as a whole', () => {
  const caps = parseTurnCaps({ maxTurnTokens: 5_000_000, maxTurnCostEur: 10 });

  it('refuses a job whose ceiling passes the cost cap at the price chosen; the batch price may fit where now does not', () => {
    // 1.5 M tokens each way: 14.70 EUR now, 7.35 EUR as a batch.
    const estimate = estimateJobCost({ inputTokens: 1_500_000, outputTokens: 1_500_000 });
    const now = jobOverCaps(estimate, 'now', caps);
    assert.ok(now && now.cap === 'cost' && near(now.value, 14.7) && now.limit === 10);
    assert.equal(jobOverCaps(estimate, 'batch', caps), undefined);
    const big = estimateJobCost({ inputTokens: 2_100_000, outputTokens: 2_100_000 });
    assert.equal(jobOverCaps(big, 'batch', caps)?.cap, 'cost', 'a batch is held to the cap too, at its own price');
  });

  it('refuses a job past the token cap whatever its price; no cost cap (null) leaves the token cap alone', () => {
    const estimate = estimateJobCost({ inputTokens: 4_000_000, outputTokens: 2_000_000 });
    assert.deepEqual(jobOverCaps(estimate, 'batch', caps), { cap: 'tokens', value: 6_000_000, limit: 5_000_000 });
    const noCost = parseTurnCaps({ maxTurnTokens: 50_000_000, maxTurnCostEur: null });
    assert.equal(jobOverCaps(estimate, 'now', noCost), undefined);
  });
});
