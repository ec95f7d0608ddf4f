/**
 * Following a batch until it ends: reads spaced by a growing delay (a batch takes hours), or by
 * the provider's `Retry-After` when it sends one; a transient failure (network, 5xx, 429) waits and
 * reads again. Sleep and clock are injected, so tests drive time.
 */
import { isStratusError } from '../../errors';
import type { HttpTransport } from '../../http/transport';
import { parseRetryAfter } from '../../http/retryAfter';
import { sleep as realSleep } from '../../http/sleep';
import { getBatch } from './batch';
import { BatchError } from './errors';
import { FINAL_STATUSES, type Batch } from './types';

export interface PollOptions {
  signal?: AbortSignal | undefined;
  /** First wait between reads. Default 10 s. */
  initialDelayMs?: number;
  /** Longest wait between reads. Default 5 min. */
  maxDelayMs?: number;
  /** Transient read failures in a row before giving up. Default 6. */
  maxFailures?: number;
  /** Told of every state read. */
  onUpdate?: (batch: Batch) => void;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
}

/** Longest wait a Retry-After may ask for between two reads (an hour). */
const MAX_ASKED_MS = 3_600_000;

function transient(error: unknown): { retryAfterMs: number | undefined } | undefined {
  if (!isStratusError(error)) return undefined;
  switch (error.kind) {
    case 'network':
    case 'timeout':
    case 'malformed_response':
      return { retryAfterMs: undefined };
    case 'rate_limit':
      return { retryAfterMs: error.retryAfterMs };
    case 'api':
      return error.status >= 500 ? { retryAfterMs: error.retryAfterMs } : undefined;
    default:
      return undefined;
  }
}

/** Reads the batch until its status is final; returns that last state (any final status). */
export async function waitForBatch(transport: HttpTransport, id: string, options: PollOptions = {}): Promise<Batch> {
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? Date.now;
  const maxDelay = Math.max(1, options.maxDelayMs ?? 300_000);
  let delay = Math.min(maxDelay, Math.max(1, options.initialDelayMs ?? 10_000));
  const maxFailures = options.maxFailures ?? 6;
  let failures = 0;
  let lastStatus: string | undefined;
  for (;;) {
    let wait: number;
    try {
      const { batch, retryAfter } = await getBatch(transport, id, { signal: options.signal });
      failures = 0;
      options.onUpdate?.(batch);
      if (FINAL_STATUSES.has(batch.status)) return batch;
      // A change of state starts the spacing again (the next step may be close).
      if (batch.status !== lastStatus && lastStatus !== undefined) delay = Math.min(maxDelay, Math.max(1, options.initialDelayMs ?? 10_000));
      lastStatus = batch.status;
      const asked = parseRetryAfter(retryAfter, now());
      wait = asked !== undefined ? Math.min(MAX_ASKED_MS, Math.max(asked, 1)) : delay;
      delay = Math.min(maxDelay, delay * 2);
    } catch (error) {
      const t = transient(error);
      failures += 1;
      if (!t || failures >= maxFailures || options.signal?.aborted) throw error;
      wait = t.retryAfterMs !== undefined ? Math.min(MAX_ASKED_MS, Math.max(t.retryAfterMs, 1)) : delay;
      delay = Math.min(maxDelay, delay * 2);
    }
    await sleep(wait, options.signal);
  }
}

/**
 * A final batch whose results can be read (`completed`), else the BatchError saying why not:
 * validation failed (with the provider's errors), failed, expired or cancelled.
 */
export function completedOrThrow(batch: Batch): Batch & { outputFileId: string | undefined } {
  switch (batch.status) {
    case 'completed':
      return batch;
    case 'failed':
      if (batch.errors.length > 0) {
        const first = batch.errors[0];
        const where = first?.line !== undefined ? ` (line ${first.line})` : '';
        return fail(`The provider refused the batch input: ${first?.message ?? 'invalid'}${where}${batch.errors.length > 1 ? ` and ${batch.errors.length - 1} more` : ''}`, 'validation_failed', batch);
      }
      return fail('The batch failed', 'failed', batch);
    case 'expired':
      return fail('The batch expired before the provider finished it (24 h window)', 'expired', batch);
    case 'cancelled':
    case 'cancelling':
      return fail('The batch was cancelled', 'cancelled', batch);
    default:
      return fail(`The batch is still ${batch.status}`, 'failed', batch);
  }
}

function fail(message: string, reason: 'validation_failed' | 'failed' | 'expired' | 'cancelled', batch: Batch): never {
  throw new BatchError(message, reason, { batch, issues: batch.errors });
}
