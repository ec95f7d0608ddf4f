import type { BurstSpec, DeprecationSpec, LatencySpec, StreamFaultSpec } from '../types';

interface ActiveStreamFault extends StreamFaultSpec {
  remaining: number;
}

interface ActiveBurst extends BurstSpec {
  remaining: number;
}

function matches(prefix: string | undefined, path: string): boolean {
  return prefix === undefined || path.startsWith(prefix);
}

/** Injected faults that apply per request (activity and token faults live with their owners). */
export class FaultState {
  latency: LatencySpec | null = null;
  private streamFaults: ActiveStreamFault[] = [];
  private bursts: ActiveBurst[] = [];
  deprecations: DeprecationSpec[] = [];
  /** Requests to process fully (a write takes effect) and then answer by resetting the socket. */
  private resetsAfterApply: Array<{ method: string | undefined; pathPrefix: string | undefined; remaining: number }> = [];

  reset(): void {
    this.resetsAfterApply = [];
    this.latency = null;
    this.streamFaults = [];
    this.bursts = [];
    this.deprecations = [];
  }

  latencyFor(path: string): { ms: number; chunkDelayMs: number } {
    const latency = this.latency;
    if (!latency || !matches(latency.pathPrefix, path)) return { ms: 0, chunkDelayMs: 0 };
    return { ms: latency.ms, chunkDelayMs: latency.chunkDelayMs ?? 0 };
  }

  addStreamFault(spec: StreamFaultSpec): void {
    this.streamFaults.push({ ...spec, remaining: spec.count ?? 1 });
  }

  /** Takes (consumes one use of) the first stream fault matching `path`. */
  takeStreamFault(path: string): StreamFaultSpec | null {
    const fault = this.streamFaults.find((f) => f.remaining > 0 && matches(f.pathPrefix, path));
    if (!fault) return null;
    fault.remaining -= 1;
    this.streamFaults = this.streamFaults.filter((f) => f.remaining > 0);
    return { kind: fault.kind, afterChunks: fault.afterChunks };
  }

  addBurst(spec: BurstSpec): void {
    this.bursts.push({ ...spec, remaining: spec.count });
  }

  /** Takes (consumes one response of) the first burst matching `path`. */
  takeBurst(path: string): BurstSpec | null {
    const burst = this.bursts.find((b) => b.remaining > 0 && matches(b.pathPrefix, path));
    if (!burst) return null;
    burst.remaining -= 1;
    this.bursts = this.bursts.filter((b) => b.remaining > 0);
    const out: BurstSpec = { status: burst.status, count: burst.remaining };
    if (burst.retryAfterSeconds !== undefined) out.retryAfterSeconds = burst.retryAfterSeconds;
    return out;
  }

  addResetAfterApply(spec: { method?: string | undefined; pathPrefix?: string | undefined; count: number }): void {
    this.resetsAfterApply.push({ method: spec.method?.toUpperCase(), pathPrefix: spec.pathPrefix, remaining: spec.count });
  }

  /** Takes (consumes one use of) a reset-after-apply fault matching the request. */
  takeResetAfterApply(method: string, path: string): boolean {
    const fault = this.resetsAfterApply.find((f) => f.remaining > 0 && (f.method === undefined || f.method === method) && matches(f.pathPrefix, path));
    if (!fault) return false;
    fault.remaining -= 1;
    this.resetsAfterApply = this.resetsAfterApply.filter((f) => f.remaining > 0);
    return true;
  }

  deprecationFor(path: string): DeprecationSpec | null {
    return this.deprecations.find((d) => path.startsWith(d.pathPrefix)) ?? null;
  }

  snapshotStreamFaults(): StreamFaultSpec[] {
    return this.streamFaults.map((f) => {
      const out: StreamFaultSpec = { kind: f.kind, afterChunks: f.afterChunks, count: f.remaining };
      if (f.pathPrefix !== undefined) out.pathPrefix = f.pathPrefix;
      return out;
    });
  }

  snapshotBursts(): BurstSpec[] {
    return this.bursts.map((b) => {
      const out: BurstSpec = { status: b.status, count: b.remaining };
      if (b.retryAfterSeconds !== undefined) out.retryAfterSeconds = b.retryAfterSeconds;
      if (b.pathPrefix !== undefined) out.pathPrefix = b.pathPrefix;
      return out;
    });
  }
}
