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
import type { ActionSpec, ResourceKind, ResourceKindSpec } from './catalog/kindSpecs';
import { InMemoryPathMemory, type PathMemory } from './catalog/pathMemory';
import { RESOURCE_PATHS_SETTING, type ResourceCatalog } from './catalog/resourceCatalog';
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
import { ConsolePaths, notThisPath } from './consolePaths';
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
  /**
   * Which paths answered per console base URL (contract or production, consolePaths.ts); share one
   * across clients (and persist it) to keep what was found. Default: this client's own memory.
   */
  pathMemory?: PathMemory;
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
  /** The kind with the paths in use now: the contract's until a read found production's (consolePaths.ts). */
  kindInUse(kindId: string): ResourceKind;
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
  const paths = new ConsolePaths(options.catalog, options.resourcePaths, options.baseUrl, options.pathMemory ?? new InMemoryPathMemory(), logger);
  const catalog = paths.catalog;
  const context = new RequestContext();
  const deprecations = new DeprecationWatcher(logger, options.onDeprecation);
  const {
    pat,
    resourcePaths: _paths,
    pathMemory: _memory,
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

  /** A target where the action needs one, an id safe in its path, valid input; whether the id goes in the path. */
  function checkRequest(singular: string, action: ActionSpec, { target, input }: PerformRequest): boolean {
    if (action.target === 'item' && !target) throw new ValidationError(`${action.label} needs a ${singular.toLowerCase()}`, 'target');
    const idInPath = placeholdersOf(action.path).includes('id');
    if (idInPath && target) checkPathId(target.id);
    buildBody(action, input, target, idInPath);
    return idInPath;
  }

  /**
   * One page of a collection, at the path that answered last; when the collection is not there
   * (notThisPath: a 404, 405, 410, a redirect or a 200 that is no list), at the other path of its
   * kind (reads only: a GET probes nothing but its own collection).
   */
  async function list(kindId: string, listOptions: ListOptions): Promise<ListPage<ResourceItem>> {
    const order = paths.readOrder(kindId);
    let firstError: unknown;
    for (const shape of order) {
      const kind = paths.kind(kindId, shape);
      try {
        const page = await listResources(http, kind, await vars(kind.collection, listOptions.signal), listOptions, logger);
        paths.answered(kindId, shape);
        return page;
      } catch (error) {
        const answer = notThisPath(error);
        if (answer === undefined) throw error;
        if (shape === order[order.length - 1]) throw firstError ?? error;
        firstError = error;
        logger.info(`GET ${splitQuery(kind.collection).path} answered ${answer}: trying the ${order[order.indexOf(shape) + 1] ?? ''} path of ${kind.label.plural.toLowerCase()}.`);
      }
    }
    throw firstError;
  }

  /**
   * The kind's paths once a read proved them: a write (or a read of one) never goes to a path no
   * read answered, so when none has yet, the collection is read first (one small page).
   */
  async function provenKind(kindId: string, signal: AbortSignal | undefined): Promise<ResourceKind> {
    if (!paths.proven(kindId)) await list(kindId, { limit: 1, ...(signal ? { signal } : {}) });
    return paths.kind(kindId);
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
    list: (kindId, listOptions = {}) => list(kindId, listOptions),
    async get(kindId, id, getOptions = {}) {
      if (catalog.kind(kindId).item === undefined) throw new ValidationError(`${catalog.kind(kindId).label.plural} cannot be read one by one`, 'kind');
      checkPathId(id);
      const kind = await provenKind(kindId, getOptions.signal);
      if (kind.item === undefined) throw new ValidationError(`${kind.label.plural} cannot be read one by one`, 'kind');
      const item = await getResource(http, { ...kind, item: kind.item }, id, getOptions.signal);
      if (!item) throw new MalformedResponseError(`Reading ${kind.label.singular.toLowerCase()} ${id} returned no object`);
      return item;
    },
    async perform(kindId, actionId, request = {}) {
      const { target, input, signal } = request;
      // Before anything else (input checks, sign-in, the read that proves the path): the request
      // itself, at the paths of either shape.
      checkRequest(catalog.kind(kindId).label.singular, catalog.action(kindId, actionId), request);
      const kind = await provenKind(kindId, signal);
      const action = kind.actions.find((a) => a.id === actionId) ?? catalog.action(kindId, actionId);
      const idInPath = checkRequest(kind.label.singular, action, request);
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
    kindInUse: (kindId) => paths.kind(kindId),
    endpointsInUse: () => endpointsInUse(paths.kindsInUse()),
    transport,
    close: () => transport.close(),
  };
}
