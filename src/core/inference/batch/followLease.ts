import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** A lease its holder has not renewed for this long belongs to a window that closed or died. */
export const STALE_LEASE_MS = 3 * 60_000;

export interface FollowLeaseOptions {
  /** A folder every window of this machine shares (the extension's global storage). */
  dir: string;
  /** This window's id (a new one for each activation). */
  owner: string;
  /** Real time: a lease's age is judged by it (default Date.now). */
  now?: () => number;
  staleMs?: number;
}

interface Lease {
  /** Undefined while its holder is writing it (an empty or partial file). */
  owner: string | undefined;
  renewedAt: number;
}

/**
 * Which window follows a batch job (polls it, acts on its end) when every window of the machine
 * resumes the same jobs from global storage: one lease file per job in a shared folder. It is taken
 * by an exclusive create (one window wins), renewed by its holder (a whole file renamed over it),
 * and taken over once its holder has not renewed it for `staleMs` (a window closed without
 * releasing it, or died). Two windows can take one stale lease in the same instant: each reads it
 * back before acting (`holds`, and every renewal), so the later writer keeps it and the other stops.
 */
export class FollowLeases {
  private readonly now: () => number;
  private readonly staleMs: number;
  /** Each write's own temporary file (a renewal and a take-over of one job can overlap). */
  private writes = 0;

  constructor(private readonly options: FollowLeaseOptions) {
    this.now = options.now ?? Date.now;
    this.staleMs = options.staleMs ?? STALE_LEASE_MS;
  }

  /** Takes the job's lease when it is free, stale or already this window's; whether it is held now. */
  async acquire(jobId: string): Promise<boolean> {
    const file = this.file(jobId);
    await fs.mkdir(this.options.dir, { recursive: true });
    try {
      await fs.writeFile(file, this.content(), { flag: 'wx' });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const lease = await this.read(file);
    if (lease?.owner === this.options.owner) return true;
    if (lease && !this.stale(lease)) return false;
    await this.write(file);
    return this.holds(jobId);
  }

  /** Whether this window holds the job's lease (read back from the file). */
  async holds(jobId: string): Promise<boolean> {
    return (await this.read(this.file(jobId)))?.owner === this.options.owner;
  }

  /** Renews a lease this window holds; false when another window has it now (this one must stop). */
  async renew(jobId: string): Promise<boolean> {
    if (!(await this.holds(jobId))) return false;
    await this.write(this.file(jobId));
    return true;
  }

  /** Gives the lease up (only this window's: another's is left as it is). */
  async release(jobId: string): Promise<void> {
    if (await this.holds(jobId)) await fs.rm(this.file(jobId), { force: true });
  }

  /** Removes the stale leases of jobs no longer kept (a job that ended keeps its lease until then). */
  async prune(keptJobIds: readonly string[]): Promise<void> {
    const kept = new Set(keptJobIds.map((id) => path.basename(this.file(id))));
    const names = await fs.readdir(this.options.dir).catch(() => [] as string[]);
    for (const name of names) {
      const file = path.join(this.options.dir, name);
      if (name.endsWith('.tmp')) {
        // A write that never got renamed (its window died between the two steps).
        const stat = await fs.stat(file).catch(() => undefined);
        if (stat && this.stale({ owner: undefined, renewedAt: stat.mtimeMs })) await fs.rm(file, { force: true });
        continue;
      }
      if (!name.endsWith('.lease') || kept.has(name)) continue;
      const lease = await this.read(file);
      if (lease && this.stale(lease)) await fs.rm(file, { force: true });
    }
  }

  /** Not renewed for staleMs, or renewed "later" than that (a clock that was set back). */
  private stale(lease: Lease): boolean {
    const age = this.now() - lease.renewedAt;
    return age > this.staleMs || age < -this.staleMs;
  }

  /** The job id hashed: any id makes a safe file name. */
  private file(jobId: string): string {
    return path.join(this.options.dir, `${createHash('sha256').update(jobId).digest('hex').slice(0, 32)}.lease`);
  }

  private content(): string {
    return JSON.stringify({ owner: this.options.owner, renewedAt: this.now() });
  }

  /** A whole lease in one step: a file of this window's, renamed over the lease. */
  private async write(file: string): Promise<void> {
    const temporary = `${file}.${createHash('sha256').update(this.options.owner).digest('hex').slice(0, 16)}-${++this.writes}.tmp`;
    await fs.writeFile(temporary, this.content());
    await fs.rename(temporary, file);
  }

  /** The lease, or undefined when there is none; one being written counts as renewed at its file's time. */
  private async read(file: string): Promise<Lease | undefined> {
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      const value = JSON.parse(text) as { owner?: unknown; renewedAt?: unknown };
      if (typeof value.owner === 'string' && typeof value.renewedAt === 'number' && Number.isFinite(value.renewedAt)) return { owner: value.owner, renewedAt: value.renewedAt };
    } catch {
      // Empty or partial: its writer is writing it (or died doing so: then its time makes it stale).
    }
    const stat = await fs.stat(file).catch(() => undefined);
    return stat ? { owner: undefined, renewedAt: stat.mtimeMs } : undefined;
  }
}
