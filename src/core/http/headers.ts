import type { ResponseHeaders } from './types';

/**
 * The one reader of response headers. Names match case-insensitively (the transport stores them
 * lower-cased, as undici reports them); a repeated header arrives as an array of its values.
 */
function valuesOf(headers: ResponseHeaders, name: string): string | string[] | undefined {
  const key = name.toLowerCase();
  const value = headers[key];
  if (value !== undefined) return value;
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === key) return v;
  return undefined;
}

/** The first of a header's values (a repeated header arrives as an array). */
export function firstValue(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' || value === undefined ? value : value[0];
}

/** The first value of a header, as sent (not trimmed); undefined when absent. */
export function firstHeader(headers: ResponseHeaders, name: string): string | undefined {
  return firstValue(valuesOf(headers, name));
}

/** Every value of a header joined with ", " (a list header), trimmed; undefined when absent or blank. */
export function joinedHeader(headers: ResponseHeaders, name: string): string | undefined {
  const value = valuesOf(headers, name);
  return (Array.isArray(value) ? value.join(', ') : value)?.trim() || undefined;
}
