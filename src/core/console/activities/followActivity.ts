import { CancelledError, isStratusError, type AnyStratusError } from '../../errors';
import { sleep } from '../../http/sleep';
import type { Logger } from '../../log';
import { ActivityFailedError, ActivityStillRunningError } from '../errors';
import { checkPathId } from '../catalog/routes';
import type { Activity, ActivityState, FollowOptions } from '../types';

export const FOLLOW_DEFAULTS = { initialDelayMs: 1_000, maxDelayMs: 30_000, notFoundTries: 4 } as const;
/** Consecutive transient failures (after the transport's own retries) before giving up. */
const MAX_TRANSIENT_FAILURES = 3;

/** Fibonacci delays (1, 1, 2, 3, 5, ... x initial), capped; `reset()` starts over. */
class Backoff {
  private a = 0;
  private b = 1;

  constructor(
    private readonly initialMs: number,
    private readonly maxMs: number,
  ) {}

  next(): number {
    [this.a, this.b] = [this.b, this.a + this.b];
    return Math.min(this.maxMs, this.a * this.initialMs);
  }

  reset(): void {
    this.a = 0;
    this.b = 1;
  }
}

function stateKey(state: ActivityState): string {
  return JSON.stringify(state);
}

function isTransient(error: AnyStratusError): boolean {
  // An unreadable answer (a body cut by a proxy) to a read is worth another poll, like a timeout.
  if (error.kind === 'network' || error.kind === 'timeout' || error.kind === 'rate_limit' || error.kind === 'malformed_response') return true;
  return error.kind === 'api' && error.status >= 500;
}

/**
 * Polls an activity until it is completed (resolves) or failed (ActivityFailedError). Polling
 * starts at once, then backs off (Fibonacci, capped) while nothing changes and starts over when
 * something does, so progress shows without tight polling. A 404 before the first successful read
 * is eventual consistency (the activity was just created); persisting, it is an error. Aborting
 * stops at once: the sleep and any request in flight reject with CancelledError. With `timeoutMs`,
 * following ends at that deadline with ActivityStillRunningError (a read in flight is aborted).
 */
export async function followActivity(
  read: (id: string, signal: AbortSignal | undefined) => Promise<Activity>,
  id: string,
  options: FollowOptions,
  logger: Logger,
): Promise<Activity> {
  const { signal: outer, timeoutMs } = options;
  checkPathId(id, 'id', 'activity id'); // before the first read: `..` would read the parent collection
  if (outer?.aborted) throw new CancelledError(`Stopped following activity ${id}`);
  if (timeoutMs === undefined || !(timeoutMs > 0) || !Number.isFinite(timeoutMs)) return poll(read, id, options, outer, logger, { last: undefined });

  // One timer for the whole follow: it aborts the sleep or the read in flight at the deadline.
  const deadline = new AbortController();
  const onOuterAbort = (): void => deadline.abort(outer?.reason);
  outer?.addEventListener('abort', onOuterAbort, { once: true });
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    deadline.abort();
  }, timeoutMs);
  const seen: { last: Activity | undefined } = { last: undefined };
  try {
    return await poll(read, id, options, deadline.signal, logger, seen);
  } catch (error) {
    if (expired && !outer?.aborted) {
      logger.info(`Stopped following activity ${id} after ${timeoutMs} ms: still ${seen.last?.state.kind ?? 'unknown'} on the server`);
      throw new ActivityStillRunningError(id, seen.last, timeoutMs);
    }
    throw error;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}

async function poll(
  read: (id: string, signal: AbortSignal | undefined) => Promise<Activity>,
  id: string,
  options: FollowOptions,
  signal: AbortSignal | undefined,
  logger: Logger,
  seen: { last: Activity | undefined },
): Promise<Activity> {
  const { onUpdate } = options;
  const backoff = new Backoff(
    Math.max(1, options.initialDelayMs ?? FOLLOW_DEFAULTS.initialDelayMs),
    Math.max(1, options.maxDelayMs ?? FOLLOW_DEFAULTS.maxDelayMs),
  );
  const notFoundTries = Math.max(1, options.notFoundTries ?? FOLLOW_DEFAULTS.notFoundTries);
  let notFound = 0;
  let failures = 0;
  let lastKey: string | undefined;

  for (;;) {
    if (signal?.aborted) throw new CancelledError(`Stopped following activity ${id}`);
    let activity: Activity | undefined;
    try {
      activity = await read(id, signal);
    } catch (error) {
      if (!isStratusError(error)) throw error;
      if (error.kind === 'not_found' && seen.last === undefined && ++notFound < notFoundTries) {
        logger.debug(`Activity ${id} not found yet (${notFound}/${notFoundTries}), retrying`);
      } else if (isTransient(error) && ++failures <= MAX_TRANSIENT_FAILURES) {
        logger.warn(`Reading activity ${id} failed (${error.message}); retrying`);
      } else {
        throw error;
      }
    }
    if (activity) {
      seen.last = activity;
      failures = 0;
      const key = stateKey(activity.state);
      if (key !== lastKey) {
        lastKey = key;
        backoff.reset();
        try {
          onUpdate?.(activity);
        } catch (error) {
          logger.warn(`An activity update listener failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      if (activity.state.kind === 'completed') return activity;
      if (activity.state.kind === 'failed') throw new ActivityFailedError(activity, activity.state.reason);
    }
    await sleep(backoff.next(), signal);
  }
}
