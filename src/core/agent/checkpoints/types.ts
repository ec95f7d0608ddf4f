import { createHash } from 'node:crypto';

/** Checkpoints of an agent turn: what each changed file held before the turn's first change to it. */

/** What the feature provides: the workspace (through the confined reader) by opaque path keys. */
export interface CheckpointFileSystem {
  /** The file's bytes, or undefined if it does not exist. */
  read(path: string): Promise<Uint8Array | undefined>;
}

export type Before =
  | { readonly kind: 'missing' }
  | { readonly kind: 'content'; readonly bytes: Uint8Array; readonly hash: string }
  /** Over the size cap: known by hash only, so it cannot be written back. */
  | { readonly kind: 'too-large'; readonly size: number; readonly hash: string };

export interface FileCheckpoint {
  readonly path: string;
  readonly before: Before;
  /** Hash of the file when the turn ended; null if the turn left it deleted (or never created). */
  readonly afterHash: string | null;
}

export interface TurnCheckpoint {
  readonly turnId: string;
  /** Milliseconds since the epoch (from the caller's clock). */
  readonly createdAt: number;
  readonly files: readonly FileCheckpoint[];
}

export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function beforeHash(before: Before): string | null {
  return before.kind === 'missing' ? null : before.hash;
}
