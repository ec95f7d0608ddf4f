import type { AnyStratusError } from '../errors';
import { isStratusError } from '../errors';
import type { Activity } from './types';

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

/** Every typed error the console client throws. */
export type ConsoleError = AnyStratusError | ActivityFailedError;

export function isConsoleError(value: unknown): value is ConsoleError {
  return isStratusError(value) || value instanceof ActivityFailedError;
}
