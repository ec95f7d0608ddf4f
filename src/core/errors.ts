/**
 * Typed errors raised by the core clients. The edge (chat, tree, notifications) switches on
 * `kind` and reads the typed fields; it never matches on `message`.
 * Messages are built by the transport from redacted text only: they never carry a secret.
 */

export type StratusErrorKind =
  | 'api'
  | 'auth'
  | 'forbidden'
  | 'not_found'
  | 'rate_limit'
  | 'timeout'
  | 'stream_stalled'
  | 'network'
  | 'cancelled'
  | 'validation'
  | 'malformed_response'
  // A stream that had already delivered text was cut: the partial answer is real but incomplete.
  | 'interrupted'
  // A non-idempotent request (a write, a billed chat) failed after it may have reached the server.
  | 'outcome_unknown'
  // Raised by the console's activity follower (src/core/console), which owns that error class.
  | 'activity_failed'
  // The tier's hourly or daily output-token cap is reached (metered client-side): not sent.
  | 'usage_cap';

export abstract class StratusError extends Error {
  abstract readonly kind: StratusErrorKind;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Fields of a non-2xx response, from the contract's envelope and the response headers. */
export interface ApiErrorDetails {
  status: number;
  message: string;
  type?: string | undefined;
  code?: string | undefined;
  param?: string | undefined;
  requestId?: string | undefined;
  /** Set when the server told us how long to wait (Retry-After and friends). */
  retryAfterMs?: number | undefined;
}

/** Any non-2xx HTTP answer. Subclasses narrow `kind` for the statuses the edge treats specially. */
export class ApiError extends StratusError {
  readonly kind: 'api' | 'forbidden' | 'not_found' | 'rate_limit' = 'api';
  readonly status: number;
  readonly type: string | undefined;
  readonly code: string | undefined;
  readonly param: string | undefined;
  readonly requestId: string | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(details: ApiErrorDetails, options?: { cause?: unknown }) {
    super(details.message, options);
    this.status = details.status;
    this.type = details.type;
    this.code = details.code;
    this.param = details.param;
    this.requestId = details.requestId;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** 403: the credential is valid but lacks a permission. */
export class ForbiddenError extends ApiError {
  override readonly kind = 'forbidden' as const;
}

/** 404. `code === 'model_not_found'` (with `param === 'model'`) marks an unknown model. */
export class NotFoundError extends ApiError {
  override readonly kind = 'not_found' as const;

  get isModelNotFound(): boolean {
    return this.code === 'model_not_found';
  }
}

/** 429 that we did not (or could no longer) wait out. `retryAt` says when to try again, if known. */
export class RateLimitError extends ApiError {
  override readonly kind = 'rate_limit' as const;
  readonly retryAt: Date | undefined;

  constructor(details: ApiErrorDetails, options?: { cause?: unknown; now?: number }) {
    super(details, options);
    const at = details.retryAfterMs === undefined ? NaN : (options?.now ?? Date.now()) + details.retryAfterMs;
    // Range-checked: a wait that is not a real time (NaN, beyond the Date range) is no retry time.
    this.retryAt = Number.isFinite(at) && Math.abs(at) <= 8.64e15 ? new Date(at) : undefined;
  }
}

/**
 * No usable credential: either none is stored (`reason: 'missing'`, the edge offers to set it) or
 * the server rejected it with 401 (`reason: 'rejected'`).
 */
export class AuthError extends StratusError {
  readonly kind = 'auth' as const;
  readonly reason: 'missing' | 'rejected';
  /** Human name of the secret involved, e.g. "inference API key". Never the secret itself. */
  readonly secretName: string | undefined;
  readonly status: number | undefined;
  readonly type: string | undefined;
  readonly code: string | undefined;
  readonly requestId: string | undefined;

  constructor(
    message: string,
    details: {
      reason: 'missing' | 'rejected';
      secretName?: string | undefined;
      status?: number | undefined;
      type?: string | undefined;
      code?: string | undefined;
      requestId?: string | undefined;
    },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.reason = details.reason;
    this.secretName = details.secretName;
    this.status = details.status;
    this.type = details.type;
    this.code = details.code;
    this.requestId = details.requestId;
  }
}

export type TimeoutPhase = 'connect' | 'first_byte' | 'body';

/** No connection within the connect timeout, no response headers in time, or a slow plain body. */
export class TimeoutError extends StratusError {
  readonly kind = 'timeout' as const;
  constructor(
    message: string,
    readonly phase: TimeoutPhase,
    readonly timeoutMs: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A streamed response went silent for longer than the idle timeout. */
export class StreamStalledError extends StratusError {
  readonly kind = 'stream_stalled' as const;
  constructor(
    message: string,
    readonly idleMs: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The connection failed: refused, reset, DNS, TLS, proxy. `code` is the system/undici code;
 * `phase` says whether it broke before the response began or while its body was arriving.
 */
export class NetworkError extends StratusError {
  readonly kind = 'network' as const;
  readonly phase: 'connect' | 'response';
  constructor(
    message: string,
    readonly code: string | undefined,
    options?: { cause?: unknown; phase?: 'connect' | 'response' },
  ) {
    super(message, options);
    this.phase = options?.phase ?? 'connect';
  }
}

/** The caller's AbortSignal fired. */
export class CancelledError extends StratusError {
  readonly kind = 'cancelled' as const;
  constructor(message = 'Request cancelled', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A request was refused client-side before sending; `param` uses the wire name (e.g. `temperature`). */
export class ValidationError extends StratusError {
  readonly kind = 'validation' as const;
  constructor(
    message: string,
    readonly param: string,
  ) {
    super(message);
  }
}

/**
 * An id that would change the shape of a URL path if placed in it (empty, `.`, `..`, a separator,
 * control characters, or any of those once percent-decoded): refused before any request is built.
 */
export class UnsafePathIdError extends ValidationError {
  constructor(message: string, param: string) {
    super(message, param);
  }
}

/** The server answered 2xx with a body we cannot understand (bad JSON, truncated stream). */
export class MalformedResponseError extends StratusError {
  readonly kind = 'malformed_response' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * A streamed answer was cut after some of it arrived (connection reset, stall, truncated body).
 * Distinct from NetworkError: the caller keeps what arrived, marks it incomplete and offers Retry.
 */
export class InterruptedError extends StratusError {
  readonly kind = 'interrupted' as const;
  constructor(
    message: string,
    /** Why the stream ended early: a reset socket, silence past the idle timeout, or an early end. */
    readonly reason: 'reset' | 'stalled' | 'ended',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * A request that must not run twice (POST, PATCH) failed after its bytes may have left: the server
 * may or may not have acted on it. Never retried automatically; the edge offers to check (for a
 * console write, the Activities view).
 */
export class OutcomeUnknownError extends StratusError {
  readonly kind = 'outcome_unknown' as const;
  constructor(
    message: string,
    /** `METHOD path` that may have been applied, redacted. */
    readonly target: string,
    readonly code: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The tier's output-token cap for the hour or the day is reached, or would be by this request's
 * `max_tokens`: refused before sending (instead of meeting a 429). `resetsAt` is when the window
 * ends, `resetsAtLabel` its local clock time.
 */
export class UsageCapError extends StratusError {
  readonly kind = 'usage_cap' as const;
  constructor(
    message: string,
    readonly window: 'hour' | 'day',
    readonly used: number,
    readonly cap: number,
    readonly resetsAt: Date,
    readonly resetsAtLabel: string,
  ) {
    super(message);
  }
}

export type AnyStratusError =
  | ApiError
  | ForbiddenError
  | NotFoundError
  | RateLimitError
  | AuthError
  | TimeoutError
  | StreamStalledError
  | NetworkError
  | CancelledError
  | ValidationError
  | MalformedResponseError
  | InterruptedError
  | OutcomeUnknownError
  | UsageCapError;

export function isStratusError(value: unknown): value is AnyStratusError {
  return value instanceof StratusError;
}
