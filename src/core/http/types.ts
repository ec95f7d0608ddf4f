import type { AnyStratusError } from '../errors';
import type { Logger } from '../log';
import type { Redactor } from './redact';
import type { RateLimiter } from './rateLimiter';

/** Reads a secret (API key, access token) on demand; `undefined` means none is stored. */
export type SecretProvider = () => Promise<string | undefined>;

export interface TransportTimeouts {
  /**
   * TCP + TLS (and proxy tunnel) connect, as reported in errors. The engine enforces it (the
   * runtime's fetch connects within 10 s); an engine-reported connect timeout is the only failure
   * that proves a request never left.
   */
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
  /** Statuses worth retrying. Default 429, 500, 503 (the contract's transient ones) and 502, 504 (a gateway's). */
  statuses: readonly number[];
}

/** The part of WHATWG `fetch` the transport uses. */
export type FetchLike = (url: string, init: FetchInit) => Promise<Response>;

/** `RequestInit` plus Node's `duplex`, which a streamed request body needs. */
export type FetchInit = RequestInit & { duplex?: 'half' };

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
  /**
   * The process-wide redactor (the log channel's too), so every secret any client handles is
   * cleaned everywhere. Default: one of the transport's own.
   */
  redactor?: Redactor;
  /**
   * Redactor slot for a bearer token that rotates (the console's JWT): only its current value is
   * tracked. Without it the token is pinned for the life of the process (an API key).
   */
  tokenSlot?: string;
  timeouts?: Partial<TransportTimeouts>;
  retry?: Partial<RetryOptions>;
  /**
   * The HTTP engine. Default: the runtime's global `fetch`, which in VS Code's extension host is
   * Node's undici extended with the user's proxy (http.proxy, PAC, noProxy, proxy auth) and the
   * system certificates. Read on every request, so a later patch of the global is honoured.
   */
  fetch?: FetchLike;
  /**
   * Called before a secret (the bearer token, or a body marked `sendsSecret`) goes to the target;
   * rejecting stops the request unsent. Used to ask before plain http to a remote host.
   */
  beforeSecretSent?: (url: URL, secretName: string, param: string) => Promise<void>;
  /** Client-side limiter; requests opt in with `rateLimitKey`. */
  rateLimiter?: RateLimiter;
  userAgent?: string;
  /** Headers sent on every request. Headers are never logged; still, put no secrets here. */
  headers?: Readonly<Record<string, string>>;
  /**
   * A gateway's headers (settings and secret storage, see gatewayHeaders.ts), read on every
   * attempt like the token; reserved ones (credentials, framing, hop-by-hop) are never applied.
   */
  gatewayHeaders?: () => Promise<Readonly<Record<string, string>>>;
  /** Jitter source, for tests. Default Math.random. */
  random?: () => number;
  /** Told of every attempt's host, feature and byte sizes (traffic.ts); never of a body's content. */
  traffic?: TrafficTap | undefined;
}

/**
 * Watches where requests go (the Network Activity view): one call per attempt sent, with the
 * request body's size, returning the function told the size of each response chunk as it is read.
 */
export interface TrafficTap {
  sent(exchange: { host: string; feature: string; bytes: number }): (receivedBytes: number) => void;
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
  /** Safe to resend after the request may have reached the server. Default: GET and HEAD only. */
  idempotent?: boolean;
  /**
   * Changes state on the server (a console write, whatever its method): never resent once it may
   * have left (`idempotent` is ignored), only a 429 is retried, and a failure after sending is an
   * OutcomeUnknownError. See writeSafety.ts.
   */
  write?: boolean;
  /**
   * Each answer may be billed (chat, completion, embeddings, rerank, transcription): after a 5xx
   * it is sent again at most once (a 429, a refusal, as usual). See writeSafety.ts.
   */
  billed?: boolean;
  /** Server-sent events: asks for `text/event-stream`; an idle body is a StreamStalledError. */
  streaming?: boolean;
  timeouts?: Partial<Pick<TransportTimeouts, 'firstByteMs' | 'idleMs'>>;
  /** Per-request retry overrides; false disables retries. */
  retry?: Partial<RetryOptions> | false;
  /** Key of the client-side rate limiter bucket (e.g. the console module). */
  rateLimitKey?: string;
  /** The body carries a secret (the PAT exchange): gated like a bearer token. */
  sendsSecret?: boolean;
  /** Told how many body bytes have been handed to the network so far (uploads). */
  onUploadProgress?: (sentBytes: number) => void;
  /** What the request is for, as the Network Activity view names it; default from the path (traffic.ts). */
  feature?: string | undefined;
}

export type ResponseHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * A response body as a plain async iterable of byte chunks (the hot path reads it in a loop). The
 * idle timeout runs while it is read; leaving the loop early cancels the body and the connection.
 */
export type ResponseBody = AsyncIterable<Uint8Array>;

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
