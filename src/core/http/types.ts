import type { Dispatcher } from 'undici';
import type { AnyStratusError } from '../errors';
import type { Logger } from '../log';
import type { RateLimiter } from './rate-limiter';

/** Reads a secret (API key, access token) on demand; `undefined` means none is stored. */
export type SecretProvider = () => Promise<string | undefined>;

export interface TransportTimeouts {
  /** TCP + TLS (and proxy tunnel) connect. Default 10 s. */
  connectMs: number;
  /** From sending the request to the response headers. Default 60 s. */
  firstByteMs: number;
  /** Longest silence between body chunks; for a stream, a stall. Default 60 s. */
  idleMs: number;
}

export interface RetryOptions {
  /** Attempts in total, first one included; clamped to 1..5. Default 4. */
  attempts: number;
  /** Backoff base for the first retry, doubled each time, full jitter. Default 500 ms. */
  baseDelayMs: number;
  /** Ceiling of one backoff draw. Default 8 s. */
  maxDelayMs: number;
  /**
   * Longest server-requested wait (Retry-After, X-RateLimit-Reset-Requests) slept through; a longer
   * one fails at once with RateLimitError saying when to retry. Default 20 s.
   */
  maxWaitMs: number;
  /** Statuses worth retrying. Default 429, 500, 503 (the contract's transient ones). */
  statuses: readonly number[];
}

export interface ProxyOptions {
  /** Explicit proxy URL (VS Code's `http.proxy`); wins over the environment. */
  url?: string | undefined;
  /** Comma-separated hosts that bypass the proxy; default `NO_PROXY` from the environment. */
  noProxy?: string | undefined;
  /** Read `HTTPS_PROXY` / `HTTP_PROXY` / `NO_PROXY`. Default true. */
  fromEnv?: boolean | undefined;
}

export interface TransportOptions {
  /** Service root; a trailing slash or version segment is tolerated. */
  baseUrl: string;
  /** Name of the setting holding baseUrl, used as ValidationError.param. Default `baseUrl`. */
  baseUrlParam?: string;
  /** Bearer token source. Omit for unauthenticated transports. */
  auth?: SecretProvider | undefined;
  /** What the token is called in errors ("inference API key"). Never the value. */
  secretName?: string;
  /**
   * Called once per request after a 401 when a token was sent (e.g. to drop a cached JWT);
   * resolve true to retry the request once with a fresh token.
   */
  onUnauthorized?: (() => Promise<boolean>) | undefined;
  logger?: Logger;
  timeouts?: Partial<TransportTimeouts>;
  retry?: Partial<RetryOptions>;
  proxy?: ProxyOptions;
  /** Extra trusted CA certificates (PEM), added to Node's bundled roots. */
  ca?: readonly string[];
  /** Default true. False accepts any server certificate (VS Code's `http.proxyStrictSSL`). */
  rejectUnauthorized?: boolean;
  /** Client-side limiter; requests opt in with `rateLimitKey`. */
  rateLimiter?: RateLimiter;
  userAgent?: string;
  /** Headers sent on every request. Headers are never logged; still, put no secrets here. */
  headers?: Readonly<Record<string, string>>;
  /** Jitter source, for tests. Default Math.random. */
  random?: () => number;
}

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type MultipartField =
  | { name: string; value: string }
  | { name: string; data: Uint8Array; filename: string; contentType?: string | undefined }
  /** A file-backed Blob (`fs.openAsBlob`) is streamed from disk, never read whole into memory. */
  | { name: string; blob: Blob; filename: string };

export interface RequestOptions {
  method: HttpMethod;
  /** Absolute API path from the service root, e.g. `/v1/chat/completions`. */
  path: string;
  query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** JSON body (serialised once, resent as-is on retries). */
  json?: unknown;
  /** multipart/form-data body, rebuilt for every attempt. */
  form?: readonly MultipartField[];
  /** Raw body with its content type. */
  body?: { data: string | Uint8Array; contentType: string };
  headers?: Readonly<Record<string, string>>;
  signal?: AbortSignal | undefined;
  /** Send the bearer token. Default true when the transport has an auth provider. */
  auth?: boolean;
  /** Safe to resend after the request may have reached the server. Default: GET/HEAD/PUT/DELETE. */
  idempotent?: boolean;
  /** Server-sent events: asks for `text/event-stream`; an idle body is a StreamStalledError. */
  streaming?: boolean;
  timeouts?: Partial<Pick<TransportTimeouts, 'firstByteMs' | 'idleMs'>>;
  /** Per-request retry overrides; false disables retries. */
  retry?: Partial<RetryOptions> | false;
  /** Key of the client-side rate limiter bucket (e.g. the console module). */
  rateLimitKey?: string;
  /** Told how many body bytes have been handed to the network so far (uploads). */
  onUploadProgress?: (sentBytes: number) => void;
}

export type ResponseHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** undici's response body: a Node Readable with the fetch body mixin. */
export type ResponseBody = Dispatcher.ResponseData['body'];

/** A 2xx response whose body has not been read yet. */
export interface HttpResponse {
  readonly status: number;
  readonly headers: ResponseHeaders;
  readonly requestId: string | undefined;
  /** Raw body for streaming readers; map failures while reading it with `toError`. */
  readonly body: ResponseBody;
  /** Whole body as text; failures are typed errors. */
  text(): Promise<string>;
  /** Whole body as JSON (`undefined` for an empty body); bad JSON is a MalformedResponseError. */
  json(): Promise<unknown>;
  /** Turns an error thrown while reading `body` into a typed, redacted error. */
  toError(error: unknown): AnyStratusError;
  /** Releases the connection when the body is not wanted. */
  dispose(): void;
}
