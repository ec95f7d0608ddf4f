import type { Logger } from '../log';
import type { ResourceKindSpec } from './catalog/kindSpecs';
import { parseCollection } from './collection';
import type { ConsoleHttp } from './http';
import { pageRequest, toListPage } from './paging';
import { displayName } from './catalog/resourceCatalog';
import { isRecord, nonBlankText } from '../json';
import { collectionBase, expand, splitQuery, type PathVars } from './catalog/routes';
import type { ListOptions, ListPage, ResourceItem } from './types';

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
