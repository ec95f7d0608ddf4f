import * as vscode from 'vscode';
import type { BatchResult } from '../../core/inference/batch';
import { failedItemsOf, RetriedError, type BatchJobRecord, type BatchJobService } from '../../services/batchJobs';
import { prepareFiles, type PreparedJob } from './run';

/** Most failed items named in the question (the rest counted). */
const LISTED = 10;

/** Which items of a job failed, and why: "path (message)" lines. */
export function describeFailed(job: BatchJobRecord): string[] {
  const failed = failedItemsOf(job);
  const lines = failed.slice(0, LISTED).map((f) => `${f.item.label}: ${f.message}${f.code && f.code !== 'missing' ? ` (${f.code})` : ''}`);
  if (failed.length > LISTED) lines.push(vscode.l10n.t('…and {0} more', failed.length - LISTED));
  return lines;
}

export type RetryPlan =
  | { kind: 'job'; source: BatchJobRecord; job: PreparedJob }
  | { kind: 'none'; message: string }
  | { kind: 'retried'; retriedAs: string; message: string }
  | { kind: 'error'; message: string; reason?: string };

/**
 * The retry of a job's failed items, prepared but not sent: its results read (once more if they
 * were not yet: which items failed and why), then those files read again as they are now. A job
 * already retried is refused (its failed items are never sent twice).
 */
export async function planRetry(service: BatchJobService, jobId: string, signal?: AbortSignal): Promise<RetryPlan> {
  let job = service.job(jobId);
  if (!job) return { kind: 'error', message: vscode.l10n.t('This batch job is no longer known.') };
  if (job.retriedAs !== undefined) return retried(job.retriedAs);
  if (job.failedItems === undefined) {
    // Reading the results is what says which items failed (the provider's lines).
    await service.results(job.id, (_r: BatchResult) => undefined, signal);
    job = service.job(jobId) ?? job;
  }
  const failed = failedItemsOf(job);
  if (failed.length === 0) return { kind: 'none', message: vscode.l10n.t('No item of "{0}" failed: nothing to retry.', job.title) };
  if (job.instruction === undefined) {
    return { kind: 'error', message: vscode.l10n.t('"{0}" was sent before retries were possible: run Run Prompt over Files again over the failed files.', job.title), reason: 'no_instruction' };
  }
  const prepared = await prepareFiles(job.model, job.instruction, failed.map((f) => vscode.Uri.parse(f.item.uri)));
  if ('error' in prepared) return { kind: 'error', message: prepared.error };
  return { kind: 'job', source: job, job: prepared };
}

export function retried(retriedAs: string): RetryPlan {
  return { kind: 'retried', retriedAs, message: vscode.l10n.t('The failed items of this batch were already sent again (see the batch job {0} in the Activities view): they are never sent twice.', retriedAs) };
}

/** A RetriedError thrown by the service (two retries raced): the same answer as a plan that found it. */
export function retriedFromError(error: unknown): RetryPlan | undefined {
  return error instanceof RetriedError ? retried(error.retriedAs) : undefined;
}
