import { AuthError, MalformedResponseError, isStratusError } from '../errors';
import type { ConsoleHttp } from './http';
import { looksLikeJwt } from './jwt';
import { isRecord } from '../json';
import { AUTH_PATH } from './catalog/routes';

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
