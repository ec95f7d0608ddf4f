import * as vscode from 'vscode';
import type { Logger } from '../core/log';
import {
  BatchError,
  cancelBatch,
  completedOrThrow,
  FINAL_STATUSES,
  matchResults,
  openResults,
  readResults,
  submitBatchJob,
  waitForBatch,
  type Batch,
  type BatchEndpoint,
  type BatchRequest,
  type BatchResult,
  type FailedItem,
  type ResultsSummary,
} from '../core/inference/batch';
import type { FollowLeases } from '../core/inference/batch/followLease';
import { BatchUsageTally, type JobCostEstimate } from '../core/usage/batchCost';
import type { UsageListener } from '../core/usage/events';
import type { InferenceConnection } from './inferenceConnection';
import { JobLeases } from './batchJobLeases';
import { isRecordShape, jobEnded, partOf, RetriedError, toBatch, type BatchJobItem, type BatchJobKind, type BatchJobRecord } from './batchJobRecords';

export { failedItemsOf, jobEnded, RetriedError, type BatchJobItem, type BatchJobKind, type BatchJobPart, type BatchJobRecord } from './batchJobRecords';

const STORAGE_KEY = 'stratus.batch.jobs';
const MAX_JOBS = 50;

export interface BatchJobOptions {
  /** Where job files are written before upload. */
  tmpDir: () => string;
  /** First wait between polls (default 30 s) and the longest (default 10 min). */
  pollInitialMs?: number;
  pollMaxMs?: number;
  /** The usage meter: told the job's usage (batch rates) the first time its results are read. */
  onUsage?: UsageListener;
  now?: () => number;
  /** Which window follows each job (every window resumes them all); absent: this one follows every job. */
  leases?: FollowLeases;
  /** How often a held lease is renewed and a free or stale one looked for (default 60 s). */
  leaseRenewMs?: number;
}

/**
 * The batch jobs of this machine (ids in global storage): sent, followed until they end (every
 * window resumes them on activation), cancelled, their results read and matched. The Activities
 * view and the batch feature read it; `onDidFinish` tells when a job ends.
 */
