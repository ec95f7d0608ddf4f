import { sendJson, type RequestContext } from '../core/http';
import type { SandboxState } from '../state';
import { sendConsoleError } from './errors';

export const DEFAULT_PAGE = 100;
export const MAX_PAGE = 1000;

/**
 * Lists, per profile:
 * - contract: `{"items": [...], "total": N}`; query `limit` (1..1000, default 100), `offset`
 *   (>= 0, default 0) and `name` (case-insensitive "contains" filter); `total` counts the
 *   filtered items. Bad `limit`/`offset`: 400.
 * - production: a bare JSON array. Same `name` filter; `limit`/`offset` honoured when given, and
 *   at most 1000 items are returned. When the array does not hold every matching item the status
 *   is 206 with `Content-Range: items <first>-<last>/<total>`. With `productionLists: 'plain'`:
 *   `name` is ignored and every answer is 200 with a bare array, whether or not more follow.
 */
export function sendList<T>(state: SandboxState, ctx: RequestContext, all: Iterable<T>, view: (item: T) => Record<string, unknown>, nameOf: (item: T) => string): void {
  const params = ctx.url.searchParams;
  const name = params.get('name');
  const plain = state.profile === 'production' && state.options.productionLists === 'plain';
  const needle = plain ? undefined : name?.toLowerCase();
  const filtered: T[] = [];
  for (const item of all) if (needle === undefined || nameOf(item).toLowerCase().includes(needle)) filtered.push(item);

  const number = (key: string, fallback: number, min: number, max: number): number | 'bad' => {
    const raw = params.get(key);
    if (raw === null || raw === '') return fallback;
    const value = Number(raw);
    return Number.isInteger(value) && value >= min && value <= max ? value : 'bad';
  };
  const production = state.profile === 'production';
  const limit = number('limit', production ? MAX_PAGE : DEFAULT_PAGE, 1, MAX_PAGE);
  if (limit === 'bad') return sendConsoleError(ctx, 400, `'limit' must be an integer between 1 and ${MAX_PAGE}.`);
  const offset = number('offset', 0, 0, Number.MAX_SAFE_INTEGER);
  if (offset === 'bad') return sendConsoleError(ctx, 400, `'offset' must be an integer >= 0.`);
  const page = filtered.slice(offset, offset + limit).map(view);
  if (!production) {
    sendJson(ctx, 200, { items: page, total: filtered.length });
    return;
  }
  if (plain || page.length === filtered.length) {
    sendJson(ctx, 200, page);
    return;
  }
  const range = page.length === 0 ? `items */${filtered.length}` : `items ${offset}-${offset + page.length - 1}/${filtered.length}`;
  sendJson(ctx, 206, page, { 'Content-Range': range });
}
