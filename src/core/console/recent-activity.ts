/**
 * After a write whose outcome is unknown (a reset or a timeout after sending, a 5xx): which recent
 * activity may be that write. The activity list (`GET /api/activity/v1/activities`) gives each
 * activity's creation date, description and concerned items; a write is matched by time (created
 * after the attempt started, with a margin for clock skew) and by what it acted on: the target's id
 * among the concerned items (an item action), or the new resource's name in the description (a
 * create, whose id is not known yet). Nothing else is guessed: no match means "look yourself".
 */
import type { Logger } from '../log';
import type { Activity, ListOptions, ListPage } from './types';

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
