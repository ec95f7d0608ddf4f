import type { FollowLeases } from '../core/inference/batch/followLease';
import type { Logger } from '../core/log';
import type { BatchJobRecord } from './batchJobRecords';

/** What JobLeases needs of the batch job service. */
export interface LeaseHooks {
  /** The jobs this window follows now. */
  following(): string[];
  /** Another window has the job's lease now: this one stops following it. */
  stop(jobId: string): void;
  /** Follows every job that has not ended and is not followed here (each tries its lease). */
  lookAgain(): void;
  jobs(): readonly BatchJobRecord[];
  /** The stored jobs changed (another window saved them). */
  changed(): void;
}

/**
 * The batch job service's side of the follow leases (followLease.ts): every window resumes the
 * jobs of global storage, and only the one that holds a job's lease polls it and acts on its end
 * (one notification, one automatic read of its results, one metering). The holder renews its
 * leases every `renewMs`; the others look again as often (a stale lease is taken over) and show
 * what the holder stored. Where the lease folder cannot be used, every window follows every job,
 * as before there were leases (more polling, never a job left unfollowed).
 */
export class JobLeases {
  private readonly held = new Set<string>();
  private readonly timer: ReturnType<typeof setInterval> | undefined;
  private seen: string | undefined;
  private tending = false;

  constructor(
    private readonly leases: FollowLeases | undefined,
    private readonly logger: Logger,
    private readonly hooks: LeaseHooks,
    renewMs = 60_000,
  ) {
    if (leases) this.timer = setInterval(() => void this.tend(), renewMs);
  }

  /** Whether this window follows the job: it holds or took its lease. */
  async take(jobId: string): Promise<boolean> {
    if (!this.leases) return true;
    try {
      const taken = await this.leases.acquire(jobId);
      if (taken) this.held.add(jobId);
      return taken;
    } catch (error) {
      return this.unusable(error);
    }
  }

  /** Whether this window still holds the job's lease (read back before acting on the job's end). */
  async stillHeld(jobId: string): Promise<boolean> {
    if (!this.leases) return true;
    try {
      return await this.leases.holds(jobId);
    } catch (error) {
      return this.unusable(error);
    }
  }

  /** Removes the stale leases of jobs no longer kept. */
  prune(): void {
    void this.leases?.prune(this.hooks.jobs().map((j) => j.id)).catch((error: unknown) => this.unusable(error));
  }

  /** Renews what this window holds (stopping a job another window took), looks again, shows others' changes. */
  async tend(): Promise<void> {
    const leases = this.leases;
    if (this.tending || !leases) return;
    this.tending = true;
    try {
      const following = new Set(this.hooks.following());
      for (const jobId of [...this.held]) {
        // An ended job keeps its lease (not released: a window that has not seen it end yet could follow it again).
        if (!following.has(jobId)) {
          this.held.delete(jobId);
          continue;
        }
        const kept = await leases.renew(jobId).catch((error: unknown) => this.unusable(error));
        if (!kept) {
          this.held.delete(jobId);
          this.hooks.stop(jobId);
        }
      }
      this.hooks.lookAgain();
      const seen = JSON.stringify(this.hooks.jobs());
      if (this.seen !== undefined && seen !== this.seen) this.hooks.changed();
      this.seen = seen;
    } finally {
      this.tending = false;
    }
  }

  /** Stops tending; the leases of jobs still followed are given up, so another window takes them at once. */
  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    const leases = this.leases;
    if (!leases) return;
    const following = new Set(this.hooks.following());
    for (const jobId of this.held) if (following.has(jobId)) void leases.release(jobId).catch(() => undefined);
    this.held.clear();
  }

  private unusable(error: unknown): true {
    this.logger.warn(`Batch job leases unavailable (${error instanceof Error ? error.message : String(error)}): this window follows its jobs itself.`);
    return true;
  }
}
