import { MalformedResponseError } from '../errors';
import type { Logger } from '../log';
import { normaliseState } from './activity-state';
import { parseCollection } from './lists/collections';
import type { ConsoleHttp } from './http';
import { pageRequest, toListPage } from './lists/collections';
import { isRecord, nonBlankText } from '../json';
import { ACTIVITIES_PATH, ACTIVITY_PATH, expand } from './catalog/routes';
import type { Activity, ConcernedItem, ListOptions, ListPage } from './types';

const FLAT_STATE_FIELDS = ['status', 'progression', 'startDate', 'stopDate', 'result', 'reason'] as const;

function concernedItems(value: unknown): ConcernedItem[] {
  if (!Array.isArray(value)) return [];
  const items: ConcernedItem[] = [];
  for (const entry of value) {
    const id = isRecord(entry) ? nonBlankText(entry.id) : undefined;
    if (isRecord(entry) && id !== undefined) items.push({ type: nonBlankText(entry.type) ?? '', id });
  }
  return items;
}

/** Normalises an activity; undefined when it is not an object or has no id. */
export function toActivity(raw: unknown, fallbackId?: string): Activity | undefined {
  if (!isRecord(raw)) return undefined;
  const id = nonBlankText(raw.id) ?? fallbackId;
  if (id === undefined) return undefined;
  // Without a `state` field, a state may still be spread over the activity itself.
  const flat = Object.fromEntries(FLAT_STATE_FIELDS.filter((f) => raw[f] !== undefined).map((f) => [f, raw[f]]));
  return {
    id,
    description: nonBlankText(raw.description) ?? '',
    type: nonBlankText(raw.type) ?? '',
    tenantId: nonBlankText(raw.tenantId),
    creationDate: nonBlankText(raw.creationDate) ?? nonBlankText(raw.createdAt),
    concernedItems: concernedItems(raw.concernedItems),
    state: raw.state === undefined ? normaliseState(flat) : normaliseState(raw.state, raw),
    raw,
  };
}

export async function getActivity(http: ConsoleHttp, id: string, signal?: AbortSignal): Promise<Activity> {
  const path = expand(ACTIVITY_PATH, { id });
  const res = await http.send({ method: 'GET', endpoint: ACTIVITY_PATH, path, signal });
  const activity = toActivity(await res.json(), id);
  if (!activity) throw new MalformedResponseError(`GET ${path} returned something that is not an activity`);
  return activity;
}

/** Recent activities: a bare array (production) or an envelope; newest first as the server sends. */
export async function listActivities(
  http: ConsoleHttp,
  options: Omit<ListOptions, 'name'>,
  logger: Logger,
): Promise<ListPage<Activity>> {
  const req = pageRequest(options);
  const res = await http.send({
    method: 'GET',
    endpoint: ACTIVITIES_PATH,
    path: ACTIVITIES_PATH,
    query: { limit: req.limit, offset: req.offset },
    signal: options.signal,
  });
  const raw = parseCollection(await res.json(), res.status, res.headers, `GET ${ACTIVITIES_PATH}`);
  const items: Activity[] = [];
  for (const entry of raw.items) {
    const activity = toActivity(entry);
    if (activity) items.push(activity);
  }
  if (items.length < raw.items.length) {
    logger.warn(`GET ${ACTIVITIES_PATH}: skipped ${raw.items.length - items.length} activity(ies) without an id`);
  }
  return toListPage(raw, items, req, (a) => a.description);
}
