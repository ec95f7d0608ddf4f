/** Fixed console routes and the path-template helpers shared by the catalog, lists and writes. */
import { checkPathId } from './path-ids';

export const AUTH_PATH = '/api/iam/v2/auth/personal_access_token';
export const ACTIVITIES_PATH = '/api/activity/v1/activities';
export const ACTIVITY_PATH = `${ACTIVITIES_PATH}/{id}`;

/** Rate-limit key of the PAT exchange (its own, stricter bucket). */
export const AUTH_LIMIT_KEY = 'route:auth';

// `/api/{module}/v{n}/...`, or `/api/v{n}/...` for the general console module.
const API_PATH = /^\/api\/(?:([a-z][a-z0-9_-]*)\/)?v(\d+)(?:\/|$)/i;

export interface ModuleVersion {
  module: string;
  version: number;
}

/** Module and version of an API path, or undefined when it is not `/api/{module}/v{n}/...`. */
export function moduleOf(path: string): ModuleVersion | undefined {
  const m = API_PATH.exec(path);
  if (!m) return undefined;
  return { module: (m[1] ?? 'console').toLowerCase(), version: Number(m[2]) };
}

/** Client-side rate-limit bucket: one per module, like the server's per-module limits. */
export function rateLimitKeyOf(path: string): string {
  if (path.split('?')[0] === AUTH_PATH) return AUTH_LIMIT_KEY;
  return `module:${moduleOf(path)?.module ?? 'console'}`;
}

/** Values a path template may reference: `{id}`, `{collection}`, and session claims. */
export interface PathVars {
  id?: string | undefined;
  collection?: string | undefined;
  companyId?: string | undefined;
  tenantId?: string | undefined;
  userId?: string | undefined;
}

export const SESSION_PLACEHOLDERS = ['companyId', 'tenantId', 'userId'] as const;
export const ALL_PLACEHOLDERS: readonly string[] = ['id', 'collection', ...SESSION_PLACEHOLDERS];

const PLACEHOLDER = /\{([A-Za-z]+)\}/g;

export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1] ?? '');
}

/** Whether expanding `template` needs the session's claims (e.g. `?companyId={companyId}`). */
export function needsSession(template: string): boolean {
  return placeholdersOf(template).some((p) => (SESSION_PLACEHOLDERS as readonly string[]).includes(p));
}

/**
 * Expands a template. `{collection}` is inserted verbatim (it is itself a path, from the validated
 * catalog); every other value must pass `checkPathId` (no empty, `.`, `..`, separator or control
 * character, also once decoded: UnsafePathIdError before any request is built) and is URI-encoded.
 * A missing value throws (a catalog bug).
 */
export function expand(template: string, vars: PathVars): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    const value = (vars as Record<string, string | undefined>)[name];
    if (value === undefined) throw new Error(`No value for ${whole} in ${template}`);
    return name === 'collection' ? value : encodeURIComponent(checkPathId(value, name, name === 'id' ? 'id' : `${name} claim`));
  });
}

/** Splits an expanded path into its path and query parameters. */
export function splitQuery(path: string): { path: string; query: Record<string, string> } {
  const at = path.indexOf('?');
  if (at < 0) return { path, query: {} };
  const query: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(path.slice(at + 1))) query[k] = v;
  return { path: path.slice(0, at), query };
}
