import type { JwtClaims } from './jwt';

/** Used only when a token carries no usable `exp`: the contract's documented lifetime. */
export const FALLBACK_LIFETIME_MS = 5 * 60_000;
/** Never treat a token as shorter-lived than this, so a bad clock cannot cause an exchange storm. */
const MIN_LIFETIME_MS = 1_000;
/**
 * Never treat a token as longer-lived than this: a far-future `exp` (a claim in the wrong unit)
 * must still give a real date, and a day-old token is exchanged again anyway.
 */
export const MAX_LIFETIME_MS = 24 * 3_600_000;
/** Beyond this disagreement, our clock and the server's are skewed and `exp - iat` is trusted. */
const SKEW_TOLERANCE_MS = 5_000;

export interface TokenTimes {
  /** Local time (ms) when the token is expected to expire. */
  expiresAt: number;
  /** Local time (ms) from which we exchange again before using it. */
  refreshAt: number;
}

function lifetimeMs(claims: JwtClaims | undefined, receivedAt: number): number {
  if (claims?.exp === undefined) return FALLBACK_LIFETIME_MS;
  const byClock = claims.exp * 1000 - receivedAt;
  if (claims.iat === undefined) return byClock > 0 ? byClock : FALLBACK_LIFETIME_MS;
  const byClaims = (claims.exp - claims.iat) * 1000;
  if (byClaims <= 0) return byClock > 0 ? byClock : FALLBACK_LIFETIME_MS;
  // `exp - iat` ignores skew; `exp - now` also counts the time the token took to reach us (and
  // whole-second `iat`s), so it wins when the two clocks agree.
  return byClock > 0 && Math.abs(byClaims - byClock) <= SKEW_TOLERANCE_MS ? Math.min(byClaims, byClock) : byClaims;
}

/**
 * When to refresh a token, from its `exp` (never a hard-coded lifetime). The refresh margin is at
 * most half the lifetime, so a short-lived token is still used between exchanges.
 */
export function tokenTimes(claims: JwtClaims | undefined, receivedAt: number, marginMs: number): TokenTimes {
  const raw = lifetimeMs(claims, receivedAt);
  const lifetime = Number.isFinite(raw) ? Math.min(MAX_LIFETIME_MS, Math.max(MIN_LIFETIME_MS, raw)) : FALLBACK_LIFETIME_MS;
  const margin = Math.min(Math.max(0, marginMs), lifetime / 2);
  return { expiresAt: receivedAt + lifetime, refreshAt: receivedAt + lifetime - margin };
}
