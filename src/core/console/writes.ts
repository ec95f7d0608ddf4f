import { MalformedResponseError } from '../errors';
import type { HttpMethod } from '../http/types';
import type { Logger } from '../log';
import type { ConsoleHttp } from './http';
import type { WriteResult } from './types';

/**
 * The activity id in a `Location` header: production sends the bare id, the contract implies a
 * URL; an absolute or relative URL gives its last path segment.
 */
export function activityIdFromLocation(location: string): string | undefined {
  const value = location.trim();
  let path = value;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    try {
      path = new URL(value).pathname;
    } catch {
      return undefined;
    }
  } else {
    path = value.split(/[?#]/)[0] ?? '';
  }
  const last = path.split('/').filter((s) => s !== '').pop();
  if (last === undefined) return undefined;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
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
 * Sends a write and returns the activity tracking it. Only 429 is retried: the contract's 500/503
 * may come after the server created an activity, and a resent create would create twice.
 */
export async function performWrite(http: ConsoleHttp, call: WriteCall, logger: Logger): Promise<WriteResult> {
  const res = await http.send({ ...call, retry: { statuses: [429] } });
  res.dispose();
  const header = res.headers.location;
  const location = (Array.isArray(header) ? header[0] : header)?.trim();
  const target = `${call.method} ${call.path}`;
  if (res.status !== 201) logger.debug(`${target} answered HTTP ${res.status} (the contract says 201)`);
  if (!location) {
    throw new MalformedResponseError(`${target} answered HTTP ${res.status} without a Location header, so its activity cannot be followed`);
  }
  const activityId = activityIdFromLocation(location);
  if (!activityId) throw new MalformedResponseError(`${target} answered with an unusable Location header`);
  return { activityId, location };
}
