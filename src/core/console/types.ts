/** Public data types of the console client (what the tree, commands and views consume). */

/** Who the access token belongs to, read from its claims; `expiresAt` is a local estimate. */
export interface SessionInfo {
  /** JWT `scope.id`. */
  tenantId: string | undefined;
  userId: string | undefined;
  companyId: string | undefined;
  expiresAt: Date;
}

/**
 * `signedIn`: a first token, or a token for a different user/tenant (reload the tree).
 * `refreshed`: a new token for the same identity (do NOT reload anything).
 * `signedOut`: `signOut()` was called, the PAT was rejected, or it is no longer stored.
 */
export type SessionEvent =
  | { type: 'signedIn'; session: SessionInfo }
  | { type: 'refreshed'; session: SessionInfo }
  | { type: 'signedOut'; reason: 'signOut' | 'rejected' | 'missing' };

export interface Disposable {
  dispose(): void;
}

/** One resource as listed: the id and display name, and the raw object for details views. */
export interface ResourceItem {
  id: string;
  name: string;
  raw: Readonly<Record<string, unknown>>;
}

export interface ListPage<T> {
  items: T[];
  /** Total matching items on the server, when known. */
  total: number | undefined;
  /** The server marked the answer partial (HTTP 206). */
  partial: boolean;
  /** Offset of the next page; set only when more can be loaded. */
  nextOffset: number | undefined;
  /**
   * The server ignored the name filter and `items` were filtered here: a page may hold no match
   * while later pages do.
   */
  filteredHere?: boolean;
}

export interface ListOptions {
  /** Page size, default 100 (1..1000). */
  limit?: number;
  offset?: number;
  /** Case-insensitive "name contains" filter. */
  name?: string;
  signal?: AbortSignal;
}

export interface ConcernedItem {
  type: string;
  id: string;
}

export type ActivityState =
  | { kind: 'waiting' }
  | { kind: 'running'; status?: string; progression?: number; startDate?: string }
  | { kind: 'completed'; result?: string; startDate?: string; stopDate?: string }
  | { kind: 'failed'; reason?: string; startDate?: string; stopDate?: string };

export interface Activity {
  id: string;
  description: string;
  type: string;
  tenantId: string | undefined;
  creationDate: string | undefined;
  concernedItems: ConcernedItem[];
  state: ActivityState;
  /** The activity as received, for a details view. */
  raw: Readonly<Record<string, unknown>>;
}

export interface FollowOptions {
  signal?: AbortSignal;
  /** Called with the activity whenever its state (kind, status, progression) changes. */
  onUpdate?: (activity: Activity) => void;
  /** First polling delay; the delay grows (Fibonacci) while nothing changes. Default 1000. */
  initialDelayMs?: number;
  /** Polling delay cap. Default 30 000. */
  maxDelayMs?: number;
  /** 404s tolerated before the first successful read (eventual consistency). Default 4. */
  notFoundTries?: number;
  /**
   * Overall deadline: past it, following stops with ActivityStillRunningError (the activity goes
   * on on the server) and a read in flight is aborted. Default: none.
   */
  timeoutMs?: number;
}

/** Result of a write: the activity that tracks it. */
export interface WriteResult {
  activityId: string;
  /** The `Location` header as received. */
  location: string;
}

export interface DeprecationNotice {
  method: string;
  /** The endpoint's path template, e.g. `/api/compute/v1/virtual-machines/{id}`. */
  path: string;
  /** `Deprecation` header value, if sent. */
  deprecation: string | undefined;
  /** `Sunset` header value, if sent. */
  sunset: string | undefined;
  /** Successor (or first) URL of the `Link` header, if sent. */
  link: string | undefined;
}

export interface EndpointInUse {
  /** `console` for `/api/v1/...`. */
  module: string;
  version: number;
  method: string;
  /** Path template, e.g. `/api/activity/v1/activities/{id}`. */
  path: string;
  /** What the client uses it for, e.g. "List virtual machines". */
  purpose: string;
}
