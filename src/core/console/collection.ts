import { MalformedResponseError } from '../errors';
import { firstHeader } from '../http/headers';
import type { ResponseHeaders } from '../http/types';
import { isRecord, numOrNumericString } from '../json';

/** A list response before its items are normalised. */
export interface RawPage {
  items: unknown[];
  /** From the envelope's `total`, or `Content-Range: items a-b/N`. */
  total: number | undefined;
  /** HTTP 206. */
  partial: boolean;
  shape: 'array' | 'envelope';
}

const ITEM_KEYS = ['items', 'vms', 'data', 'results'] as const;
const TOTAL_KEYS = ['total', 'totalCount', 'total_count'] as const;

function contentRangeTotal(headers: ResponseHeaders): number | undefined {
  const value = firstHeader(headers, 'content-range');
  const m = value ? /\/\s*(\d+)\s*$/.exec(value) : null;
  return m ? Number(m[1]) : undefined;
}

/**
 * Accepts every list shape seen: a bare array (production, usually unpaged), an envelope
 * `{items|vms|data|results: [...], total?}` (contract, newer endpoints), and 206 for a partial list.
 */
export function parseCollection(body: unknown, status: number, headers: ResponseHeaders, target: string): RawPage {
  const partial = status === 206;
  if (Array.isArray(body)) {
    return { items: body, total: contentRangeTotal(headers), partial, shape: 'array' };
  }
  if (isRecord(body)) {
    const key = ITEM_KEYS.find((k) => Array.isArray(body[k]));
    if (key !== undefined) {
      const total = TOTAL_KEYS.map((k) => numOrNumericString(body[k])).find((n) => n !== undefined);
      return {
        items: body[key] as unknown[],
        total: total ?? contentRangeTotal(headers),
        partial,
        shape: 'envelope',
      };
    }
  }
  throw new MalformedResponseError(`${target} returned a list that is neither an array nor {items: [...]}`);
}
