import { ActivityEngine } from './console/activities';
import { ConsoleAuth, type Identity } from './console/auth';
import { ConsoleRateLimiter, DEFAULT_CONSOLE_LIMITS } from './console/rateLimit';
import { ConsoleStore } from './console/store';
import { Clock, type SandboxTimers } from './core/clock';
import { FaultState } from './core/faults';
import { GatewayMode, type GatewaySpec } from './core/gateway';
import { uuidFrom } from './core/ids';
import { MAX_STRING, Redactor, RequestLog } from './core/requestLog';
import { ALL_SECRETS } from './credentials';
import { CompletionStreamLog } from './inference/completionLog';
import { OutputTokenMeter, TIER_1 } from './inference/meter';
import type { ConsolePathsMode, UnroutedConsoleAnswer } from './console/productionPaths';
import type { ConsoleRateLimits, SandboxOptions, SandboxProfile, Tier } from './types';
import { PromptCache } from './inference/promptCache';
import { BatchStore, type BatchAvailability } from './inference/batches';

export interface ResolvedOptions {
  host: string;
  port: number;
  profile: SandboxProfile;
  jwtLifetimeSeconds: number;
  activityStepMs: number;
  tier: Tier;
  vmCount: number;
  userCount: number;
  networkCount: number;
  consoleRateLimits: ConsoleRateLimits | false;
  chunkDelayMs: number;
  productionLists: 'ranged' | 'plain';
  consolePaths: ConsolePathsMode;
  unroutedConsolePaths: UnroutedConsoleAnswer;
  timers: SandboxTimers | undefined;
  gateway: GatewaySpec | null;
  batchAvailable: BatchAvailability;
  batchStepMs: number;
}

export function resolveOptions(options: SandboxOptions = {}): ResolvedOptions {
  return {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    profile: options.profile ?? 'contract',
    jwtLifetimeSeconds: options.jwtLifetimeSeconds ?? 300,
    activityStepMs: options.activityStepMs ?? 1000,
    tier: { ...(options.tier ?? TIER_1) },
    vmCount: options.vmCount ?? 25,
    userCount: options.userCount ?? 12,
    networkCount: options.networkCount ?? 8,
    consoleRateLimits: options.consoleRateLimits === false ? false : { ...DEFAULT_CONSOLE_LIMITS, ...(options.consoleRateLimits ?? {}) },
    chunkDelayMs: options.chunkDelayMs ?? 0,
    productionLists: options.productionLists ?? 'ranged',
    consolePaths: options.consolePaths ?? 'all',
    unroutedConsolePaths: options.unroutedConsolePaths ?? 'notFound',
    timers: options.timers,
    gateway: options.gateway ?? null,
    batchAvailable: options.batch ?? 'available',
    batchStepMs: options.batchStepMs ?? 60_000,
  };
}

/** Everything the sandbox knows, shared by the routers and the control surface. */
export class SandboxState {
  readonly profile: SandboxProfile;
  readonly clock: Clock;
  readonly faults = new FaultState();
  readonly log = new RequestLog(new Redactor(ALL_SECRETS));
  /** Streamed answers to code-completion prompts (tokens streamed before a client abort). */
  readonly completions = new CompletionStreamLog();
  readonly identity: Identity = {
    tenantId: uuidFrom('sandbox:tenant'),
    companyId: uuidFrom('sandbox:company'),
    userId: uuidFrom('sandbox:user:demo'),
    readOnlyUserId: uuidFrom('sandbox:user:readonly'),
  };
  readonly meter: OutputTokenMeter;
  readonly promptCache = new PromptCache();
  readonly auth: ConsoleAuth;
  readonly store: ConsoleStore;
  readonly activities: ActivityEngine;
  readonly limiter: ConsoleRateLimiter;
  /** Which console resource paths are served (console/productionPaths.ts); reset restores the option. */
  consolePaths: ConsolePathsMode;
  /** What a console path no route serves answers; reset restores the option. */
  unroutedConsolePaths: UnroutedConsoleAnswer;
  readonly gateway: GatewayMode;
  /** Files and batches of the Batch API (inference/batches.ts). */
  readonly batches: BatchStore;
  /** Set while closing, so sockets destroyed by close() are not reported as client aborts. */
  closing = false;
  private counter = 0;

  constructor(readonly options: ResolvedOptions) {
    this.profile = options.profile;
    this.consolePaths = options.consolePaths;
    this.unroutedConsolePaths = options.unroutedConsolePaths;
    this.clock = new Clock(options.timers);
    this.meter = new OutputTokenMeter(this.clock, { ...options.tier });
    this.auth = new ConsoleAuth(this.clock, options.jwtLifetimeSeconds, this.identity);
    this.store = new ConsoleStore(this.identity);
    this.store.seed({ vms: options.vmCount, users: options.userCount, networks: options.networkCount });
    this.activities = new ActivityEngine(this.clock, options.activityStepMs, options.profile);
    this.limiter = new ConsoleRateLimiter(this.clock, options.consoleRateLimits);
    this.gateway = new GatewayMode(options.gateway);
    this.batches = new BatchStore(this, { available: options.batchAvailable, stepMs: options.batchStepMs });
  }

  /** A per-request sequence number (response ids). */
  nextSeq(): number {
    this.counter += 1;
    return this.counter;
  }

  reset(): void {
    this.faults.reset();
    this.consolePaths = this.options.consolePaths;
    this.unroutedConsolePaths = this.options.unroutedConsolePaths;
    this.clock.resetOffset();
    this.meter.reset({ ...this.options.tier });
    this.activities.reset();
    this.limiter.reset(this.options.consoleRateLimits);
    this.store.seed({ vms: this.options.vmCount, users: this.options.userCount, networks: this.options.networkCount });
    this.log.clear();
    this.log.redactor.maxString = MAX_STRING;
    this.completions.clear();
    this.promptCache.clear();
    this.gateway.reset();
    this.batches.reset();
  }
}
