import * as vscode from 'vscode';
import { contentKey, type DocumentCache } from '../../core/documents/cache';
import { batchAnswerReader, estimateOcrBatch, ocrBatchRequests, pageCustomId } from '../../core/documents/ocrBatch';
import type { ExtractMode } from '../../core/documents/types';
import { isBatchError, type BatchResult } from '../../core/inference/batch';
import { presentError } from '../../core/presentError';
import { formatEur } from '../../core/usage/format';
import { askBatchMode, batchErrorMessage, bulkJobCapRefusal, type BatchMode } from '../../platform/batchJobUi';
import type { BatchJobRecord, BatchJobService } from '../../services/batchJobs';
import { Commands } from '../commands';
import type { Deps } from '../deps';
import { planExtraction, type ExtractOptions, type ExtractResult } from './extract';
import { loadDocumentBytes } from './load';
import type { OcrModel } from './models';
import { readDocumentSettings } from './settings';
import type { PageReader } from '../../core/documents/run';

/** The kind of document OCR jobs (services/batchJobs.ts). */
export const DOCUMENT_OCR_KIND = 'documentOcr';

/** What a job keeps to show its pages: the file as it was sent (its content key) and the page plan. */
interface OcrJobData {
  uri: string;
  fileName: string;
  key: string;
  pages: number[];
  mode: ExtractMode;
  model: string;
  /** Pages that had no line (no image, a context too small), with why. */
  unsent: Array<[number, string]>;
}

export type OcrBatchOutcome =
  | { kind: 'sent'; jobId: string; pages: number }
  | { kind: 'read'; result: ExtractResult | undefined }
  | { kind: 'stopped' }
  | { kind: 'error'; message: string; reason?: string | undefined };

/** Reads the document in the view (the extract command's own flow) with `reader` for OCR pages. */
export type ExtractWith = (uri: vscode.Uri, options: ExtractOptions, reader?: (model: OcrModel) => PageReader) => Promise<ExtractResult | undefined>;

function jobData(job: BatchJobRecord): OcrJobData | undefined {
  const d = job.data as Partial<OcrJobData> | undefined;
  return d && typeof d.uri === 'string' && typeof d.key === 'string' && Array.isArray(d.pages) && typeof d.model === 'string' && (d.mode === 'auto' || d.mode === 'ocrAll') && Array.isArray(d.unsent) ? (d as OcrJobData) : undefined;
}

/**
 * Document OCR now or as a batch: the same page plan as the extract command, both prices shown
 * before anything is sent; once the batch completes, the document view shows its pages as the
 * interactive run would (failed pages listed with why), unless the file changed since it was sent.
 */
