/**
 * The console client's HTTP layer: every request goes through ConsoleHttp (module rate-limit
 * key, per-request auth context, deprecation watch); the rate limits it keeps under.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { abortable } from '../abortable';
import { joinedHeader } from '../http/headers';
import { RateLimiter } from '../http/rateLimiter';
import type { HttpTransport } from '../http/transport';
import type { HttpMethod, HttpResponse, RetryOptions, ResponseHeaders } from '../http/types';
import type { Logger } from '../log';
import { rateLimitKeyOf, AUTH_LIMIT_KEY } from './catalog/routes';
import type { DeprecationNotice } from './types';

export interface ConsoleCall {
  method: HttpMethod;
  /** Endpoint path template (deprecation key), e.g. `/api/compute/v1/virtual-machines/{id}`. */
  endpoint: string;
  /** The concrete path. */
  path: string;
  query?: Readonly<Record<string, string | number | undefined>>;
  json?: unknown;
  signal?: AbortSignal | undefined;
  /** Send the bearer token (default true); false for the PAT exchange. */
  auth?: boolean;
  retry?: Partial<RetryOptions> | false;
  /** A write (creates an activity): the transport's write-safety policy applies (http/writeSafety.ts). */
  write?: boolean;
  /** The body carries a secret (the PAT exchange): the plain-http gate applies. */
  sendsSecret?: boolean;
}

/** Every console request goes through here: module rate-limit key, auth context, deprecation check. */
export class ConsoleHttp {
  constructor(
    private readonly transport: HttpTransport,
    private readonly context: RequestContext,
    private readonly deprecations: DeprecationWatcher,
  ) {}

  async send(call: ConsoleCall): Promise<HttpResponse> {
    // abortable: a request queued in the rate limiter would otherwise only see an abort on its turn.
    const pending = this.context.run(call.signal, () =>
      this.transport.request({
        method: call.method,
        path: call.path,
        query: call.query,
        json: call.json,
        signal: call.signal,
        auth: call.auth ?? true,
        retry: call.retry,
        ...(call.write ? { write: true } : {}),
        rateLimitKey: rateLimitKeyOf(call.path),
        ...(call.sendsSecret ? { sendsSecret: true } : {}),
      }),
    );
    const res = await abortable(pending, call.signal, (late) => late.dispose());
    this.deprecations.check({ method: call.method, path: call.endpoint }, res.headers);
    return res;
  }
}

/**
 * Per-request state shared between our request wrapper and the transport's auth hooks. The
 * transport asks for a token and reports a 401 without saying which request is involved; running
 * each request in its own async context lets the 401 hook drop exactly the token that request
 * sent (not a newer one another request just fetched), and lets a token wait honour the caller's
 * AbortSignal.
 */
export interface RequestState {
  signal: AbortSignal | undefined;
  /** The bearer token the current attempt sent. */
  token: string | undefined;
}

export class RequestContext {
  private readonly storage = new AsyncLocalStorage<RequestState>();

  run<T>(signal: AbortSignal | undefined, fn: () => Promise<T>): Promise<T> {
    return this.storage.run({ signal, token: undefined }, fn);
  }

  current(): RequestState | undefined {
    return this.storage.getStore();
  }
}

/** The `rel="successor-version"` target of a Link header, else `rel="deprecation"`, else the first. */
export function linkTarget(link: string | undefined): string | undefined {
  if (!link) return undefined;
  const entries = [...link.matchAll(/<([^>]*)>([^,<]*)/g)].map((m) => ({ url: m[1] ?? '', params: m[2] ?? '' }));
  const byRel = (rel: string): string | undefined =>
    entries.find((e) => new RegExp(`rel="?[^"]*\\b${rel}\\b`, 'i').test(e.params))?.url;
  return byRel('successor-version') ?? byRel('deprecation') ?? entries[0]?.url ?? link;
}

/**
 * Watches responses for `Deprecation` / `Sunset` headers (RFC 9745 / RFC 8594) and reports each
 * endpoint once per client, so a deprecated list expanded a hundred times warns once.
 */
export class DeprecationWatcher {
  private readonly seen = new Set<string>();

  constructor(
    private readonly logger: Logger,
    private readonly onDeprecation: ((notice: DeprecationNotice) => void) | undefined,
  ) {}

  check(endpoint: { method: string; path: string }, headers: ResponseHeaders): void {
    const deprecation = joinedHeader(headers, 'deprecation');
    const sunset = joinedHeader(headers, 'sunset');
    if (deprecation === undefined && sunset === undefined) return;
    const key = `${endpoint.method} ${endpoint.path}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const notice: DeprecationNotice = {
      method: endpoint.method,
      path: endpoint.path,
      deprecation,
      sunset,
      link: linkTarget(joinedHeader(headers, 'link')),
    };
    this.logger.warn(
      `Console endpoint ${key} is deprecated` +
        `${sunset ? `; removal (Sunset) ${sunset}` : ''}${notice.link ? `; replacement: ${notice.link}` : ''}`,
    );
    try {
      this.onDeprecation?.(notice);
    } catch (error) {
      this.logger.warn(`onDeprecation listener failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

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
