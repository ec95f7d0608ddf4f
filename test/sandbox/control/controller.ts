import type { SandboxState } from '../state';
import type { GatewaySpec } from '../core/gateway';
import { UNROUTED_CONSOLE_ANSWERS } from '../console/productionPaths';
import type { BatchModeSpec } from '../inference/batches';
import type {
  BodyFaultSpec,
  BurstSpec,
  CompletionStreamRecord,
  ConsoleRateLimits,
  ControlSnapshot,
  DeprecationSpec,
  FailActivitiesSpec,
  LatencySpec,
  RecordedRequest,
  SandboxControl,
  SeedSpec,
  StreamFaultSpec,
  Tier,
} from '../types';

const STREAM_FAULTS = ['stall', 'drop', 'malformed', 'truncate'];
const BURST_STATUSES = [401, 403, 429, 500, 502, 503, 504];
const BODY_FAULTS = ['stall', 'drop', 'truncate', 'malformed'];

/** Thrown for an invalid control argument; the HTTP surface turns it into a 400. */
export class ControlError extends Error {}

function nonNegativeInteger(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new ControlError(`${what} must be an integer >= 0`);
  return value;
}

function positiveNumber(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new ControlError(`${what} must be a number > 0`);
  return value;
}

function optionalPrefix(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !value.startsWith('/')) throw new ControlError('pathPrefix must be a path starting with "/"');
  return value;
}

function httpDate(value: string | undefined, fallbackMs: number): string {
  if (value === undefined) return new Date(fallbackMs).toUTCString();
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new ControlError('sunset must be a date');
  return new Date(ms).toUTCString();
}