export class BatchJobService implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly finished = new vscode.EventEmitter<BatchJobRecord>();
  readonly onDidChange = this.changed.event;
  readonly onDidFinish = this.finished.event;
  private readonly following = new Map<string, AbortController>();
  private readonly wakers = new Set<() => void>();
  private readonly kinds = new Map<string, BatchJobKind>();
  /** The sleeping poll of each followed job (absent while its check is in flight). */
  private readonly sleeping = new Map<string, () => void>();
  /** Callers of checkNow() waiting for a job's check to end (its poll sleeps again or ends). */
  private readonly checked = new Map<string, Array<() => void>>();
  private disposed = false;
  private readonly leases: JobLeases;

  constructor(
    private readonly memento: vscode.Memento,
    private readonly inference: InferenceConnection,
    private readonly logger: Logger,
    private readonly options: BatchJobOptions,
  ) {
    this.leases = new JobLeases(options.leases, logger, {
      following: () => [...this.following.keys()],
      stop: (jobId) => this.following.get(jobId)?.abort(),
      lookAgain: () => {
        for (const job of this.jobs()) if (!jobEnded(job)) this.follow(job.id);
      },
      jobs: () => this.jobs(),
      changed: () => this.changed.fire(),
    }, options.leaseRenewMs);
  }

  jobs(): readonly BatchJobRecord[] {
    const stored = this.memento.get<unknown>(STORAGE_KEY);
    return Array.isArray(stored) ? (stored.filter(isRecordShape) as BatchJobRecord[]) : [];
  }

  job(id: string): BatchJobRecord | undefined {
    return this.jobs().find((j) => j.id === id);
  }

  /** A feature's job kind: its jobs' results and endings go to `handler`. */
  registerKind(kind: string, handler: BatchJobKind): vscode.Disposable {
    this.kinds.set(kind, handler);
    return new vscode.Disposable(() => {
      if (this.kinds.get(kind) === handler) this.kinds.delete(kind);
    });
  }

  /** Opens a job of a registered kind's results; false when the job has no such kind (Run Prompt over Files reviews its own). */
  async openKindResults(jobId: string): Promise<boolean> {
    const job = this.job(jobId);
    const kind = job?.kind !== undefined ? this.kinds.get(job.kind) : undefined;
    if (!job || !kind) return false;
    await kind.openResults(job);
    return true;
  }

  /** Follows every job that has not ended (on activation: nothing is sent when there is none); in one window only, its lease's holder. */
  resume(): void {
    this.leases.prune();
    for (const job of this.jobs()) if (!jobEnded(job)) this.follow(job.id);
  }

  /** Whether this window follows the job now (holds its lease, when windows share them). */
  isFollowing(jobId: string): boolean {
    return this.following.has(jobId);
  }

  /** What every lease renewal does, now: renews this window's leases, takes free or stale ones, shows others' changes. */
  lookAgainNow(): Promise<void> {
    return this.leases.tend();
  }

  /** Reads every followed batch now instead of at its next poll. */
  pollNow(): void {
    for (const wake of [...this.wakers]) wake();
  }

  /**
   * Checks the provider's state of every job that has not ended now (the Activities view's
   * Refresh): a sleeping poll is woken, a job no longer followed is followed again, and a job
   * whose check is in flight gets no second one. Resolves when those checks have ended.
   */
  checkNow(): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const job of this.jobs()) {
      if (jobEnded(job) || this.disposed) continue;
      waits.push(new Promise<void>((resolve) => this.checked.set(job.id, [...(this.checked.get(job.id) ?? []), resolve])));
      if (!this.following.has(job.id)) this.follow(job.id);
      else this.sleeping.get(job.id)?.();
    }
    return Promise.all(waits).then(() => undefined);
  }

  /** Tells checkNow()'s callers that the job's check ended. */
  private checkEnded(jobId: string): void {
    const waiting = this.checked.get(jobId);
    this.checked.delete(jobId);
    for (const resolve of waiting ?? []) resolve();
  }

  /** Sends a job as one or more batches; the record is stored before polling starts. */
  async submit(
    job: { title: string; model: string; items: BatchJobItem[]; requests: Iterable<BatchRequest> | AsyncIterable<BatchRequest>; estimate: JobCostEstimate; endpoint?: BatchEndpoint; kind?: string; data?: unknown; instruction?: string; retryOf?: string },
    signal?: AbortSignal,
  ): Promise<BatchJobRecord> {
    if (job.retryOf !== undefined) {
      const source = this.job(job.retryOf);
      if (!source) throw new BatchError('The batch job to retry is no longer known', 'results_deleted');
      if (source.retriedAs !== undefined) throw new RetriedError(source.retriedAs);
    }
    const transport = this.inference.client().transport;
    const result = await submitBatchJob(transport, job.requests, { endpoint: job.endpoint ?? '/v1/chat/completions', tmpDir: this.options.tmpDir(), name: 'stratus', signal, metadata: { source: 'stratus' } });
    const record: BatchJobRecord = {
      id: `job-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
      title: job.title,
      createdAt: Date.now(),
      model: job.model,
      items: job.items,
      parts: result.parts.map((p) => partOf(p.batch)),
      estimate: job.estimate,
      error: undefined,
      reviewed: false,
      ...(job.instruction !== undefined ? { instruction: job.instruction } : {}),
      ...(job.retryOf !== undefined ? { retryOf: job.retryOf } : {}),
      ...(job.kind !== undefined ? { kind: job.kind, data: job.data } : {}),
    };
    if (result.error !== undefined) {
      // Nothing created: the caller reports the error. Some parts created: the job is kept, with why the rest was not sent.
      if (result.parts.length === 0) throw result.error;
      record.error = { reason: 'send', message: result.error instanceof Error ? result.error.message : String(result.error) };
    }
    // The retried job learns its retry in the same write: its failed items are never sent again.
    await this.save([record, ...this.jobs().map((j) => (j.id === job.retryOf ? { ...j, retriedAs: record.id } : j))]);
    this.follow(record.id);
    return record;
  }

  async cancel(jobId: string): Promise<void> {
    const job = this.job(jobId);
    if (!job) return;
    const transport = this.inference.client().transport;
    for (const part of job.parts) {
      if (FINAL_STATUSES.has(part.status)) continue;
      const batch = await cancelBatch(transport, part.id);
      await this.updatePart(jobId, batch);
    }
    this.pollNow();
  }

  /**
   * Marks a job reviewed. `refused`: the answers the review would not write (empty, chatter, a
   * diff, chat tokens: fileAnswer), kept with the job's failed items, so the Activities entry lists
   * them and Retry Failed Items sends them again like an item the provider failed.
   */
  async markReviewed(jobId: string, refused: readonly FailedItem[] = []): Promise<void> {
    await this.save(
      this.jobs().map((j) => {
        if (j.id !== jobId) return j;
        const known = new Set((j.failedItems ?? []).map((f) => f.customId));
        const added = refused.filter((f) => !known.has(f.customId) && j.items.some((i) => i.customId === f.customId));
        return { ...j, reviewed: true, ...(added.length > 0 ? { failedItems: [...(j.failedItems ?? []), ...added] } : {}) };
      }),
    );
  }

  async remove(jobId: string): Promise<void> {
    this.following.get(jobId)?.abort();
    await this.save(this.jobs().filter((j) => j.id !== jobId));
  }

  /**
   * Reads the results of every part (any order), matched to the job's items; each first answer is
   * handed to `onResult`. A part that did not complete is a BatchError (nothing is applied).
   */
  async results(jobId: string, onResult: (result: BatchResult) => void, signal?: AbortSignal): Promise<ResultsSummary> {
    const job = this.job(jobId);
    if (!job) throw new BatchError('This batch job is no longer known', 'results_deleted');
    const transport = this.inference.client().transport;
    const ids = job.items.map((i) => i.customId);
    // Every part must have completed before anything is read: nothing is applied half-way.
    const files = job.parts.flatMap((p) => [completedOrThrow(toBatch(p)).outputFileId, p.errorFileId]).filter((id): id is string => id !== undefined);
    const all = async function* (): AsyncGenerator<BatchResult | { malformed: number }> {
      for (const file of files) yield* readResults(await openResults(transport, file, { signal }));
    };
    const tally = new BatchUsageTally(job.items.length > 0 ? job.estimate.inputTokens / job.items.length : 0);
    const summary = await matchResults(ids, all(), (result) => {
      if (result.ok) tally.add(result.body);
      onResult(result);
    });
    await this.meter(job.id, tally);
    const failedItems = [...summary.failed, ...summary.missing.map((customId) => ({ customId, code: 'missing', message: 'No result line' }))];
    await this.save(this.jobs().map((j) => (j.id === jobId ? { ...j, failedItems } : j)));
    return summary;
  }

  /** Records a job's usage once: marked metered first, so a second read (or a failed save) never counts it twice. */
  private async meter(jobId: string, tally: BatchUsageTally): Promise<void> {
    const job = this.job(jobId);
    if (!job || job.metered === true || !this.options.onUsage) return;
    const event = tally.event(job.model, (this.options.now ?? Date.now)());
    if (!event) return;
    await this.save(this.jobs().map((j) => (j.id === jobId ? { ...j, metered: true } : j)));
    try {
      this.options.onUsage(event);
    } catch (error) {
      this.logger.warn(`Batch usage not recorded: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private follow(jobId: string): void {
    if (this.following.has(jobId) || this.disposed) return;
    const controller = new AbortController();
    this.following.set(jobId, controller);
    void (async () => {
      // Another window follows it (and acts on its end); this one looks again at its lease's renewal.
      if (!(await this.leases.take(jobId)) || controller.signal.aborted) return;
      const job = this.job(jobId);
      for (const part of job?.parts ?? []) {
        if (FINAL_STATUSES.has(part.status)) continue;
        try {
          const final = await waitForBatch(this.inference.client().transport, part.id, {
            signal: controller.signal,
            initialDelayMs: this.options.pollInitialMs ?? 30_000,
            maxDelayMs: this.options.pollMaxMs ?? 600_000,
            sleep: (ms, signal) => this.sleep(jobId, ms, signal),
            onUpdate: (batch) => void this.updatePart(jobId, batch),
          });
          await this.updatePart(jobId, final);
          // The provider's reasons (validation errors, expiry, cancel) are kept with the job.
          completedOrThrow(final);
        } catch (error) {
          if (controller.signal.aborted) return;
          this.logger.warn(`Batch ${part.id} did not complete: ${error instanceof Error ? error.message : String(error)}`);
          await this.setError(jobId, error);
          break;
        }
      }
      if (controller.signal.aborted) return;
      const ended = this.job(jobId);
      if (ended && !ended.error) {
        try {
          for (const part of ended.parts) completedOrThrow(toBatch(part));
        } catch (error) {
          await this.setError(jobId, error);
        }
      }
      const final = this.job(jobId);
      if (!final || this.disposed || !(await this.leases.stillHeld(jobId)) || controller.signal.aborted) return;
      if (final.kind === undefined) this.finished.fire(final);
      else if (this.kinds.has(final.kind)) this.kinds.get(final.kind)?.finished(final);
      else this.logger.warn(`Batch job ${final.id} of kind ${final.kind} ended, and no feature reads that kind.`);
    })().finally(() => {
      if (this.following.get(jobId) === controller) this.following.delete(jobId);
      this.checkEnded(jobId);
    });
  }

  /** Waits `ms`, or until pollNow(), checkNow() or the signal. Entering it ends the job's check. */
  private sleep(jobId: string, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakers.delete(done);
        if (this.sleeping.get(jobId) === done) this.sleeping.delete(jobId);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakers.add(done);
      this.sleeping.set(jobId, done);
      signal?.addEventListener('abort', done, { once: true });
      this.checkEnded(jobId);
    });
  }

  private async updatePart(jobId: string, batch: Batch): Promise<void> {
    await this.save(this.jobs().map((j) => (j.id === jobId ? { ...j, parts: j.parts.map((p) => (p.id === batch.id ? partOf(batch) : p)) } : j)));
  }

  private async setError(jobId: string, error: unknown): Promise<void> {
    const reason = error instanceof BatchError ? error.reason : 'failed';
    const message = error instanceof Error ? error.message : String(error);
    await this.save(this.jobs().map((j) => (j.id === jobId ? { ...j, error: { reason, message } } : j)));
  }

  private async save(jobs: BatchJobRecord[]): Promise<void> {
    await this.memento.update(STORAGE_KEY, jobs.slice(0, MAX_JOBS));
    if (!this.disposed) this.changed.fire();
  }

  dispose(): void {
    this.disposed = true;
    this.leases.dispose();
    for (const c of this.following.values()) c.abort();
    this.following.clear();
    this.pollNow();
    for (const jobId of [...this.checked.keys()]) this.checkEnded(jobId);
    this.changed.dispose();
    this.finished.dispose();
  }
}
