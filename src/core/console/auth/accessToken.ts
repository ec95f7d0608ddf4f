/**
 * The access token: the PAT exchange that yields it, its JWT claims, and when to refresh it.
 */
import { AuthError, MalformedResponseError, isStratusError } from '../../errors';
import { isRecord, nonEmptyStrOrNumber, numOrNumericString } from '../../json';
import { AUTH_PATH } from '../catalog/routes';
import type { ConsoleHttp } from '../consoleHttp';

export const PAT_NAME = 'personal access token';

const TOKEN_FIELDS = ['token', 'accessToken', 'access_token', 'jwt'] as const;

/**
 * The access token in the exchange's answer: production sends the raw JWT as text/plain, other
 * deployments JSON (`{"token": ...}` and friends, or a JSON string).
 */
export function parseTokenBody(body: string): string | undefined {
  const trimmed = body.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('"')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      return undefined;
    }
    if (typeof parsed === 'string') return parsed.trim() || undefined;
    if (!isRecord(parsed)) return undefined;
    const holders = [parsed, parsed.data].filter(isRecord);
    for (const holder of holders) {
      for (const field of TOKEN_FIELDS) {
        const value = holder[field];
        if (typeof value === 'string' && value.trim()) return value.trim();
      }
    }
    return undefined;
  }
  const bare = trimmed.replace(/^Bearer\s+/i, '');
  return looksLikeJwt(bare) ? bare : undefined;
}

export interface PatPair {
  id: string;
  secret: string;
}

/** `POST /api/iam/v2/auth/personal_access_token {id, secret}` -> the access token (JWT). */
export async function exchangePat(http: ConsoleHttp, pat: PatPair, signal?: AbortSignal): Promise<string> {
  let text: string;
  try {
    const res = await http.send({
      method: 'POST',
      endpoint: AUTH_PATH,
      path: AUTH_PATH,
      json: { id: pat.id, secret: pat.secret },
      auth: false,
      sendsSecret: true,
      signal,
    });
    text = await res.text();
  } catch (error) {
    if (isStratusError(error) && (error.kind === 'auth' || error.kind === 'forbidden')) {
      const status = error.kind === 'auth' ? (error.status ?? 401) : error.status;
      throw new AuthError(
        `The console rejected the ${PAT_NAME} (HTTP ${status}). Check its id and secret, ` +
          'that it has not expired or been revoked, and sign in again.',
        { reason: 'rejected', secretName: PAT_NAME, status, requestId: error.requestId },
        { cause: error },
      );
    }
    throw error;
  }
  const token = parseTokenBody(text);
  if (!token) {
    throw new MalformedResponseError(`POST ${AUTH_PATH} answered without an access token`);
  }
  return token;
}

/**
 * Reads the claims of the console access token. The signature is NOT verified: the token comes
 * straight from the server over TLS and we only use the claims to schedule the refresh and to show
 * who is signed in; the server verifies it on every request.
 */

export interface JwtClaims {
  /** Seconds since the epoch. */
  exp: number | undefined;
  iat: number | undefined;
  userId: string | undefined;
  companyId: string | undefined;
  /** `scope.id`. */
  tenantId: string | undefined;
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export function looksLikeJwt(token: string): boolean {
  return JWT_SHAPE.test(token);
}

/**
 * Latest `exp`/`iat` read as seconds since the epoch: 8.64e12 s is the end of the Date range, so
 * anything larger (a claim sent in milliseconds or microseconds, or garbage) is no time at all.
 * Out-of-range claims are dropped (undefined) so the token falls back to the default lifetime.
 */
export const MAX_CLAIM_SECONDS = 8.64e12;

function claimSeconds(value: unknown): number | undefined {
  const n = numOrNumericString(value);
  return n !== undefined && n >= 0 && n < MAX_CLAIM_SECONDS ? n : undefined;
}

/** Decodes the payload; undefined when the token is not a JWT with a JSON object payload. */
export function decodeClaims(token: string): JwtClaims | undefined {
  if (!looksLikeJwt(token)) return undefined;
  const payload = token.split('.')[1] ?? '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isRecord(parsed)) return undefined;
  const claims = parsed;
  const scopeId = isRecord(claims.scope) ? nonEmptyStrOrNumber(claims.scope.id) : undefined;
  return {
    exp: claimSeconds(claims.exp),
    iat: claimSeconds(claims.iat),
    userId: nonEmptyStrOrNumber(claims.userId) ?? nonEmptyStrOrNumber(claims.sub),
    companyId: nonEmptyStrOrNumber(claims.companyId),
    tenantId: scopeId ?? nonEmptyStrOrNumber(claims.tenantId),
  };
}

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
