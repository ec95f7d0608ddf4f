import { createHmac, timingSafeEqual } from 'node:crypto';
import { isRecord, tryParseJson, type JsonObject } from '../core/json';

/** Minimal HS256 JWT (RFC 7519) with node:crypto. */

function base64url(data: Buffer | string): string {
  return Buffer.from(data).toString('base64url');
}

export function signJwt(payload: JsonObject, key: Buffer): string {
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = base64url(JSON.stringify(payload));
  const signature = createHmac('sha256', key).update(`${header}.${body}`).digest('base64url');
  return `${header}.${body}.${signature}`;
}

export type JwtCheck = { ok: true; payload: JsonObject } | { ok: false; reason: 'malformed' | 'signature' };

export function verifyJwt(token: string, key: Buffer): JwtCheck {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'malformed' };
  const [header = '', body = '', signature = ''] = parts;
  const headerJson = tryParseJson(Buffer.from(header, 'base64url').toString('utf8'));
  if (!headerJson.ok || !isRecord(headerJson.value) || headerJson.value.alg !== 'HS256') return { ok: false, reason: 'malformed' };
  const expected = createHmac('sha256', key).update(`${header}.${body}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature' };
  const payload = tryParseJson(Buffer.from(body, 'base64url').toString('utf8'));
  if (!payload.ok || !isRecord(payload.value)) return { ok: false, reason: 'malformed' };
  return { ok: true, payload: payload.value };
}
