import { ValidationError } from '../errors';

const VERSION_SEGMENT = /\/v\d+$/;
const LEADING_VERSION = /^\/v\d+(?:\/|$|\?)/;

/**
 * Parses a configured base URL. Accepts a trailing slash and a trailing version segment
 * (`https://h/v1/`), since users paste either the host or the OpenAI-style base.
 */
export function parseBaseUrl(baseUrl: string, param = 'baseUrl'): URL {
  const trimmed = baseUrl.trim();
  if (!trimmed) {
    throw new ValidationError(`No base URL is configured (${param})`, param);
  }
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new ValidationError(`The base URL is not a valid URL (${param})`, param);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ValidationError(`The base URL must use http or https (${param})`, param);
  }
  if (url.username || url.password) {
    throw new ValidationError(`The base URL must not contain credentials (${param})`, param);
  }
  return url;
}

/**
 * Joins a base URL and an absolute API path. Paths are given in full from the service root
 * (`/v1/chat/completions`, `/v2/rerank`, `/api/iam/v2/...`), so a version segment ending the base
 * is dropped when the path brings its own, and a base ending with the path's first segment
 * (`.../api` + `/api/...`) is not doubled.
 */
export function joinUrl(base: URL | string, path: string): string {
  const url = typeof base === 'string' ? parseBaseUrl(base) : base;
  let prefix = url.pathname.replace(/\/+$/, '');
  const rel = path.startsWith('/') ? path : `/${path}`;
  if (VERSION_SEGMENT.test(prefix) && LEADING_VERSION.test(rel)) {
    prefix = prefix.replace(VERSION_SEGMENT, '');
  } else {
    const first = /^\/[^/?]+/.exec(rel)?.[0];
    if (first && prefix.endsWith(first)) {
      prefix = prefix.slice(0, -first.length);
    }
  }
  return `${url.origin}${prefix}${rel}`;
}
