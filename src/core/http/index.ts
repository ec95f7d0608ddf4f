export { createTransport, HttpTransport, DEFAULT_RETRY, DEFAULT_TIMEOUTS } from './transport';
export { RateLimiter, type RateLimit, type RateLimiterOptions } from './rateLimiter';
export { redact, Redactor, REDACTED } from './redact';
export { joinUrl, parseBaseUrl } from './url';
export { parseRetryAfter, parseRateLimitReset } from './retryAfter';
export { parseRateLimitHeaders, type RateLimitInfo } from './rateLimitHeaders';
export { fullJitterDelay } from './backoff';
export { sleep } from './sleep';
export type {
  HttpMethod,
  HttpResponse,
  MultipartField,
  FetchInit,
  FetchLike,
  RequestOptions,
  ResponseBody,
  ResponseHeaders,
  RetryOptions,
  SecretProvider,
  TransportOptions,
  TransportTimeouts,
} from './types';