/** The in-process control surface; every method validates its arguments (ControlError). */
export function createControl(state: SandboxState): SandboxControl {
  return {
    reset(): void {
      state.reset();
    },
    setLatency(spec: LatencySpec | null): void {
      if (spec === null) {
        state.faults.latency = null;
        return;
      }
      const latency: LatencySpec = { ms: nonNegativeInteger(spec.ms, 'ms') };
      if (spec.chunkDelayMs !== undefined) latency.chunkDelayMs = nonNegativeInteger(spec.chunkDelayMs, 'chunkDelayMs');
      const prefix = optionalPrefix(spec.pathPrefix);
      if (prefix !== undefined) latency.pathPrefix = prefix;
      state.faults.latency = latency.ms === 0 && (latency.chunkDelayMs ?? 0) === 0 ? null : latency;
    },
    injectStreamFault(spec: StreamFaultSpec): void {
      if (!STREAM_FAULTS.includes(spec.kind)) throw new ControlError(`kind must be one of ${STREAM_FAULTS.join(', ')}`);
      const fault: StreamFaultSpec = { kind: spec.kind, afterChunks: nonNegativeInteger(spec.afterChunks, 'afterChunks') };
      if (spec.count !== undefined) fault.count = positiveNumber(spec.count, 'count');
      const prefix = optionalPrefix(spec.pathPrefix);
      if (prefix !== undefined) fault.pathPrefix = prefix;
      state.faults.addStreamFault(fault);
    },
    injectBodyFault(spec: BodyFaultSpec): void {
      if (!BODY_FAULTS.includes(spec.kind)) throw new ControlError(`kind must be one of ${BODY_FAULTS.join(', ')}`);
      const fault: BodyFaultSpec = { kind: spec.kind };
      if (spec.count !== undefined) fault.count = positiveNumber(spec.count, 'count');
      const prefix = optionalPrefix(spec.pathPrefix);
      if (prefix !== undefined) fault.pathPrefix = prefix;
      state.faults.addBodyFault(fault);
    },
    resetAfterApply(spec: { method?: string; pathPrefix?: string; count: number }): void {
      const prefix = optionalPrefix(spec.pathPrefix);
      state.faults.addResetAfterApply({ method: spec.method, pathPrefix: prefix, count: positiveNumber(spec.count, 'count') });
    },
    burst(spec: BurstSpec): void {
      if (!BURST_STATUSES.includes(spec.status)) throw new ControlError(`status must be one of ${BURST_STATUSES.join(', ')}`);
      const burst: BurstSpec = { status: spec.status, count: positiveNumber(spec.count, 'count') };
      if (spec.retryAfterSeconds !== undefined) burst.retryAfterSeconds = nonNegativeInteger(spec.retryAfterSeconds, 'retryAfterSeconds');
      const prefix = optionalPrefix(spec.pathPrefix);
      if (prefix !== undefined) burst.pathPrefix = prefix;
      if (spec.html !== undefined) {
        if (typeof spec.html !== 'boolean') throw new ControlError('html must be a boolean');
        if (spec.html) burst.html = true;
      }
      state.faults.addBurst(burst);
    },
    expireTokens(): void {
      state.auth.expireAll();
    },
    failActivities(spec: FailActivitiesSpec): void {
      if (spec.reason !== undefined) {
        if (typeof spec.reason !== 'string' || spec.reason.length === 0) throw new ControlError('reason must be a non-empty string');
        state.activities.failReason = spec.reason;
      }
      if (spec.all !== undefined) {
        if (typeof spec.all !== 'boolean') throw new ControlError('all must be a boolean');
        state.activities.failAll = spec.all;
        if (!spec.all) state.activities.failNext = 0;
      }
      if (spec.next !== undefined) state.activities.failNext = nonNegativeInteger(spec.next, 'next');
      else if (spec.all === undefined) state.activities.failNext = 1;
    },
    slowActivities(factor: number): void {
      state.activities.slowFactor = positiveNumber(factor, 'factor');
    },
    setActivityFirstRead404(enabled: boolean): void {
      if (typeof enabled !== 'boolean') throw new ControlError('enabled must be a boolean');
      state.activities.firstRead404 = enabled;
    },
    seed(spec: SeedSpec): void {
      const max = 100_000;
      const check = (value: number | undefined, what: string): number | undefined => {
        if (value === undefined) return undefined;
        const n = nonNegativeInteger(value, what);
        if (n > max) throw new ControlError(`${what} must be <= ${max}`);
        return n;
      };
      const vms = check(spec.vms, 'vms');
      const users = check(spec.users, 'users');
      const networks = check(spec.networks, 'networks');
      if (vms !== undefined) state.store.seedVms(vms);
      if (users !== undefined) state.store.seedUsers(users);
      if (networks !== undefined) state.store.seedNetworks(networks);
    },
    deprecate(spec: DeprecationSpec): void {
      const pathPrefix = optionalPrefix(spec.pathPrefix);
      if (pathPrefix === undefined) throw new ControlError('pathPrefix is required');
      const now = state.clock.now();
      const rule: DeprecationSpec = {
        pathPrefix,
        deprecation: spec.deprecation ?? `@${Math.floor(now / 1000)}`,
        sunset: httpDate(spec.sunset, now + 90 * 86_400_000),
      };
      if (spec.link !== undefined) rule.link = spec.link;
      state.faults.deprecations = [...state.faults.deprecations.filter((d) => d.pathPrefix !== pathPrefix), rule];
    },
    setTier(tier: Tier): void {
      state.meter.tier = {
        outputTokensPerHour: positiveNumber(tier.outputTokensPerHour, 'outputTokensPerHour'),
        outputTokensPerDay: positiveNumber(tier.outputTokensPerDay, 'outputTokensPerDay'),
      };
    },
    consumeOutputTokens(tokens: number): void {
      state.meter.consume(nonNegativeInteger(tokens, 'tokens'));
    },
    advanceTime(ms: number): void {
      state.clock.advance(nonNegativeInteger(ms, 'ms'));
    },
    setConsoleRateLimits(limits: ConsoleRateLimits | false): void {
      if (limits === false) {
        state.limiter.reset(false);
        return;
      }
      state.limiter.reset({ perModule: positiveNumber(limits.perModule, 'perModule'), auth: positiveNumber(limits.auth, 'auth') });
    },
    requests(filter?: { pathPrefix?: string }): RecordedRequest[] {
      return state.log.list(filter);
    },
    clearRequests(): void {
      state.log.clear();
    },
    setRecordedStringLimit(maxChars: number): void {
      state.log.redactor.maxString = Math.min(1_000_000, Math.max(16, nonNegativeInteger(maxChars, 'maxChars')));
    },
    setConsolePaths(mode): void {
      if (mode !== 'all' && mode !== 'production') throw new ControlError('mode must be "all" or "production"');
      state.consolePaths = mode;
    },
    setUnroutedConsolePaths(answer): void {
      if (!UNROUTED_CONSOLE_ANSWERS.includes(answer)) throw new ControlError(`answer must be one of ${UNROUTED_CONSOLE_ANSWERS.join(', ')}`);
      state.unroutedConsolePaths = answer;
    },
    completionStreams(): CompletionStreamRecord[] {
      return state.completions.list();
    },
    clearCompletionStreams(): void {
      state.completions.clear();
    },
    snapshot(): ControlSnapshot {
      const a = state.activities;
      return {
        profile: state.profile,
        consolePaths: state.consolePaths,
        unroutedConsolePaths: state.unroutedConsolePaths,
        clockOffsetMs: state.clock.offsetMs,
        latency: state.faults.latency ? { ...state.faults.latency } : null,
        streamFaults: state.faults.snapshotStreamFaults(),
        bodyFaults: state.faults.snapshotBodyFaults(),
        bursts: state.faults.snapshotBursts(),
        activities: { failNext: a.failNext, failAll: a.failAll, reason: a.failReason, slowFactor: a.slowFactor, firstRead404: a.firstRead404, stepMs: a.stepMs },
        deprecations: state.faults.deprecations.map((d) => ({ ...d })),
        tier: { ...state.meter.tier },
        outputTokens: state.meter.used(),
        consoleRateLimits: state.limiter.limits === false ? false : { ...state.limiter.limits },
        counts: { vms: state.store.vms.size, users: state.store.users.size, networks: state.store.networks.size, roles: state.store.roles.size, activities: a.size },
        requestsLogged: state.log.size,
        gateway: state.gateway.snapshot(),
        batches: { available: state.batches.available, hold: state.batches.hold, stepMs: state.batches.stepMs, count: state.batches.batches.size },
      };
    },
    setBatches(spec: BatchModeSpec): void {
      if (spec.available !== undefined) {
        if (!['available', 'not_found', 'forbidden'].includes(spec.available)) throw new ControlError('available must be "available", "not_found" or "forbidden"');
        state.batches.available = spec.available;
      }
      if (spec.hold !== undefined) {
        if (typeof spec.hold !== 'boolean') throw new ControlError('hold must be a boolean');
        state.batches.hold = spec.hold;
      }
      if (spec.stepMs !== undefined) state.batches.stepMs = positiveNumber(spec.stepMs, 'stepMs');
      if (spec.failLinesContaining !== undefined) {
        if (typeof spec.failLinesContaining !== 'string') throw new ControlError('failLinesContaining must be a string');
        state.batches.failLinesContaining = spec.failLinesContaining;
      }
    },
    setGateway(spec: GatewaySpec | null): void {
      try {
        state.gateway.set(spec);
      } catch (error) {
        throw new ControlError(error instanceof Error ? error.message : String(error));
      }
    },
  };
}
