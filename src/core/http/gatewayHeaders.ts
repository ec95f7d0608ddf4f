/**
 * Fixed headers a gateway in front of the service needs (`X-Tenant`, `api-version`...), from the
 * `stratus.inference.headers` / `stratus.console.headers` settings and from secret storage. The
 * transport owns the headers that carry the credential, frame the body or route the connection:
 * a user's header can never replace them.
 */

/** Headers a gateway setting may not set, lower-case: credentials, body framing, routing, hop-by-hop. */
export const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'host',
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
  'expect',
]);

// RFC 9110 token: what a header name may be made of.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,128}$/;
// A field value: visible characters, spaces and tabs; never a line break (header injection).
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]{0,8192}$/;

export type HeaderRefusal = 'reserved' | 'badName' | 'badValue';

export interface RefusedHeader {
  readonly name: string;
  readonly reason: HeaderRefusal;
}

export interface GatewayHeaders {
  /** Accepted headers, names as the user wrote them. */
  readonly headers: Readonly<Record<string, string>>;
  readonly refused: readonly RefusedHeader[];
}

/** Why `name` cannot be a gateway header, or undefined when it can. */
export function headerNameProblem(name: string): HeaderRefusal | undefined {
  if (!HEADER_NAME.test(name)) return 'badName';
  return RESERVED_HEADERS.has(name.toLowerCase()) ? 'reserved' : undefined;
}

/**
 * Validates a headers setting (an object of name to string). Reserved and malformed entries are
 * refused (and reported, never silently sent); a value that is not a string is malformed.
 */
export function parseGatewayHeaders(raw: unknown): GatewayHeaders {
  const headers: Record<string, string> = {};
  const refused: RefusedHeader[] = [];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { headers, refused };
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const problem = headerNameProblem(name) ?? (typeof value === 'string' && HEADER_VALUE.test(value) ? undefined : 'badValue');
    if (problem) refused.push({ name, reason: problem });
    else headers[name] = value as string;
  }
  return { headers, refused };
}

/**
 * The headers sent: fixed ones from settings, then secret ones (a secret header wins over a
 * setting of the same name, whatever its case, so a stale plain value never leaks alongside it).
 */
export function mergeGatewayHeaders(fixed: Readonly<Record<string, string>>, secret: Readonly<Record<string, string>>): Record<string, string> {
  const secretNames = new Set(Object.keys(secret).map((n) => n.toLowerCase()));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(fixed)) if (!secretNames.has(name.toLowerCase())) out[name] = value;
  return { ...out, ...parseGatewayHeaders(secret).headers };
}

/** A stable key for a set of refusals, so the same problem is told to the user once. */
export function refusalKey(refused: readonly RefusedHeader[]): string {
  return refused.map((r) => `${r.name.toLowerCase()}:${r.reason}`).sort().join(',');
}
