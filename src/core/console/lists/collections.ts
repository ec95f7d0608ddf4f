/**
 * Reading collections: every list shape (bare array, envelope, 206), paging and filtering
 * (also when the server ignores the query), and listing or reading resources of a kind.
 */
import { MalformedResponseError, ValidationError } from '../../errors';
import { firstHeader } from '../../http/headers';
import type { ResponseHeaders } from '../../http/types';
import { nonBlankText, isRecord, numOrNumericString } from '../../json';
import type { Logger } from '../../log';
import type { ResourceKindSpec } from '../catalog/kindSpecs';
import { displayName } from '../catalog/resourceCatalog';
import { collectionBase, expand, splitQuery, type PathVars } from '../catalog/routes';
import type { ConsoleHttp } from '../consoleHttp';
import { HtmlInsteadOfListError } from '../errors';
import type { ListOptions, ResourceItem, ListPage } from '../types';

/** `{id, name, raw}` of one listed object; undefined (skipped) when it has no usable id. */
export function toResourceItem(kind: Pick<ResourceKindSpec, 'presentation'>, raw: unknown, fallbackId?: string): ResourceItem | undefined {
  if (!isRecord(raw)) return undefined;
  const id = nonBlankText(raw.id) ?? nonBlankText(raw.uuid) ?? fallbackId;
  if (id === undefined) return undefined;
  return { id, name: displayName(kind, raw, id), raw };
}

/** Normalises a page of raw objects, logging (once per page) how many were unusable. */
export function toResourceItems(kind: ResourceKindSpec, raws: readonly unknown[], logger: Logger, where: string): ResourceItem[] {
  const items: ResourceItem[] = [];
  let skipped = 0;
  for (const raw of raws) {
    const item = toResourceItem(kind, raw);
    if (item) items.push(item);
    else skipped++;
  }
  if (skipped > 0) logger.warn(`${where}: skipped ${skipped} item(s) without an id`);
  return items;
}

/** One page of a collection (`limit`/`offset`/`name` query parameters). */
export async function listResources(
  http: ConsoleHttp,
  kind: ResourceKindSpec,
  vars: PathVars,
  options: ListOptions,
  logger: Logger,
): Promise<ListPage<ResourceItem>> {
  const req = pageRequest(options);
  const { path, query } = splitQuery(expand(kind.collection, vars));
  const res = await http.send({
    method: 'GET',
    endpoint: collectionBase(kind),
    path,
    query: { ...query, limit: req.limit, offset: req.offset, name: options.name?.trim() || undefined },
    signal: options.signal,
  });
  const where = `GET ${path}`;
  // A web page where the list should be: a gateway's fallback route, not the console's collection.
  if (/\btext\/html\b/i.test(firstHeader(res.headers, 'content-type') ?? '')) throw new HtmlInsteadOfListError(`${where} answered ${res.status} with a web page, not a list`);
  const raw = parseCollection(await res.json(), res.status, res.headers, where);
  const items = toResourceItems(kind, raw.items, logger, where);
  return toListPage(raw, items, req, (item) => item.name);
}

/** One resource by id, through the kind's read-one template. */
export async function getResource(
  http: ConsoleHttp,
  kind: ResourceKindSpec & { item: string },
  id: string,
  signal: AbortSignal | undefined,
): Promise<ResourceItem | undefined> {
  const { path, query } = splitQuery(expand(kind.item, { collection: collectionBase(kind), id }));
  const endpoint = splitQuery(kind.item.replace('{collection}', collectionBase(kind))).path;
  const res = await http.send({ method: 'GET', endpoint, path, query, signal });
  return toResourceItem(kind, await res.json(), id);
}

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

/** A collection size as sent: a whole number from 0 up; anything else (-1, 2.5, 1e400) is no total. */
function total(value: number | undefined): number | undefined {
  return value !== undefined && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

function contentRangeTotal(headers: ResponseHeaders): number | undefined {
  const value = firstHeader(headers, 'content-range');
  const m = value ? /\/\s*(\d+)\s*$/.exec(value) : null;
  return m ? total(Number(m[1])) : undefined;
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
      const sent = TOTAL_KEYS.map((k) => total(numOrNumericString(body[k]))).find((n) => n !== undefined);
      return {
        items: body[key] as unknown[],
        total: sent ?? contentRangeTotal(headers),
        partial,
        shape: 'envelope',
      };
    }
  }
  throw new MalformedResponseError(`${target} returned a list that is neither an array nor {items: [...]}`);
}

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
