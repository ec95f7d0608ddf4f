import { beforeHash, hashBytes, type Before, type CheckpointFileSystem, type FileCheckpoint, type TurnCheckpoint } from './types';

/** Largest file kept by content (1 MiB by default); bigger ones are remembered by hash only. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

/**
 * Records one turn: call `beforeChange(path)` before any change a tool of the turn makes to a file
 * (only the first call per path reads it, concurrent calls share that read), and `afterChange(path)`
 * once the tool's change is made: the checkpoint's "after" is what the tool left, so a change the
 * user makes later (during the turn or after it) is a conflict for Undo, never taken for the turn's.
 * `finish()` drops files the turn's tools left as they were.
 */
export class TurnRecorder {
  private readonly snapshots = new Map<string, Promise<Before>>();
  /** Hash of each file right after a tool's last change to it (null: the tool left it missing). */
  private readonly afters = new Map<string, Promise<string | null | undefined>>();

  constructor(
    readonly turnId: string,
    private readonly fs: CheckpointFileSystem,
    private readonly maxFileBytes = DEFAULT_MAX_FILE_BYTES,
  ) {}

  beforeChange(path: string): Promise<void> {
    if (!this.snapshots.has(path)) this.snapshots.set(path, this.snapshot(path));
    return this.snapshots.get(path)?.then(() => undefined) ?? Promise.resolve();
  }

  /** Records what a tool left in `path` (after its snapshot, so the two never race). */
  afterChange(path: string): Promise<void> {
    const snapshot = this.snapshots.get(path);
    if (!snapshot) return Promise.resolve();
    // Unreadable now: undefined, and `finish` falls back to what the file holds then.
    const after = snapshot.then(() => this.fs.read(path)).then((bytes) => (bytes === undefined ? null : hashBytes(bytes)), () => undefined);
    this.afters.set(path, after);
    return after.then(() => undefined);
  }

  /** Paths snapshotted so far, in first-change order. */
  changes(): string[] {
    return [...this.snapshots.keys()];
  }

  private async snapshot(path: string): Promise<Before> {
    const bytes = await this.fs.read(path);
    if (bytes === undefined) return { kind: 'missing' };
    const hash = hashBytes(bytes);
    if (bytes.byteLength > this.maxFileBytes) return { kind: 'too-large', size: bytes.byteLength, hash };
    return { kind: 'content', bytes: Uint8Array.from(bytes), hash };
  }

  /**
   * The turn's checkpoint: files a tool left different from before, with the hash the tool left
   * (what the file holds now when no `afterChange` was recorded).
   */
  async finish(createdAt: number): Promise<TurnCheckpoint> {
    const files: FileCheckpoint[] = [];
    for (const [path, pending] of this.snapshots) {
      const before = await pending;
      let afterHash = await this.afters.get(path);
      if (afterHash === undefined) {
        const now = await this.fs.read(path);
        afterHash = now === undefined ? null : hashBytes(now);
      }
      if (afterHash !== beforeHash(before)) files.push({ path, before, afterHash });
    }
    return { turnId: this.turnId, createdAt, files };
  }
}
