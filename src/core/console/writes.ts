import { MalformedResponseError } from '../errors';
import { firstHeader } from '../http/headers';
import type { HttpMethod } from '../http/types';
import type { Logger } from '../log';
import type { ConsoleHttp } from './http';
import { pathIdProblem } from './catalog/routes';
import type { WriteResult } from './types';

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
