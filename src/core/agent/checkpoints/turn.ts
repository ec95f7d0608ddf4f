import { beforeHash, hashBytes, type Before, type CheckpointFileSystem, type FileCheckpoint, type TurnCheckpoint } from './types';

/** Largest file kept by content (1 MiB by default); bigger ones are remembered by hash only. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

/**
 * Records one turn: call `beforeChange(path)` before any change a tool (or a workspace event seen
 * during the turn) makes to a file; only the first call per path reads it, concurrent calls share
 * that read. `finish()` hashes what each file holds now and drops files the turn left as they were.
 */
export class TurnRecorder {
  private readonly snapshots = new Map<string, Promise<Before>>();

  constructor(
    readonly turnId: string,
    private readonly fs: CheckpointFileSystem,
    private readonly maxFileBytes = DEFAULT_MAX_FILE_BYTES,
  ) {}

  beforeChange(path: string): Promise<void> {
    if (!this.snapshots.has(path)) this.snapshots.set(path, this.snapshot(path));
    return this.snapshots.get(path)?.then(() => undefined) ?? Promise.resolve();
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

  /** The turn's checkpoint: files whose content differs from before the turn, with their hash now. */
  async finish(createdAt: number): Promise<TurnCheckpoint> {
    const files: FileCheckpoint[] = [];
    for (const [path, pending] of this.snapshots) {
      const before = await pending;
      const now = await this.fs.read(path);
      const afterHash = now === undefined ? null : hashBytes(now);
      if (afterHash !== beforeHash(before)) files.push({ path, before, afterHash });
    }
    return { turnId: this.turnId, createdAt, files };
  }
}
