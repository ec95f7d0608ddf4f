/**
 * Console routes and path templates: the fixed auth and activity routes, module and rate-limit
 * key of a path, template expansion with the one check of every id placed in a path, and the
 * list of endpoints in use.
 */
import { UnsafePathIdError } from '../../errors';
import type { EndpointInUse } from '../types';
import type { ResourceKindSpec, ResourceKind } from './kindSpecs';

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

/** The collection path without its query: the `{collection}` of item and action templates. */
export function collectionBase(kind: Pick<ResourceKindSpec, 'collection'>): string {
  return splitQuery(kind.collection).path;
}

/**
 * The one check of every id placed in a URL path (DESIGN "One door per risk"): resource ids, the
 * activity id of a `Location` header, session claims. `encodeURIComponent` keeps `.` and `..`, so
 * an id of `..` would leave its collection (`DELETE .../virtual-machines/..` is `DELETE .../v1/`);
 * a server or proxy that decodes twice would also act on `%2e%2e` or `a%2Fb`.
 */

const MAX_ID_LENGTH = 512;
// C0, DEL and C1 controls, and the Unicode line and paragraph separators.
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const SEPARATOR = /[/\\]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const MAX_DECODES = 4;

/** The value and what it decodes to (percent-decoding repeated, then NFKC), each checked alike. */
function forms(value: string): string[] {
  const out = [value];
  let current = value;
  for (let i = 0; i < MAX_DECODES; i++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      break;
    }
    if (next === current) break;
    out.push(next);
    current = next;
  }
  for (const form of [...out]) {
    const folded = form.normalize('NFKC');
    if (folded !== form) out.push(folded);
  }
  return out;
}

/** Why `value` cannot be a path segment, or undefined when it is safe. */
export function pathIdProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'is not a string';
  if (value.length > MAX_ID_LENGTH) return `is longer than ${MAX_ID_LENGTH} characters`;
  for (const form of forms(value)) {
    if (form.trim() === '') return 'is empty';
    if (form !== form.trim()) return 'starts or ends with white space';
    if (form === '.' || form === '..') return 'is a "." or ".." path segment';
    if (SEPARATOR.test(form)) return 'contains a path separator';
    if (CONTROL.test(form)) return 'contains control characters';
    if (LONE_SURROGATE.test(form)) return 'is not well-formed Unicode';
  }
  return undefined;
}

/** A short, printable rendering of a refused id for messages (never its raw control characters). */
function shown(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : typeof value;
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Throws UnsafePathIdError unless `value` is safe to place in a URL path; returns it otherwise. */
export function checkPathId(value: unknown, param = 'id', what = 'id'): string {
  const problem = pathIdProblem(value);
  if (problem !== undefined) {
    throw new UnsafePathIdError(`The ${what} ${shown(value)} ${problem}: it cannot be placed in a request path`, param);
  }
  return value as string;
}

function endpoint(method: string, path: string, purpose: string): EndpointInUse {
  const mv = moduleOf(path);
  return { module: mv?.module ?? 'console', version: mv?.version ?? 1, method, path, purpose };
}

/** A template with `{collection}` replaced and no query: how requests and deprecation notices name it. */
export function endpointPath(kind: Pick<ResourceKind, 'collection'>, template: string): string {
  return splitQuery(template.replace('{collection}', collectionBase(kind))).path;
}

/**
 * Every endpoint this client can call, from the catalog (after overrides) plus the auth and
 * activity routes: the list the contract advises clients to keep, to check against deprecations.
 */
export function endpointsInUse(kinds: readonly ResourceKind[]): EndpointInUse[] {
  const list: EndpointInUse[] = [
    endpoint('POST', AUTH_PATH, 'Exchange the personal access token for an access token'),
    endpoint('GET', ACTIVITIES_PATH, 'List activities'),
    endpoint('GET', ACTIVITY_PATH, 'Read (follow) an activity'),
  ];
  for (const kind of kinds) {
    list.push(endpoint('GET', collectionBase(kind), `List ${kind.label.plural.toLowerCase()}`));
    if (kind.item) list.push(endpoint('GET', endpointPath(kind, kind.item), `Read a ${kind.label.singular.toLowerCase()}`));
    for (const action of kind.actions) {
      const what = `${action.label.replace(/\.\.\.$/, '')}${action.target === 'item' ? ` (${kind.label.singular.toLowerCase()})` : ''}`;
      list.push(endpoint(action.method, endpointPath(kind, action.path), what));
    }
  }
  // Power on and off share one endpoint: list each method+path once, purposes merged.
  const merged = new Map<string, EndpointInUse>();
  for (const e of list) {
    const key = `${e.method} ${e.path}`;
    const seen = merged.get(key);
    if (seen) seen.purpose = `${seen.purpose}; ${e.purpose}`;
    else merged.set(key, { ...e });
  }
  return [...merged.values()].sort(
    (a, b) => a.module.localeCompare(b.module) || a.version - b.version || a.path.localeCompare(b.path) || a.method.localeCompare(b.method),
  );
}
