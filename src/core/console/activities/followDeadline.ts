// Pure (no `vscode` import): unit-tested in plain Node.

export const ACTIVITY_TIMEOUT_SETTING = 'stratus.console.activityTimeoutMinutes';
export const DEFAULT_ACTIVITY_TIMEOUT_MINUTES = 30;
const MAX_ACTIVITY_TIMEOUT_MINUTES = 24 * 60;

/**
 * The overall deadline of following one activity, in milliseconds, from the setting's value:
 * whole minutes from 1 to 1440; anything else (a string, a fraction, 0, a negative) falls back to
 * the default or the nearest bound, so a bad value never means "follow forever" or "stop at once".
 */
export function activityTimeoutMs(minutes: unknown): number {
  const value = typeof minutes === 'number' && Number.isFinite(minutes) ? Math.round(minutes) : DEFAULT_ACTIVITY_TIMEOUT_MINUTES;
  return Math.min(MAX_ACTIVITY_TIMEOUT_MINUTES, Math.max(1, value)) * 60_000;
}
