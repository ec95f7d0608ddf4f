/**
 * Reading activities: one by id, the recent list, and the normalised form of their states.
 */
import { MalformedResponseError } from '../../errors';
import { numOrNumericString, type JsonRecord, isRecord, nonBlankText } from '../../json';
import type { Logger } from '../../log';
import { ACTIVITIES_PATH, ACTIVITY_PATH, expand } from '../catalog/routes';
import type { ConsoleHttp } from '../consoleHttp';
import { parseCollection, pageRequest, toListPage } from '../lists/collections';
import type { ActivityState, Activity, ConcernedItem, ListOptions, ListPage } from '../types';

type Kind = ActivityState['kind'];

// Names seen for the four states, and close synonyms, so a renamed state never hangs a follower.
const NAMES: Readonly<Record<string, Kind>> = {
  waiting: 'waiting',
  pending: 'waiting',
  queued: 'waiting',
  running: 'running',
  inprogress: 'running',
  in_progress: 'running',
  completed: 'completed',
  succeeded: 'completed',
  success: 'completed',
  done: 'completed',
  failed: 'failed',
  error: 'failed',
  cancelled: 'failed',
  canceled: 'failed',
};

function kindOf(name: unknown): Kind | undefined {
  if (typeof name !== 'string') return undefined;
  const key = name.trim().toLowerCase();
  // Own keys only: `constructor` or `tostring` must not find Object.prototype's functions.
  return Object.hasOwn(NAMES, key) ? NAMES[key] : undefined;
}

/** Builds the normalised state from the fields of its form, omitting absent ones. */
function build(kind: Kind, f: JsonRecord): ActivityState {
  const pick = <T extends object>(obj: T): T =>
    Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
  switch (kind) {
    case 'waiting':
      return { kind };
    case 'running':
      return pick({ kind, status: nonBlankText(f.status), progression: numOrNumericString(f.progression ?? f.progress), startDate: nonBlankText(f.startDate) });
    case 'completed':
      return pick({ kind, result: nonBlankText(f.result), startDate: nonBlankText(f.startDate), stopDate: nonBlankText(f.stopDate) });
    case 'failed':
      return pick({ kind, reason: nonBlankText(f.reason ?? f.error ?? f.message), startDate: nonBlankText(f.startDate), stopDate: nonBlankText(f.stopDate) });
  }
}

/**
 * Reads an activity `state` in any of the forms met:
 * - keyed by the state name, exactly one key (field-notes.md): `{"running": {"progression": 40}}`;
 * - discriminated: `{"name"|"state"|"kind": "running", ...}`, or a bare string `"running"` with the
 *   fields on `holder` (the activity);
 * - flat, told apart by its fields (the contract's table; the sandbox's contract profile):
 *   `result` -> completed, `reason` -> failed, `status`/`progression`/`startDate` -> running, `{}` ->
 *   waiting. A `status` that is exactly one of the four state names wins over the field test
 *   (synonyms are not trusted there: a running state's `status` is free text).
 * Anything else is treated as running (not terminal), so following continues rather than crashing.
 */
export function normaliseState(raw: unknown, holder: JsonRecord = {}): ActivityState {
  if (typeof raw === 'string') return build(kindOf(raw) ?? 'running', holder);
  if (!isRecord(raw)) return { kind: 'waiting' };
  const keys = Object.keys(raw);
  if (keys.length === 1) {
    const key = keys[0] ?? '';
    const kind = kindOf(key);
    const value = raw[key];
    if (kind && (isRecord(value) || value === null)) return build(kind, isRecord(value) ? value : {});
  }
  for (const field of ['name', 'state', 'kind']) {
    const kind = kindOf(raw[field]);
    if (kind) return build(kind, raw);
  }
  if (raw.result !== undefined && raw.result !== null) return build('completed', raw);
  if (raw.reason !== undefined && raw.reason !== null) return build('failed', raw);
  const status = typeof raw.status === 'string' ? raw.status.trim().toLowerCase() : undefined;
  if (status === 'waiting' || status === 'running' || status === 'completed' || status === 'failed') {
    return build(status, raw);
  }
  if (keys.length === 0) return { kind: 'waiting' };
  return build('running', raw);
}

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
