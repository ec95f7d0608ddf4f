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

function num(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) && n >= 0 && n < MAX_CLAIM_SECONDS ? n : undefined;
}

function str(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
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
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const claims = parsed as Record<string, unknown>;
  const scope = claims.scope;
  const scopeId =
    scope && typeof scope === 'object' ? str((scope as Record<string, unknown>).id) : undefined;
  return {
    exp: num(claims.exp),
    iat: num(claims.iat),
    userId: str(claims.userId) ?? str(claims.sub),
    companyId: str(claims.companyId),
    tenantId: scopeId ?? str(claims.tenantId),
  };
}
