import type { AnyStratusError } from '../errors';
import { isStratusError, MalformedResponseError } from '../errors';
import type { Activity } from './types';

/**
 * A collection read answered 2xx with a web page (HTML) where the list should be: a gateway's
 * single-page-app fallback for a path the console does not serve. Malformed like any body that is
 * no list, and for path discovery "not this path" (consolePaths.ts notThisPath).
 */
export class HtmlInsteadOfListError extends MalformedResponseError {}

/**
 * A followed activity ended in the `failed` state. `reason` is the server's text (may be empty).
 * It extends Error rather than StratusError because StratusErrorKind (src/core/errors.ts) is a
 * closed union owned by the HTTP layer; the edge still switches on `kind`.
 */
export class ActivityFailedError extends Error {
  readonly kind = 'activity_failed' as const;
  readonly activity: Activity;
  readonly reason: string | undefined;

  constructor(activity: Activity, reason: string | undefined) {
    const what = activity.description || `Activity ${activity.id}`;
    super(reason ? `${what} failed: ${reason}` : `${what} failed`);
    this.name = 'ActivityFailedError';
    this.activity = activity;
    this.reason = reason;
  }
}

/**
 * Following an activity reached its overall deadline (`FollowOptions.timeoutMs`) before the
 * activity ended. Nothing failed: the operation goes on on the server; `activity` is the last state
 * read (undefined when no read succeeded in time).
 */
export class ActivityStillRunningError extends Error {
  readonly kind = 'activity_still_running' as const;
  readonly activityId: string;
  readonly activity: Activity | undefined;
  readonly timeoutMs: number;

  constructor(activityId: string, activity: Activity | undefined, timeoutMs: number) {
    super(`${activity?.description || `Activity ${activityId}`} is still running on the server (stopped following after ${Math.round(timeoutMs / 1000)} s)`);
    this.name = 'ActivityStillRunningError';
    this.activityId = activityId;
    this.activity = activity;
    this.timeoutMs = timeoutMs;
  }
}

/** Every typed error the console client throws. */
export type ConsoleError = AnyStratusError | ActivityFailedError | ActivityStillRunningError;

export function isConsoleError(value: unknown): value is ConsoleError {
  return isStratusError(value) || value instanceof ActivityFailedError || value instanceof ActivityStillRunningError;
}
