import {
  CancelledError,
  NetworkError,
  StratusError,
  StreamStalledError,
  TimeoutError,
  ValidationError,
  type AnyStratusError,
} from '../errors';
import type { AttemptAbort } from './body';

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

export function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'ABORT_ERR') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The most specific message in a fetch failure ("fetch failed" says nothing; its cause does). */
function errorMessage(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; depth++) {
    if (e.message && e.message !== 'fetch failed' && e.message !== 'terminated') message = e.message;
    e = e.cause;
  }
  return message;
}

/**
 * A failure while a 2xx response's body was being read: a broken connection says so (the service
 * was reached; "cannot reach" would send the user to the wrong settings).
 */
export function toBodyReadError(error: unknown, ctx: FailureContext, fired: AttemptAbort): AnyStratusError {
  const err = toStratusError(error, ctx, fired);
  if (err.kind !== 'network' || err.phase === 'response') return err;
  return new NetworkError(`${ctx.target}: the connection broke while the response was read: ${ctx.redact(errorMessage(error))}${err.code ? ` (${err.code})` : ''}`, err.code, { phase: 'response' });
}

/**
 * Maps an engine failure (fetch's TypeError and its cause, an abort, a timer of ours) to a typed
 * error with a redacted message. `fired` says whether one of the attempt's own timers aborted it.
 */
export function toStratusError(error: unknown, ctx: FailureContext, fired: AttemptAbort = undefined): AnyStratusError {
  if (error instanceof StratusError) return error as AnyStratusError;
  if (fired === 'first_byte') {
    return new TimeoutError(`${ctx.target}: no response within ${ctx.firstByteMs} ms`, 'first_byte', ctx.firstByteMs);
  }
  if (fired === 'idle') return idleError(ctx);
  if (fired === 'body') {
    // Local, not the network's: the data to send could not be read (a file changed or vanished).
    return new ValidationError(`${ctx.target}: the request body could not be read: ${ctx.redact(errorMessage(error))}`, 'body');
  }
  // Whatever the engine reports after the caller aborted (aborted, socket closed), it was a cancel.
  if (ctx.signal?.aborted) return new CancelledError(`${ctx.target} was cancelled`);
  const code = errorCode(error);
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return new TimeoutError(`${ctx.target}: no connection within the connect timeout`, 'connect', ctx.connectMs);
    case 'UND_ERR_HEADERS_TIMEOUT':
      return new TimeoutError(`${ctx.target}: no response within the engine's timeout`, 'first_byte', undefined);
    case 'UND_ERR_BODY_TIMEOUT':
      return idleError(ctx);
    default:
      // An abort we did not ask for (e.g. a proxy refusing the tunnel) is a network failure.
      return new NetworkError(`${ctx.target} failed: ${ctx.redact(errorMessage(error))}${code ? ` (${code})` : ''}`, code);
  }
}

function idleError(ctx: FailureContext): AnyStratusError {
  return ctx.streaming
    ? new StreamStalledError(`${ctx.target}: the stream stalled (nothing received for ${ctx.idleMs} ms)`, ctx.idleMs)
    : new TimeoutError(`${ctx.target}: the response body stalled for ${ctx.idleMs} ms`, 'body', ctx.idleMs);
}
