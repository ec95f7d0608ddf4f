import {
  ApiError,
  AuthError,
  ForbiddenError,
  NotFoundError,
  RateLimitError,
  type AnyStratusError,
  type ApiErrorDetails,
} from '../errors';
import { nonEmptyStrOrNumber } from '../json';
import { firstHeader } from './headers';
import { parseRetryAfter, serverRetryDelay } from './retryAfter';
import type { ResponseHeaders } from './types';

const MAX_MESSAGE = 500;
const MAX_FIELD = 200;

interface Envelope {
  message?: string;
  type?: string;
  code?: string;
  param?: string;
}

/**
 * Reads the contract's envelope `{error:{message,type,param,code}}`, the console's 429 body
 * `{error:{status,message}}`, and the common `{error:"..."}` / `{message}` / `{detail}` forms.
 */
export function parseErrorBody(text: string): Envelope {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // Plain text is shown only when short and not an HTML error page.
    const plain = text.trim();
    return plain && plain.length <= 200 && !plain.startsWith('<') ? { message: plain } : {};
  }
  if (!body || typeof body !== 'object') return {};
  const record = body as Record<string, unknown>;
  const error = record.error;
  if (error && typeof error === 'object') {
    const e = error as Record<string, unknown>;
    return { message: nonEmptyStrOrNumber(e.message), type: nonEmptyStrOrNumber(e.type), code: nonEmptyStrOrNumber(e.code), param: nonEmptyStrOrNumber(e.param) };
  }
  const detail = record.detail;
  return {
    message: nonEmptyStrOrNumber(error) ?? nonEmptyStrOrNumber(record.message) ?? (typeof detail === 'string' ? detail : undefined),
    type: nonEmptyStrOrNumber(record.type),
    code: nonEmptyStrOrNumber(record.code),
  };
}

export interface ErrorResponse {
  status: number;
  headers: ResponseHeaders;
  bodyText: string;
  /** `METHOD host/path`, already redacted. */
  target: string;
  secretName: string | undefined;
  redact: (text: string) => string;
  now?: number;
}

function describeWait(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.ceil(ms / 1000)} s`;
}

/** Builds the typed error for a non-2xx answer. Every string taken from the body is redacted. */
export function toApiError(res: ErrorResponse): AnyStratusError {
  const envelope = parseErrorBody(res.bodyText);
  const serverMessage = envelope.message
    ? res.redact(envelope.message).slice(0, MAX_MESSAGE)
    : undefined;
  const now = res.now ?? Date.now();
  const retryAfterMs =
    res.status === 429
      ? serverRetryDelay(res.headers, now)
      : parseRetryAfter(res.headers['retry-after'], now);
  // type, code and param are shown too (presentError names the parameter): a server may echo
  // the request into any of them.
  const field = (value: string | undefined): string | undefined => (value === undefined ? undefined : res.redact(value).slice(0, MAX_FIELD));
  const details: ApiErrorDetails = {
    status: res.status,
    message: `${res.target} returned HTTP ${res.status}${serverMessage ? `: ${serverMessage}` : ''}`,
    type: field(envelope.type),
    code: field(envelope.code),
    param: field(envelope.param),
    requestId: field(firstHeader(res.headers, 'x-request-id')),
    retryAfterMs,
  };
  switch (res.status) {
    case 401:
      return new AuthError(
        `The ${res.secretName ?? 'credential'} was rejected (HTTP 401)${serverMessage ? `: ${serverMessage}` : ''}`,
        { reason: 'rejected', secretName: res.secretName, ...details },
      );
    case 403:
      return new ForbiddenError(details);
    case 404:
      return new NotFoundError(details);
    case 429:
      return new RateLimitError(
        {
          ...details,
          message:
            retryAfterMs === undefined
              ? details.message
              : `${details.message} (retry in ${describeWait(retryAfterMs)})`,
        },
        { now },
      );
    default:
      return new ApiError(details);
  }
}
