import type { RateLimiter } from '../http/rateLimiter';
import type { HttpTransport } from '../http/transport';
import type { TransportOptions } from '../http/types';
import type { PatProviders } from './auth/session';
import type { ResourceKindSpec } from './catalog/kindSpecs';
import type { ConsoleRateLimits } from './rate-limits';
import type { ResourceCatalog } from './catalog/resourceCatalog';
import type {
  Activity,
  DeprecationNotice,
  Disposable,
  EndpointInUse,
  FollowOptions,
  ListOptions,
  ListPage,
  ResourceItem,
  SessionEvent,
  SessionInfo,
  WriteResult,
} from './types';

/** The console client's public surface (implemented by client.ts). */

export interface ConsoleClientOptions
  extends Omit<TransportOptions, 'auth' | 'secretName' | 'onUnauthorized' | 'rateLimiter'> {
  /** The PAT's id and secret, read from the secret store on each exchange. */
  pat: PatProviders;
  /** The catalog to start from (default: the built-in one); `resourcePaths` applies on top. */
  catalog?: readonly ResourceKindSpec[];
  /** The `stratus.console.resourcePaths` setting; invalid values throw a ValidationError here. */
  resourcePaths?: unknown;
  /** Called once per endpoint per client when a response carries Deprecation or Sunset. */
  onDeprecation?: (notice: DeprecationNotice) => void;
  /** Server limits to stay under (default 25 r/s per module, 5 r/s for the PAT exchange). */
  rateLimits?: Partial<ConsoleRateLimits>;
  /** Share one limiter between clients (the server counts per source IP). Wins over rateLimits. */
  rateLimiter?: RateLimiter;
  /** Refresh the access token this long before `exp` (at most half its lifetime). Default 30 s. */
  refreshMarginMs?: number;
  /** Defaults for `activities.follow`. */
  follow?: Pick<FollowOptions, 'initialDelayMs' | 'maxDelayMs' | 'notFoundTries' | 'timeoutMs'>;
  /** Clock of the access token's refresh and expiry (ms since the epoch), for tests. Default Date.now. */
  now?: () => number;
}

export interface ConsoleSession {
  /** Tenant, user and company of the signed-in PAT, and when the current token expires. */
  readonly session: SessionInfo | undefined;
  /** Exchanges the stored PAT now (also after a rejection); rejects with AuthError if refused. */
  signIn(signal?: AbortSignal): Promise<SessionInfo>;
  /** Forgets the access token; the caller deletes the stored PAT. */
  signOut(): void;
  onDidChangeSession(listener: (event: SessionEvent) => void): Disposable;
}

export interface ActivityApi {
  get(id: string, options?: { signal?: AbortSignal }): Promise<Activity>;
  list(options?: Omit<ListOptions, 'name'>): Promise<ListPage<Activity>>;
  /** Resolves with the completed activity; rejects with ActivityFailedError, CancelledError, ... */
  follow(id: string, options?: FollowOptions): Promise<Activity>;
}

export interface PerformRequest {
  /** The resource an item action acts on. */
  target?: ResourceItem;
  /** Values keyed by the action's input field keys. */
  input?: Readonly<Record<string, unknown>>;
  signal?: AbortSignal;
}

export interface ConsoleClient {
  readonly auth: ConsoleSession;
  readonly catalog: ResourceCatalog;
  /** One page of a collection. */
  list(kindId: string, options?: ListOptions): Promise<ListPage<ResourceItem>>;
  /** One resource by id (kinds with a read-one endpoint). */
  get(kindId: string, id: string, options?: { signal?: AbortSignal }): Promise<ResourceItem>;
  /** Runs a catalog action (create, modify, delete, powerOn, ...); resolves with its activity id. */
  perform(kindId: string, actionId: string, request?: PerformRequest): Promise<WriteResult>;
  readonly activities: ActivityApi;
  /** Every module, version, method and path this client depends on. */
  endpointsInUse(): EndpointInUse[];
  readonly transport: HttpTransport;
  /** Releases pooled connections. */
  close(): Promise<void>;
}
