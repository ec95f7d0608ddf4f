import assert from 'node:assert/strict';
import { batchAnswerReader, estimateOcrBatch, ocrBatchRequests, pageAnswer, pageCustomId } from '../../../src/core/documents/ocrBatch';
import { openDocument } from '../../../src/core/documents/open';
import type { PdfJs } from '../../../src/core/documents/pdf';
import * as pdfjs from '../../../src/core/documents/pdfjsEntry';
import { planPages } from '../../../src/core/documents/plan';
import { ocrReader, readPages } from '../../../src/core/documents/run';
import type { DocumentSource, PageOutcome } from '../../../src/core/documents/types';
import { createInferenceClient } from '../../../src/core/inference';
import { BatchError, cancelBatch, completedOrThrow, matchResults, openResults, readResults, submitBatchJob, waitForBatch, type Batch, type BatchResult } from '../../../src/core/inference/batch';
import { startBatchRig, type BatchRig } from '../batch/helpers';
import { imagePdf, textPdf } from './fixtures';

const loadPdfJs = (): Promise<PdfJs> => Promise.resolve(pdfjs as unknown as PdfJs);
const MODEL = { id: 'deepseek-ocr:3b', maxModelLen: 8192 };
const STEP = 60_000;

async function ocrPages(source: DocumentSource): Promise<number[]> {
  const infos = [];
  for (let n = 1; n <= source.pageCount; n++) infos.push(await source.info(n));
  return planPages(infos, 'auto').filter((p) => p.action === 'ocr').map((p) => p.number);
}

/** Sends the document's OCR pages as one batch and waits for it on the sandbox clock. */
async function send(rig: BatchRig, source: DocumentSource, pages: number[], unsent: Map<number, string>): Promise<Batch> {
  const sent = await submitBatchJob(rig.transport, ocrBatchRequests(source, pages, MODEL, (page, reason) => unsent.set(page, reason)), { endpoint: '/v1/chat/completions', tmpDir: rig.tmp, name: 'ocr' });
  assert.equal(sent.error, undefined);
  const batch = sent.parts[0]?.batch;
  assert.ok(batch);
  return waitForBatch(rig.transport, batch.id, { sleep: rig.sleep, initialDelayMs: 30_000, maxDelayMs: 60_000 });
}

/** The answers by page, as the document feature reads them once the job completed. */
async function answersOf(rig: BatchRig, batch: Batch, pages: number[]): Promise<{ answers: Map<number, BatchResult>; missing: string[] }> {
  const answers = new Map<number, BatchResult>();
  const summary = await matchResults(pages.map(pageCustomId), readResults(await openResults(rig.transport, completedOrThrow(batch).outputFileId ?? '')), (r) => {
    answers.set(Number(r.customId.slice('page-'.length)), r);
  });
  return { answers, missing: summary.missing };
}

const rows = (outcomes: PageOutcome[]): Array<[number, string, string]> => outcomes.map((p) => [p.number, p.status, p.markdown ?? p.reason ?? '']);

