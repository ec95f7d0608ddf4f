/**
 * The one write-safety policy (DESIGN "One door per risk"): whether a request may be sent again
 * after a failure, and whether a failure proves that a write was not applied. The transport, the
 * console's write path and the Cloud view's failure handling all ask here, so they cannot disagree.
 *
 * A console write (POST, PUT, PATCH or DELETE: every one creates an activity) is never re-sent once
 * its bytes may have reached the server, whatever HTTP calls idempotent: a second DELETE after a
 * reset is a second activity, and the first one's outcome is lost.
 */
import { OutcomeUnknownError, isStratusError, type AnyStratusError } from '../errors';
import type { HttpMethod } from './types';

/** How one request may be re-sent. */
export interface SendPolicy {
  /** Safe to send again after its bytes may have reached the server (reads). */
  readonly idempotent: boolean;
  /**
   * Changes state on the server (a console write): never re-sent once it may have left, any
   * failure after that is OutcomeUnknownError, and only 429 (a refusal) is retried.
   */
  readonly write: boolean;
  /**
   * Each answer may be billed (chat, completion, embeddings, rerank, transcription): a 5xx may
   * come after the work was done, so it is sent again at most once. See mayResendAfterStatus.
   */
  readonly billed: boolean;
}

/** How many times a billed request is sent again after a server error (5xx). */
export const BILLED_SERVER_ERROR_RESENDS = 1;

const READ_METHODS: ReadonlySet<HttpMethod> = new Set<HttpMethod>(['GET', 'HEAD']);

/**
 * The policy of a request. Only GET and HEAD are idempotent by default; `idempotent: true` opts a
 * request in, except a write, which never is.
 */
export function sendPolicy(
  method: HttpMethod,
  options: { idempotent?: boolean | undefined; write?: boolean | undefined; billed?: boolean | undefined } = {},
): SendPolicy {
  const write = options.write === true;
  return { write, billed: options.billed === true, idempotent: !write && (options.idempotent ?? READ_METHODS.has(method)) };
}

// The connection never opened (or TLS refused the peer before any request byte was written).
const NEVER_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);
// Of those, the ones worth another try (a missing host name or a bad certificate is not).
const TRANSIENT_NEVER_SENT = new Set(['ECONNREFUSED', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
// The connection broke while the request was in flight: the server may have acted on it.
const BROKEN_IN_FLIGHT = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** Statuses by which the server says it did not apply the request (it refused or could not find it). */
const REFUSED_STATUSES: ReadonlySet<number> = new Set([400, 401, 403, 404, 409, 422, 429]);

/** The failure proves no byte of the request reached the server: the connection never opened. */
export function provablyNotSent(error: unknown): boolean {
  if (!isStratusError(error)) return false;
  if (error.kind === 'network') return error.code !== undefined && NEVER_SENT_CODES.has(error.code);
  return error.kind === 'timeout' && error.phase === 'connect';
}

/**
 * The failure proves the write did not happen: it was refused before sending (validation, a
 * missing credential, a usage cap), never left, or the server refused it (400, 401, 403, 404, 409,
 * 422, 429). Anything else (5xx, a reset or timeout after sending, an unreadable answer, an error
 * we do not know) leaves the outcome unknown.
 */
export function provablyNotApplied(error: unknown): boolean {
  if (!isStratusError(error)) return false;
  switch (error.kind) {
    case 'validation':
      // An upload whose local file failed mid-body may have sent part of it.
      return error.param !== 'body';
    case 'usage_cap':
      return true;
    case 'auth':
      return error.reason === 'missing' || error.status === undefined || REFUSED_STATUSES.has(error.status);
    case 'api':
    case 'forbidden':
    case 'not_found':
    case 'rate_limit':
      return REFUSED_STATUSES.has(error.status);
    case 'network':
    case 'timeout':
      return provablyNotSent(error);
    default:
      return false;
  }
}

/**
 * Whether the transport may send a request again after a failure before any response: one that
 * provably never left (and may connect next time) always; one that may have reached the server
 * only when idempotent.
 */
export function mayResendAfterFailure(error: AnyStratusError, policy: SendPolicy): boolean {
  if (error.kind === 'network' && error.code !== undefined && TRANSIENT_NEVER_SENT.has(error.code)) return true;
  if (error.kind === 'timeout' && error.phase === 'connect') return true;
  if (!policy.idempotent) return false;
  if (error.kind === 'network') return error.code !== undefined && BROKEN_IN_FLIGHT.has(error.code);
  return error.kind === 'timeout' && error.phase === 'first_byte';
}

/**
 * Whether the transport may send a request again after an HTTP status it retries (429, 5xx).
 * `serverErrorResends` counts the times this request was already sent again after a 5xx. A
 * status arrives instead of an answer, so no byte of an answer was received (a stream cut after
 * its 2xx is never sent again: it is not idempotent).
 */
export function mayResendAfterStatus(status: number, policy: SendPolicy, statuses: readonly number[], serverErrorResends = 0): boolean {
  if (!statuses.includes(status)) return false;
  // A 429 is a refusal: nothing was done, nothing billed.
  if (status === 429) return true;
  // A 5xx may come after a write created its activity, or after a billed answer was generated.
  if (policy.write) return false;
  return !policy.billed || serverErrorResends < BILLED_SERVER_ERROR_RESENDS;
}

/**
 * The error to report for a failure before any response. A write that may have reached the
 * server, or another non-idempotent request whose connection broke in flight, becomes
 * OutcomeUnknownError: it may or may not have been applied, and it was not sent again.
 */
export function failureAfterSending(error: AnyStratusError, policy: SendPolicy, target: string): AnyStratusError {
  if (policy.idempotent || provablyNotSent(error)) return error;
  if (error.kind === 'network') {
    if (!policy.write && (error.code === undefined || !BROKEN_IN_FLIGHT.has(error.code))) return error;
    const why = error.code ? `the connection broke after the request was sent (${error.code})` : 'the connection failed after the request was sent';
    return unknown(why, target, error.code, error);
  }
  if (policy.write && (error.kind === 'timeout' || error.kind === 'stream_stalled')) {
    return unknown('no answer came in time after the request was sent', target, undefined, error);
  }
  return error;
}

function unknown(why: string, target: string, code: string | undefined, cause: AnyStratusError): OutcomeUnknownError {
  return new OutcomeUnknownError(`${target}: ${why}; it may or may not have been applied, and was not sent again`, target, code, { cause });
}
