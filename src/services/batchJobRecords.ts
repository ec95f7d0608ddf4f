import { FINAL_STATUSES, type Batch, type BatchStatus, type FailedItem } from '../core/inference/batch';
import type { JobCostEstimate } from '../core/usage/batchCost';

// The batch jobs as kept in global storage, and what is read from them without the service.

/** One file of a job: what was sent, so a file changed since is never overwritten. */
export interface BatchJobItem {
  customId: string;
  /** The file's URI (string). */
  uri: string;
  /** Workspace-relative path, for display. */
  label: string;
  /** sha256 of the text sent. */
  sentHash: string;
}

export interface BatchJobPart {
  id: string;
  status: BatchStatus;
  total: number;
  completed: number;
  failed: number;
  outputFileId: string | undefined;
  /** Unix ms; when the provider deletes the results. */
  expiresAt: number | undefined;
  /** The provider's file of failed lines, when it keeps them apart from the output. */
  errorFileId?: string | undefined;
}

/** A job as kept in global storage (resumed after a reload). */
export interface BatchJobRecord {
  id: string;
  title: string;
  /** Unix ms. */
  createdAt: number;
  model: string;
  items: BatchJobItem[];
  parts: BatchJobPart[];
  estimate: JobCostEstimate;
  /** Why the job cannot give results (BatchError reason, or `send` when it could not be sent). */
  error: { reason: string; message: string } | undefined;
  /** Results reviewed (accepted or rejected). */
  reviewed: boolean;
  /** The results' usage was recorded by the meter (once: reading them again records nothing). */
  metered?: boolean;
  /** The instruction sent (a retry of the failed items sends it again). */
  instruction?: string;
  /** The items without an answer (which, and why), known once the results were read. */
  failedItems?: FailedItem[];
  /** The job that retried this one's failed items (set once: they are never sent twice). */
  retriedAs?: string;
  /** The job whose failed items this one retries. */
  retryOf?: string;
  /** The job's kind when a feature registered one (`registerKind`); absent: Run Prompt over Files. */
  kind?: string;
  /** The kind's own data (JSON), kept with the job for its results. */
  data?: unknown;
}

/** What the feature that sends jobs of a kind does with them (`registerKind`). */
export interface BatchJobKind {
  /** Opens a completed job's results (stores, shows them). */
  openResults(job: BatchJobRecord): Promise<void>;
  /** Told when a job of this kind ends (jobs of a registered kind are not on `onDidFinish`). */
  finished(job: BatchJobRecord): void;
}

/** A job has ended when every part is final (or it could not be followed). */
export function jobEnded(job: BatchJobRecord): boolean {
  return job.error !== undefined || job.parts.every((p) => FINAL_STATUSES.has(p.status));
}

export function partOf(batch: Batch): BatchJobPart {
  return { id: batch.id, status: batch.status, total: batch.requestCounts.total, completed: batch.requestCounts.completed, failed: batch.requestCounts.failed, outputFileId: batch.outputFileId, expiresAt: batch.expiresAt, ...(batch.errorFileId !== undefined ? { errorFileId: batch.errorFileId } : {}) };
}

export function toBatch(part: BatchJobPart): Batch {
  return { id: part.id, status: part.status, endpoint: '', inputFileId: '', outputFileId: part.outputFileId, errorFileId: undefined, createdAt: 0, completedAt: undefined, expiresAt: part.expiresAt, requestCounts: { total: part.total, completed: part.completed, failed: part.failed }, errors: [] };
}

/** A retry asked for a job whose failed items were already sent again (as job `retriedAs`). */
export class RetriedError extends Error {
  constructor(readonly retriedAs: string) {
    super('The failed items of this batch were already sent again');
    this.name = 'RetriedError';
  }
}

/** The items of a job that failed (read with its results), with the job's item for each. */
export function failedItemsOf(job: BatchJobRecord): Array<{ item: BatchJobItem; code: string; message: string }> {
  const byId = new Map(job.items.map((i) => [i.customId, i]));
  return (job.failedItems ?? []).flatMap((f) => {
    const item = byId.get(f.customId);
    return item ? [{ item, code: f.code, message: f.message }] : [];
  });
}

export function isRecordShape(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string' && Array.isArray((value as { parts?: unknown }).parts) && Array.isArray((value as { items?: unknown }).items);
}
