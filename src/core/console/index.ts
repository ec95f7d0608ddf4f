/** Console API client (pure core): PAT sign-in, resource catalog, lists, writes, activities. */
export { createConsoleClient } from './consoleClient';
export type { ActivityApi, ConsoleClient, ConsoleClientOptions, ConsoleSession, PerformRequest } from './consoleClient';
export { CONTRACT_RATE_LIMITS, createConsoleRateLimiter, RATE_HEADROOM, type ConsoleRateLimits } from './consoleHttp';
export type { PatProviders } from './auth/session';
export type * from './catalog/kindSpecs';
export { DEFAULT_CATALOG } from './catalog/builtInKinds';
export { ResourceCatalog, RESOURCE_PATHS_SETTING, resolveCatalog } from './catalog/resourceCatalog';
export { InMemoryPathMemory, type PathMemory, type PathShape } from './catalog/pathMemory';
export { PRODUCTION_PATHS } from './catalog/productionPaths';
export { PagedList, DEFAULT_MAX_SCAN_PAGES, DEFAULT_PAGE_SIZE, type PagedListOptions, type PageRequestOf, type ScanProgress } from './lists/pagedList';
export { FOLLOW_DEFAULTS } from './activities/followActivity';
export { activityIdFromLocation } from './activities/writes';
export { ActivityFailedError, ActivityStillRunningError, isConsoleError, type ConsoleError } from './errors';
export type * from './types';
