/**
 * Reads the claims of the console access token. The signature is NOT verified: the token comes
 * straight from the server over TLS and we only use the claims to schedule the refresh and to show
 * who is signed in; the server verifies it on every request.
 */
import { isRecord, nonEmptyStrOrNumber, numOrNumericString } from '../json';

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
