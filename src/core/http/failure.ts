import {
  CancelledError,
  NetworkError,
  StratusError,
  StreamStalledError,
  TimeoutError,
  type AnyStratusError,
} from '../errors';

export interface FailureContext {
  /** `METHOD host/path`, already redacted. */
  target: string;
  streaming: boolean;
  connectMs: number;
  firstByteMs: number;
  idleMs: number;
  signal: AbortSignal | undefined;
  redact: (text: string) => string;
}

// Failures where the request cannot have been processed, or the socket died under us.
const RETRYABLE_NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Maps an undici / Node failure to a typed error with a redacted message. */
export function toStratusError(error: unknown, ctx: FailureContext): AnyStratusError {
  if (error instanceof StratusError) return error as AnyStratusError;
  // Whatever undici reports after the caller aborted (aborted, socket closed), it was a cancel.
  if (ctx.signal?.aborted) return new CancelledError(`${ctx.target} was cancelled`);
  const code = errorCode(error);
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return new TimeoutError(
        `${ctx.target}: no connection within ${ctx.connectMs} ms`,
        'connect',
        ctx.connectMs,
      );
    case 'UND_ERR_HEADERS_TIMEOUT':
      return new TimeoutError(
        `${ctx.target}: no response within ${ctx.firstByteMs} ms`,
        'first_byte',
        ctx.firstByteMs,
      );
    case 'UND_ERR_BODY_TIMEOUT':
      return ctx.streaming
        ? new StreamStalledError(
            `${ctx.target}: the stream stalled (nothing received for ${ctx.idleMs} ms)`,
            ctx.idleMs,
          )
        : new TimeoutError(
            `${ctx.target}: the response body stalled for ${ctx.idleMs} ms`,
            'body',
            ctx.idleMs,
          );
    default:
      // An abort we did not ask for (e.g. a proxy refusing the tunnel) is a network failure.
      return new NetworkError(
        `${ctx.target} failed: ${ctx.redact(errorMessage(error))}${code ? ` (${code})` : ''}`,
        code,
      );
  }
}

/**
 * Whether a failure before the response headers may be retried. Connection-level failures are
 * retried for any request (nothing has streamed yet); a missing response only when idempotent,
 * since the server may still be working on it.
 */
export function isRetryableFailure(error: AnyStratusError, idempotent: boolean): boolean {
  if (error.kind === 'network') return error.code !== undefined && RETRYABLE_NETWORK_CODES.has(error.code);
  if (error.kind === 'timeout') return error.phase === 'connect' || idempotent;
  return false;
}
