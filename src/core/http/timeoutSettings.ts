import { DEFAULT_TIMEOUTS } from './transport';
import type { TransportTimeouts } from './types';

/**
 * Bounds of the user's timeout settings, in seconds: below 5 s a healthy request is cut, above
 * an hour a dead connection hangs the chat for longer than anyone waits.
 */
export const TIMEOUT_SECONDS_BOUNDS = { min: 5, max: 3600 } as const;

/** A setting in seconds clamped to the bounds; not a finite number (unset, a string): undefined, the default. */
export function clampTimeoutSeconds(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return undefined;
  return Math.min(TIMEOUT_SECONDS_BOUNDS.max, Math.max(TIMEOUT_SECONDS_BOUNDS.min, value));
}

/**
 * The transport timeouts from `stratus.inference.requestTimeoutSeconds` (time to the response
 * headers) and `stratus.inference.idleTimeoutSeconds` (longest silence inside an answer). A slow
 * 120b model on a long answer needs more than the defaults, meant for chat.
 */
export function timeoutsFromSettings(requestSeconds: unknown, idleSeconds: unknown): Partial<TransportTimeouts> {
  const firstByte = clampTimeoutSeconds(requestSeconds);
  const idle = clampTimeoutSeconds(idleSeconds);
  return {
    ...(firstByte !== undefined ? { firstByteMs: firstByte * 1000 } : {}),
    ...(idle !== undefined ? { idleMs: idle * 1000 } : {}),
  };
}

/** The defaults, in seconds, for the settings' documentation and tests. */
export const DEFAULT_TIMEOUT_SECONDS = { request: DEFAULT_TIMEOUTS.firstByteMs / 1000, idle: DEFAULT_TIMEOUTS.idleMs / 1000 } as const;
