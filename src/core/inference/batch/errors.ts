import type { Batch, BatchValidationIssue } from './types';

/**
 * Why a batch could not give its results, as the edge tells the user:
 * - `unavailable`: the account does not have the Batch API yet (404 or 403 on its endpoints);
 * - `validation_failed`: the provider refused the input file (`issues` holds its `errors`);
 * - `failed`: the batch failed for another reason;
 * - `expired`: not done within its completion window;
 * - `cancelled`: cancelled before it completed;
 * - `results_deleted`: the results file is gone (kept 7 days);
 * - `too_large`: one request alone is over a documented limit (nothing was sent).
 */
export type BatchErrorReason = 'unavailable' | 'validation_failed' | 'failed' | 'expired' | 'cancelled' | 'results_deleted' | 'too_large';

/** A batch-specific failure (the edge switches on `reason`, never on the message). */
export class BatchError extends Error {
  readonly kind = 'batch' as const;

  constructor(
    message: string,
    readonly reason: BatchErrorReason,
    readonly details: { batch?: Batch | undefined; issues?: readonly BatchValidationIssue[]; status?: number | undefined; customId?: string | undefined } = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'BatchError';
  }
}

export function isBatchError(value: unknown): value is BatchError {
  return value instanceof BatchError;
}
