import { ValidationError } from '../errors';
import type { RawPage } from './collection';
import type { ListPage } from './types';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

export interface PageRequest {
  limit: number;
  offset: number;
  /** Lower-cased "name contains" needle, if any. */
  needle: string | undefined;
}

export function pageRequest(options: { limit?: number; offset?: number; name?: string }): PageRequest {
  const limit = options.limit ?? DEFAULT_LIMIT;
  const offset = options.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new ValidationError(`limit must be a whole number between 1 and ${MAX_LIMIT}`, 'limit');
  }
  if (!Number.isInteger(offset) || offset < 0) throw new ValidationError('offset must be a whole number >= 0', 'offset');
  const needle = options.name?.trim().toLowerCase() || undefined;
  return { limit, offset, needle };
}

/**
 * Turns a server page into what the tree shows. Servers that ignore the query (production's bare
 * arrays) are detected — more items than `limit`, or names that do not match the filter — and the
 * filter and paging are then applied here. Offsets advance by what the server returned, including
 * items we skipped as unusable, so nothing is fetched twice. Without a total, a page as long as
 * the limit asked for is taken to have more behind it (production answers a full page of a paged
 * list as a bare array with 200 and no total).
 */
export function toListPage<T>(raw: RawPage, items: T[], req: PageRequest, nameOf: (item: T) => string): ListPage<T> {
  const needle = req.needle;
  const filterIgnored = needle !== undefined && items.some((i) => !nameOf(i).toLowerCase().includes(needle));
  const matching = filterIgnored ? items.filter((i) => nameOf(i).toLowerCase().includes(needle)) : items;
  const returned = raw.items.length;

  if (returned > req.limit) {
    // The whole collection came back: page it here.
    const page = matching.slice(req.offset, req.offset + req.limit);
    const end = req.offset + page.length;
    return { items: page, total: matching.length, partial: raw.partial, nextOffset: end < matching.length ? end : undefined, filteredHere: needle !== undefined };
  }

  const end = req.offset + returned;
  let total = filterIgnored ? undefined : raw.total;
  let more: boolean;
  if (returned === 0) more = false;
  else if (raw.total !== undefined) more = end < raw.total;
  else {
    // No total (a bare array with 200, or an envelope without one): a full page may have more
    // behind it, a short page is the end. A full last page costs one more (empty) request.
    more = raw.partial || returned >= req.limit;
    if (!more && !filterIgnored) total = end;
    else if (!more && req.offset === 0) total = matching.length;
  }
  return { items: matching, total, partial: raw.partial, nextOffset: more ? end : undefined, filteredHere: filterIgnored };
}
