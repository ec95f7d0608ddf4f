/** Console API client (pure core): PAT sign-in, resource catalog, lists, writes, activities. */
export { createConsoleClient } from './client';
export type { ActivityApi, ConsoleClient, ConsoleClientOptions, ConsoleSession, PerformRequest } from './api';
export type { PatProviders } from './auth/session';
export { ResourceCatalog } from './catalog/resourceCatalog';
export { DEFAULT_CATALOG } from './catalog/builtInKinds';
export { RESOURCE_PATHS_SETTING, resolveCatalog } from './catalog/resourceCatalog';
export type * from './catalog/kindSpecs';
export { ActivityFailedError, ActivityStillRunningError, isConsoleError, type ConsoleError } from './errors';
export { CONTRACT_RATE_LIMITS, createConsoleRateLimiter, RATE_HEADROOM, type ConsoleRateLimits } from './rate-limits';
export { FOLLOW_DEFAULTS } from './activities/followActivity';
export { activityIdFromLocation } from './activities/writes';
export type * from './types';
export { PagedList, DEFAULT_MAX_SCAN_PAGES, DEFAULT_PAGE_SIZE, type PagedListOptions, type PageRequestOf, type ScanProgress } from './lists/pagedList';
