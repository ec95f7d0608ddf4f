/**
 * The console client: its public surface (ConsoleClient and its options) and createConsoleClient.
 */
import { MalformedResponseError, ValidationError } from '../errors';
import type { RateLimiter } from '../http/rateLimiter';
import { createTransport, type HttpTransport } from '../http/transport';
import type { TransportOptions } from '../http/types';
import { silentLogger } from '../log';
import { followActivity } from './activities/followActivity';
import { getActivity, listActivities } from './activities/readActivities';
import { performWrite } from './activities/writes';
import { exchangePat } from './auth/accessToken';
import { ConsoleAuth, type PatProviders } from './auth/session';
import { buildBody } from './catalog/actionInputs';
import type { ResourceKindSpec } from './catalog/kindSpecs';
import { RESOURCE_PATHS_SETTING, resolveCatalog, ResourceCatalog } from './catalog/resourceCatalog';
import {
  endpointPath,
  endpointsInUse,
  checkPathId,
  collectionBase,
  expand,
  needsSession,
  placeholdersOf,
  SESSION_PLACEHOLDERS,
  splitQuery,
  type PathVars,
} from './catalog/routes';
import { DeprecationWatcher, ConsoleHttp, createConsoleRateLimiter, RequestContext, type ConsoleRateLimits } from './consoleHttp';
import { getResource, listResources } from './lists/collections';
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

// The console client's public surface.

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

const DEFAULT_RETRY = { attempts: 4, statuses: [429, 500, 502, 503, 504] };

/** Builds the console client; nothing is loaded or sent until the first call. */
export function createConsoleClient(options: ConsoleClientOptions): ConsoleClient {
  const logger = options.logger ?? silentLogger;
  const catalog = new ResourceCatalog(resolveCatalog(options.resourcePaths, options.catalog));
  const context = new RequestContext();
  const deprecations = new DeprecationWatcher(logger, options.onDeprecation);
  const {
    pat,
    resourcePaths: _paths,
    catalog: _catalog,
    onDeprecation: _onDeprecation,
    rateLimits,
    rateLimiter,
    refreshMarginMs,
    follow: followDefaults,
    now,
    ...transportOptions
  } = options;

  // The transport asks for a token per attempt and reports 401s; both run inside the request's
  // async context (RequestContext in consoleHttp.ts), which says which token that request sent.
  // (`session` is declared below: these hooks only run once a request is made.)
  const transport = createTransport({
    baseUrlParam: 'stratus.console.baseUrl',
    tokenSlot: 'consoleAccessToken',
    ...transportOptions,
    retry: { ...DEFAULT_RETRY, ...options.retry },
    secretName: 'console access token',
    rateLimiter: rateLimiter ?? createConsoleRateLimiter(rateLimits),
    auth: async () => {
      const state = context.current();
      const token = await session.token(state?.signal);
      if (state) state.token = token;
      return token;
    },
    onUnauthorized: () => {
      session.invalidate(context.current()?.token);
      return Promise.resolve(true);
    },
  });
  const http = new ConsoleHttp(transport, context, deprecations);
  const session = new ConsoleAuth({
    pat,
    logger,
    refreshMarginMs,
    ...(now ? { now } : {}),
    exchange: (p) => exchangePat(http, p),
    registerSecret: (secret) => transport.registerSecret(secret),
    registerToken: (jwt) => transport.registerToken(jwt),
  });

  async function vars(template: string, signal: AbortSignal | undefined): Promise<PathVars> {
    if (!needsSession(template)) return {};
    await session.token(signal);
    const info = session.session;
    const out: PathVars = { tenantId: info?.tenantId, userId: info?.userId, companyId: info?.companyId };
    for (const name of placeholdersOf(template)) {
      if ((SESSION_PLACEHOLDERS as readonly string[]).includes(name) && out[name as keyof PathVars] === undefined) {
        throw new ValidationError(`The access token has no ${name} claim, needed by ${template}`, RESOURCE_PATHS_SETTING);
      }
    }
    return out;
  }

  return {
    auth: {
      get session() {
        return session.session;
      },
      signIn: (signal) => session.signIn(signal),
      signOut: () => session.signOut(),
      onDidChangeSession: (listener) => session.onDidChangeSession(listener),
    },
    catalog,
    async list(kindId, listOptions = {}) {
      const kind = catalog.kind(kindId);
      return listResources(http, kind, await vars(kind.collection, listOptions.signal), listOptions, logger);
    },
    async get(kindId, id, getOptions = {}) {
      const kind = catalog.kind(kindId);
      if (kind.item === undefined) throw new ValidationError(`${kind.label.plural} cannot be read one by one`, 'kind');
      const item = await getResource(http, { ...kind, item: kind.item }, id, getOptions.signal);
      if (!item) throw new MalformedResponseError(`Reading ${kind.label.singular.toLowerCase()} ${id} returned no object`);
      return item;
    },
    async perform(kindId, actionId, request = {}) {
      const kind = catalog.kind(kindId);
      const action = catalog.action(kindId, actionId);
      const { target, input, signal } = request;
      if (action.target === 'item' && !target) {
        throw new ValidationError(`${action.label} needs a ${kind.label.singular.toLowerCase()}`, 'target');
      }
      const idInPath = placeholdersOf(action.path).includes('id');
      // Before anything else (input checks, sign-in): an id that would leave its collection.
      if (idInPath && target) checkPathId(target.id);
      const json = buildBody(action, input, target, idInPath);
      const expanded = expand(action.path, {
        ...(await vars(action.path, signal)),
        collection: collectionBase(kind),
        id: target?.id,
      });
      const { path, query } = splitQuery(expanded);
      return performWrite(
        http,
        { method: action.method, endpoint: endpointPath(kind, action.path), path, query, json, signal },
        logger,
      );
    },
    activities: {
      get: (id, getOptions = {}) => getActivity(http, id, getOptions.signal),
      list: (listOptions = {}) => listActivities(http, listOptions, logger),
      follow: (id, followOptions = {}) =>
        followActivity((activityId, signal) => getActivity(http, activityId, signal), id, { ...followDefaults, ...followOptions }, logger),
    },
    endpointsInUse: () => endpointsInUse(catalog.kinds),
    transport,
    close: () => transport.close(),
  };
}
