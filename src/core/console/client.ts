import { MalformedResponseError, ValidationError } from '../errors';
import { createTransport } from '../http/transport';
import { silentLogger } from '../log';
import { getActivity, listActivities } from './activities/readActivities';
import type { ConsoleClient, ConsoleClientOptions } from './api';
import { ConsoleAuth } from './auth/session';
import { RESOURCE_PATHS_SETTING, resolveCatalog, ResourceCatalog } from './catalog/resourceCatalog';
import { DeprecationWatcher } from './deprecation';
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
import { exchangePat } from './auth/accessToken';
import { followActivity } from './activities/followActivity';
import { ConsoleHttp } from './http';
import { buildBody } from './catalog/actionInputs';
import { getResource, listResources } from './lists/collections';
import { createConsoleRateLimiter } from './rate-limits';
import { RequestContext } from './request-context';
import { performWrite } from './activities/writes';

const DEFAULT_RETRY = { attempts: 4, statuses: [429, 500, 503] };

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
  // async context (request-context.ts), which says which token that request sent. (`session` is
  // declared below: these hooks only run once a request is made.)
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
