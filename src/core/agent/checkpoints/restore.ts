import { beforeHash, hashBytes, type CheckpointFileSystem, type TurnCheckpoint } from './types';

/**
 * "Undo this turn" as a plan the feature applies in one WorkspaceEdit: write back what files held,
 * delete the files the turn created. A file whose content changed again since the turn ended
 * (by hash) is a conflict: the feature asks before including those steps.
 */

export type RestoreStep =
  | { readonly path: string; readonly action: 'write'; readonly content: Uint8Array }
  | { readonly path: string; readonly action: 'delete' };

export type ConflictReason = 'changed-since' | 'deleted-since' | 'created-since';

export interface RestorePlan {
  /** Safe to apply: the file is as the turn left it. */
  readonly steps: readonly RestoreStep[];
  /** The file changed since the turn: apply only after the user agrees. */
  readonly conflicts: ReadonlyArray<{ readonly step: RestoreStep; readonly reason: ConflictReason }>;
  /** Already as before the turn: nothing to do. */
  readonly unchanged: readonly string[];
  /** Too large to have been kept: cannot be restored. */
  readonly unrestorable: readonly string[];
}

export async function planRestore(checkpoint: TurnCheckpoint, fs: CheckpointFileSystem): Promise<RestorePlan> {
  const steps: RestoreStep[] = [];
  const conflicts: Array<{ step: RestoreStep; reason: ConflictReason }> = [];
  const unchanged: string[] = [];
  const unrestorable: string[] = [];
  for (const file of checkpoint.files) {
    const current = await fs.read(file.path);
    const currentHash = current === undefined ? null : hashBytes(current);
    if (currentHash === beforeHash(file.before)) {
      unchanged.push(file.path);
      continue;
    }
    let step: RestoreStep;
    if (file.before.kind === 'missing') step = { path: file.path, action: 'delete' };
    else if (file.before.kind === 'content') step = { path: file.path, action: 'write', content: file.before.bytes };
    else {
      unrestorable.push(file.path);
      continue;
    }
    if (currentHash === file.afterHash) steps.push(step);
    else conflicts.push({ step, reason: currentHash === null ? 'deleted-since' : file.afterHash === null ? 'created-since' : 'changed-since' });
  }
  return { steps, conflicts, unchanged, unrestorable };
}
