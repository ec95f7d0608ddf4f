/**
 * Writes: sending one and reading its activity id from `Location`, and finding the activity of a
 * write whose outcome is unknown.
 */
import { MalformedResponseError } from '../../errors';
import { firstHeader } from '../../http/headers';
import type { HttpMethod } from '../../http/types';
import type { Logger } from '../../log';
import { pathIdProblem } from '../catalog/routes';
import type { ConsoleHttp } from '../consoleHttp';
import type { WriteResult, Activity, ListOptions, ListPage } from '../types';

/**
 * The activity id in a `Location` header: production sends the bare id, the contract implies a
 * URL; an absolute or relative URL gives its last path segment. The path is read as sent (no URL
 * normalisation, which would turn `activities/%2e%2e` into the parent collection) and the id,
 * decoded, must pass the path-id check: undefined when it does not (a `.`, `..`, empty or
 * separator id is never followed).
 */
export function activityIdFromLocation(location: string): string | undefined {
  const value = location.trim();
  // Drop a scheme and authority, then the query and fragment; what is left is the raw path.
  const path = (value.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').split(/[?#]/)[0] ?? '').replace(/\/+$/, '');
  const last = path.slice(path.lastIndexOf('/') + 1);
  let id: string;
  try {
    id = decodeURIComponent(last);
  } catch {
    id = last;
  }
  return pathIdProblem(id) === undefined ? id : undefined;
}

export interface WriteCall {
  method: Exclude<HttpMethod, 'GET' | 'HEAD'>;
  endpoint: string;
  path: string;
  query?: Readonly<Record<string, string>>;
  json?: unknown;
  signal?: AbortSignal | undefined;
}

/**
 * Sends a write and returns the activity tracking it. The write-safety policy (http/writeSafety.ts)
 * decides what may be resent: only a refusal (429) or a request that provably never left; a 500/503
 * may come after the server created an activity, and a reset or a timeout after sending is
 * reported as OutcomeUnknownError.
 */
export async function performWrite(http: ConsoleHttp, call: WriteCall, logger: Logger): Promise<WriteResult> {
  const res = await http.send({ ...call, write: true });
  res.dispose();
  const location = firstHeader(res.headers, 'location')?.trim();
  const target = `${call.method} ${call.path}`;
  if (res.status !== 201) logger.debug(`${target} answered HTTP ${res.status} (the contract says 201)`);
  if (!location) {
    throw new MalformedResponseError(`${target} answered HTTP ${res.status} without a Location header, so its activity cannot be followed`);
  }
  const activityId = activityIdFromLocation(location);
  if (!activityId) {
    // The write was accepted (its activity exists); only its id is unusable, so it is not followed.
    throw new MalformedResponseError(`${target} answered with a Location header whose activity id cannot be followed safely`);
  }
  return { activityId, location };
}

/**
 * After a write whose outcome is unknown (a reset or a timeout after sending, a 5xx): which recent
 * activity may be that write. The activity list (`GET /api/activity/v1/activities`) gives each
 * activity's creation date, description and concerned items; a write is matched by time (created
 * after the attempt started, with a margin for clock skew) and by what it acted on: the target's id
 * among the concerned items (an item action), or the new resource's name in the description (a
 * create, whose id is not known yet). Nothing else is guessed: no match means "look yourself".
 */

export interface WriteAttempt {
  /** The resource an item action acted on. */
  targetId?: string | undefined;
  /** The name sent in a create (or a rename): found in the activity's description. */
  name?: string | undefined;
  /** When the attempt started (ms since the epoch, the local clock). */
  startedAt: number;
}

/** Margin for a server clock behind ours (and for whole-second creation dates). */
export const CLOCK_SKEW_MS = 5 * 60_000;
/** The newest activities looked at. */
const PAGE = 50;

/** The activity's creation time, range-checked; undefined when absent or not a real date. */
function createdAt(activity: Activity): number | undefined {
  if (activity.creationDate === undefined) return undefined;
  const ms = Date.parse(activity.creationDate);
  // Years 2000 to 2200: anything else is not a date this console wrote.
  return Number.isFinite(ms) && ms >= 946_684_800_000 && ms <= 7_258_118_400_000 ? ms : undefined;
}

/** Whether `activity` may be the write `attempt` (by time and by what it concerns). */
export function mayBeWrite(activity: Activity, attempt: WriteAttempt, now: number): boolean {
  const at = createdAt(activity);
  if (at === undefined || at < attempt.startedAt - CLOCK_SKEW_MS || at > now + CLOCK_SKEW_MS) return false;
  if (attempt.targetId !== undefined) return activity.concernedItems.some((item) => item.id === attempt.targetId);
  const name = attempt.name?.trim();
  return name !== undefined && name !== '' && activity.description.includes(name);
}

/**
 * Recent activities that may be `attempt`, newest first. A failure to list is logged and gives no
 * match: the caller then points to the Activities view.
 */
export async function findWriteActivities(
  list: (options: Omit<ListOptions, 'name'>) => Promise<ListPage<Activity>>,
  attempt: WriteAttempt,
  options: { signal?: AbortSignal | undefined; now?: () => number; logger: Logger },
): Promise<Activity[]> {
  try {
    const page = await list({ limit: PAGE, ...(options.signal ? { signal: options.signal } : {}) });
    const now = (options.now ?? Date.now)();
    return page.items
      .filter((a) => mayBeWrite(a, attempt, now))
      .sort((a, b) => (createdAt(b) ?? 0) - (createdAt(a) ?? 0));
  } catch (error) {
    options.logger.warn(`Could not list recent activities to find the write: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
}