export function ocrBatchJobs(deps: Deps, cache: DocumentCache, jobs: BatchJobService, extractWith: ExtractWith): { disposable: vscode.Disposable; run(uri: vscode.Uri, options: ExtractOptions & { batchMode?: BatchMode }): Promise<OcrBatchOutcome>; apply(jobId: string): Promise<OcrBatchOutcome> } {
  const failed = (error: unknown): OcrBatchOutcome => {
    const message = isBatchError(error) ? batchErrorMessage(error.reason, error.message) : presentError(error).message;
    if (!isBatchError(error) && presentError(error).cancelled) return { kind: 'stopped' };
    void vscode.window.showErrorMessage(message);
    return { kind: 'error', message, ...(isBatchError(error) ? { reason: error.reason } : {}) };
  };

  const run = async (uri: vscode.Uri, options: ExtractOptions & { batchMode?: BatchMode }): Promise<OcrBatchOutcome> => {
    try {
      const planned = await planExtraction(deps, cache, uri, options);
      if (!planned) return { kind: 'stopped' };
      const { source, model, fileName } = planned;
      const ocrPages = planned.todo.filter((p) => p.action === 'ocr').map((p) => p.number);
      const same: ExtractOptions = { pages: planned.pages, mode: planned.mode, ...(model ? { model: model.id } : {}) };
      if (ocrPages.length === 0 || !model) {
        // Nothing for a model to read: the text layer and the cache are free, read now.
        await source.close();
        return { kind: 'read', result: await extractWith(uri, same) };
      }
      const estimate = estimateOcrBatch(ocrPages.length, model);
      const what = vscode.l10n.t('{0} page(s) of {1} by OCR', ocrPages.length, fileName);
      const mode = options.batchMode ?? (await askBatchMode({ title: vscode.l10n.t('Read {0}: now or as a batch?', fileName), what, estimate, nowDetail: vscode.l10n.t('One request per page, now.') }));
      const refused = mode ? bulkJobCapRefusal(estimate, mode, vscode.l10n.t('the OCR of {0}', what), vscode.l10n.t('Choose fewer pages or raise the cap.')) : undefined;
      if (refused) {
        await source.close();
        void vscode.window.showWarningMessage(refused);
        return { kind: 'error', message: refused, reason: 'over_cap' };
      }
      if (mode !== 'batch') {
        await source.close();
        return mode === 'now' ? { kind: 'read', result: await extractWith(uri, same) } : { kind: 'stopped' };
      }
      // Filled while the lines are written (inside submit), so stored with the job.
      const data: OcrJobData = { uri: uri.toString(), fileName, key: planned.key, pages: planned.pages, mode: planned.mode, model: model.id, unsent: [] };
      try {
        const record = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Stratus: sending the batch…') }, () =>
          jobs.submit({
            title: vscode.l10n.t('OCR of {0}', what),
            model: model.id,
            items: ocrPages.map((n) => ({ customId: pageCustomId(n), uri: uri.toString(), label: vscode.l10n.t('page {0}', n), sentHash: planned.key })),
            requests: ocrBatchRequests(source, ocrPages, model, (page, reason) => data.unsent.push([page, reason])),
            estimate,
            kind: DOCUMENT_OCR_KIND,
            data,
          }),
        );
        void vscode.window
          .showInformationMessage(vscode.l10n.t('Batch sent: {0} at most {1} (half price). Results within 24 h; the Activities view follows it.', what, formatEur(estimate.batchEur)), vscode.l10n.t('Show Activities'))
          .then((choice) => (choice ? vscode.commands.executeCommand(Commands.activitiesShow) : undefined));
        return { kind: 'sent', jobId: record.id, pages: ocrPages.length };
      } finally {
        await source.close();
      }
    } catch (error) {
      return failed(error);
    }
  };

  /** Shows a completed job's pages in the document view, as the interactive run would; never for a file changed since it was sent. */
  const apply = async (jobId: string): Promise<OcrBatchOutcome> => {
    const job = jobs.job(jobId);
    const data = job ? jobData(job) : undefined;
    if (!job || !data) return { kind: 'error', message: vscode.l10n.t('This batch job is no longer known.') };
    const uri = vscode.Uri.parse(data.uri);
    try {
      const bytes = await loadDocumentBytes(uri, readDocumentSettings(), false);
      if (contentKey(bytes) !== data.key) {
        const message = vscode.l10n.t('{0} changed since its pages were sent: the batch results were not applied. Read it again.', data.fileName);
        void vscode.window.showWarningMessage(message);
        return { kind: 'error', message };
      }
      const answers = new Map<number, BatchResult>();
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Stratus: reading the batch results…') }, () =>
        jobs.results(job.id, (r) => void answers.set(Number(r.customId.replace(/^page-/, '')), r)),
      );
      const unsent = new Map(data.unsent);
      const result = await extractWith(uri, { pages: data.pages, mode: data.mode, model: data.model }, () => batchAnswerReader(answers, unsent));
      await jobs.markReviewed(job.id);
      return { kind: 'read', result };
    } catch (error) {
      return failed(error);
    }
  };

  const disposable = jobs.registerKind(DOCUMENT_OCR_KIND, {
    openResults: async (job) => void (await apply(job.id)),
    finished: (job) => {
      const show = vscode.l10n.t('Show Activities');
      if (job.error) {
        void vscode.window.showErrorMessage(vscode.l10n.t('Batch "{0}" did not complete: {1}', job.title, batchErrorMessage(job.error.reason, job.error.message)), show).then((choice) => (choice ? vscode.commands.executeCommand(Commands.activitiesShow) : undefined));
        return;
      }
      const open = vscode.l10n.t('Show Pages');
      void vscode.window.showInformationMessage(vscode.l10n.t('Batch "{0}" completed.', job.title), open, show).then((choice) => {
        if (choice === open) return apply(job.id);
        if (choice === show) return vscode.commands.executeCommand(Commands.activitiesShow);
        return undefined;
      });
    },
  });
  return { disposable, run, apply };
}