for (const profile of ['contract', 'production'] as const) {
  describe(`documents: OCR as a batch job over real HTTP (${profile})`, () => {
    let rig: BatchRig;
    beforeEach(async () => {
      rig = await startBatchRig({ profile, batchStepMs: STEP, retry: { attempts: 1 } });
    });
    afterEach(() => rig.close());

    it('sends the OCR pages of the page plan in one batch; once completed the pages read as the interactive run reads them', async () => {
      const bytes = await imagePdf([{ markdown: '# One' }, { markdown: 'Two' }, { markdown: 'Three' }]);
      const source = await openDocument(bytes, 'scan.pdf', loadPdfJs, 8192);
      const pages = await ocrPages(source);
      assert.deepEqual(pages, [1, 2, 3]);
      const unsent = new Map<number, string>();
      rig.sandbox.control.clearRequests();
      const final = await send(rig, source, pages, unsent);
      assert.equal(final.requestCounts.total, 3);
      assert.equal(rig.sandbox.control.requests({ pathPrefix: '/v1/chat/completions' }).length, 0, 'nothing read interactively');
      const { answers } = await answersOf(rig, final, pages);
      const plan = pages.map((number) => ({ number, action: 'ocr' as const }));
      const batched = await readPages({ source, plan, read: batchAnswerReader(answers, unsent), model: MODEL.id, concurrency: 2 });

      const client = createInferenceClient({ baseUrl: rig.sandbox.inferenceUrl, apiKey: () => Promise.resolve(rig.sandbox.credentials.apiKey), retry: { attempts: 1 } });
      const now = await readPages({ source, plan, read: ocrReader(client, MODEL), model: MODEL.id, concurrency: 2 });
      await client.close();
      await source.close();
      assert.deepEqual(rows(batched), rows(now), 'the same Markdown as the interactive run');
      assert.deepEqual(rows(batched), [[1, 'done', '# One'], [2, 'done', 'Two'], [3, 'done', 'Three']]);
    });

    it('partial failure: the failed pages are listed with why, the others done, none pretends to be done', async () => {
      const bytes = await imagePdf([{ markdown: 'Fine' }, { markdown: 'Broken', faults: [{ status: 400, times: 5 }] }, { markdown: 'Also fine' }]);
      const source = await openDocument(bytes, 'scan.pdf', loadPdfJs, 8192);
      const pages = await ocrPages(source);
      const unsent = new Map<number, string>();
      const final = await send(rig, source, pages, unsent);
      assert.equal(final.requestCounts.failed, 1);
      const { answers } = await answersOf(rig, final, pages);
      answers.delete(3);
      const outcomes = await readPages({ source, plan: pages.map((number) => ({ number, action: 'ocr' as const })), read: batchAnswerReader(answers, unsent), model: MODEL.id, concurrency: 1 });
      await source.close();
      assert.deepEqual(outcomes.map((p) => [p.number, p.status]), [[1, 'done'], [2, 'failed'], [3, 'failed']]);
      assert.match(outcomes[1]?.reason ?? '', /^the batch could not read this page: /);
      assert.equal(outcomes[2]?.reason, 'no result came back for this page');
      assert.equal(outcomes[1]?.markdown, undefined);
    });

    it('a cancelled or expired batch gives no pages, and an account without batch (403) creates nothing', async () => {
      const source = await openDocument(await imagePdf([{ markdown: 'A' }, { markdown: 'B' }]), 'scan.pdf', loadPdfJs, 8192);
      const pages = await ocrPages(source);
      const sent = await submitBatchJob(rig.transport, ocrBatchRequests(source, pages, MODEL, () => undefined), { endpoint: '/v1/chat/completions', tmpDir: rig.tmp });
      await rig.sleep(STEP);
      const cancelled = await cancelBatch(rig.transport, sent.parts[0]?.batch.id ?? '');
      await assert.rejects(answersOf(rig, cancelled, pages), (e: unknown) => e instanceof BatchError && e.reason === 'cancelled');
      rig.sandbox.control.setBatches({ hold: true });
      const expired = await send(rig, source, pages, new Map());
      await assert.rejects(answersOf(rig, expired, pages), (e: unknown) => e instanceof BatchError && e.reason === 'expired');
      rig.sandbox.control.setBatches({ hold: false, available: 'forbidden' });
      const refused = await submitBatchJob(rig.transport, ocrBatchRequests(source, pages, MODEL, () => undefined), { endpoint: '/v1/chat/completions', tmpDir: rig.tmp });
      await source.close();
      assert.equal(refused.parts.length, 0);
      assert.ok(refused.error instanceof BatchError && refused.error.reason === 'unavailable');
    });
  });
}

describe('documents: OCR batch lines and answers', () => {
  it('a page that cannot be sent has no line and is told with why; the reader fails it with that reason', async () => {
    const source = await openDocument(await textPdf(['only text here']), 'text.pdf', loadPdfJs, 8192);
    const unsent = new Map<number, string>();
    const lines = [];
    for await (const line of ocrBatchRequests(source, [1], MODEL, (page, reason) => unsent.set(page, reason))) lines.push(line);
    assert.deepEqual(lines, []);
    assert.deepEqual([...unsent], [[1, 'the page has no image to read']]);
    const tiny = [];
    const scan = await openDocument(await imagePdf([{ markdown: 'x' }]), 'scan.pdf', loadPdfJs, 8192);
    const small = new Map<number, string>();
    for await (const line of ocrBatchRequests(scan, [1], { id: 'small:1b', maxModelLen: 600 }, (page, reason) => small.set(page, reason))) tiny.push(line);
    await Promise.all([source.close(), scan.close()]);
    assert.equal(tiny.length, 0);
    assert.match(small.get(1) ?? '', /too small to read a page/);
    await assert.rejects(batchAnswerReader(new Map(), unsent)({ mime: 'image/png', bytes: new Uint8Array(), width: 1, height: 1 }, new AbortController().signal, 1), /not sent in the batch: the page has no image to read/);
  });

  it('estimates both prices before any image is made, and reads an answer cut at its limit as cut', () => {
    const e = estimateOcrBatch(300, MODEL);
    assert.ok(e.inputTokens >= 300 * 4096 && e.outputTokens > 0);
    assert.ok(Math.abs(e.standardEur - 2 * e.batchEur) < 1e-9);
    const cut = pageAnswer({ customId: 'page-1', ok: true, statusCode: 200, body: { choices: [{ message: { content: 'Half a page' }, finish_reason: 'length' }] } });
    assert.ok('markdown' in cut && cut.markdown.startsWith('Half a page') && /cut short/.test(cut.markdown));
    assert.deepEqual(pageAnswer({ customId: 'page-1', ok: true, statusCode: 200, body: { choices: [] } }), { reason: 'the answer holds no text' });
  });
});
