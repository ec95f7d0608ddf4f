/**
 * Run Prompt over Files as a command other features start (the chat's `/prompt <name> --files
 * <glob>`): its arguments and what it did. The batch feature registers the command; the same job
 * runs whoever starts it (the trust gate, the cost choice "now" or "batch" before anything is sent).
 */

export interface PromptOverFilesArgs {
  /** The instruction (a prompt file's body, or typed); asked when absent. */
  instruction?: string;
  /** The files; asked when absent. */
  glob?: string;
  /** Now or as a batch: honoured in tests only (a person always chooses, seeing both prices). */
  mode?: 'batch' | 'now';
}

/** What a job's review did (the batch feature's ReviewOutcome, as plain data). */
export interface PromptOverFilesReview {
  applied: string[];
  rejected: string[];
  changedSinceSent: string[];
  failed: Array<{ customId: string; code: string; message: string }>;
  unchanged: string[];
  /** How the proposed changes were shown: one multi-file diff (`vscode.changes`), a diff per file, or none to show. */
  diff?: 'changes' | 'diff' | 'none';
}

export type PromptOverFilesOutcome =
  | { kind: 'sent'; jobId: string; files: number; skipped: string[] }
  | { kind: 'reviewed'; review: PromptOverFilesReview }
  | { kind: 'stopped' }
  | { kind: 'error'; message: string; reason?: string | undefined };

/** The command's answer, checked (a command may answer anything). */
export function isPromptOverFilesOutcome(value: unknown): value is PromptOverFilesOutcome {
  if (typeof value !== 'object' || value === null) return false;
  const kind = (value as { kind?: unknown }).kind;
  return kind === 'sent' || kind === 'reviewed' || kind === 'stopped' || kind === 'error';
}
