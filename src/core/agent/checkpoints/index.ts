/** Checkpoints of agent turns: snapshot before the first change, restore plan, persisted history. */
export { TurnRecorder, DEFAULT_MAX_FILE_BYTES } from './turn';
export { planRestore, type ConflictReason, type RestorePlan, type RestoreStep } from './restore';
export {
  CheckpointHistory,
  CHECKPOINT_FORMAT_VERSION,
  DEFAULT_CHECKPOINT_LIMITS,
  deserialiseCheckpoints,
  pruneCheckpoints,
  serialiseCheckpoints,
  type CheckpointLimits,
  type CheckpointStorage,
  type DecodedCheckpoints,
} from './store';
export { hashBytes, type Before, type CheckpointFileSystem, type FileCheckpoint, type TurnCheckpoint } from './types';
