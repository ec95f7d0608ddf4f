import { RateLimiter } from '../http/rateLimiter';
import { AUTH_LIMIT_KEY } from './catalog/routes';

/** Server limits in requests per second per source IP (console-api.md, "Limits"). */
export interface ConsoleRateLimits {
  /** Every module (compute, iam, network, activity, ...), each its own budget. Default 25. */
  perModule: number;
  /** The PAT exchange route. Default 5. */
  auth: number;
}

export const CONTRACT_RATE_LIMITS: Readonly<ConsoleRateLimits> = { perModule: 25, auth: 5 };

/**
 * Share of the server's limit we use. Requests leave evenly spaced but reach the server with some
 * jitter; 90 % leaves a ~100 ms cushion per second so a bunched pair never becomes the 26th in a
 * server's sliding one-second window.
 */
export const RATE_HEADROOM = 0.9;

/**
 * One token bucket per module plus the auth route, with no burst: a burst of 25 followed by a
 * steady 25 r/s would put up to 50 requests in one second.
 */
export function createConsoleRateLimiter(limits: Partial<ConsoleRateLimits> = {}): RateLimiter {
  const { perModule, auth } = { ...CONTRACT_RATE_LIMITS, ...limits };
  return new RateLimiter({
    defaultLimit: { ratePerSecond: perModule * RATE_HEADROOM, burst: 1 },
    limits: { [AUTH_LIMIT_KEY]: { ratePerSecond: auth * RATE_HEADROOM, burst: 1 } },
  });
}
