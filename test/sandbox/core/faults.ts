import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { BodyFaultKind, BodyFaultSpec, BurstSpec, DeprecationSpec, LatencySpec, RecordedRequest, StreamFaultSpec } from '../types';

interface ActiveStreamFault extends StreamFaultSpec {
  remaining: number;
}

interface ActiveBurst extends BurstSpec {
  remaining: number;
}

interface ActiveBodyFault extends BodyFaultSpec {
  remaining: number;
}

const REASONS: Record<number, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The page a reverse proxy or load balancer serves in front of the API (not the API's JSON). */
export function htmlErrorPage(status: number): string {
  const title = `${status} ${REASONS[status] ?? 'Error'}`;
  return `<!DOCTYPE html>\n<html><head><title>${title}</title></head>\n<body><center><h1>${title}</h1></center><hr><center>nginx</center></body></html>\n`;
}

/** Text sent by the `malformed` body fault: not valid JSON. */
export const MALFORMED_BODY = '{"object":"list","data":[{"id":';

/**
 * Applies a body fault to `res`: the handler's writeHead and end are intercepted, and the body it
 * ends with is cut, stalled, dropped or replaced (see BodyFaultSpec).
 */
export function applyBodyFault(res: ServerResponse, record: RecordedRequest, kind: BodyFaultKind): void {
  record.fault = `body:${kind}`;
  const writeHead = res.writeHead.bind(res) as (status: number, headers?: OutgoingHttpHeaders) => ServerResponse;
  const end = res.end.bind(res) as (chunk?: string | Buffer) => ServerResponse;
  let held: { status: number; headers: OutgoingHttpHeaders } | undefined;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const headers = rest.find((r): r is OutgoingHttpHeaders => typeof r === 'object' && r !== null);
    held = { status, headers: { ...headers } };
    return res;
  }) as ServerResponse['writeHead'];
  res.end = ((chunk?: unknown) => {
    const body = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.isBuffer(chunk) ? chunk : Buffer.alloc(0);
    const headers: OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(held?.headers ?? {})) if (k.toLowerCase() !== 'content-length') headers[k] = v;
    const status = held?.status ?? res.statusCode;
    const half = body.subarray(0, Math.max(1, Math.floor(body.length / 2)));
    switch (kind) {
      case 'malformed':
        writeHead(status, { ...headers, 'Content-Length': Buffer.byteLength(MALFORMED_BODY) });
        return end(MALFORMED_BODY);
      case 'truncate':
        writeHead(status, headers);
        return end(half);
      case 'stall':
        // Content-Length promises the whole body; only half comes, then nothing.
        writeHead(status, { ...headers, 'Content-Length': body.length });
        res.write(half);
        return res;
      case 'drop':
        record.droppedByServer = true;
        writeHead(status, { ...headers, 'Content-Length': body.length });
        res.write(half, () => res.destroy());
        return res;
    }
  }) as ServerResponse['end'];
}

function matches(prefix: string | undefined, path: string): boolean {
  return prefix === undefined || path.startsWith(prefix);
}

/** Injected faults that apply per request (activity and token faults live with their owners). */
export class FaultState {
  latency: LatencySpec | null = null;
  private streamFaults: ActiveStreamFault[] = [];
  private bursts: ActiveBurst[] = [];
  private bodyFaults: ActiveBodyFault[] = [];
  deprecations: DeprecationSpec[] = [];
  /** Requests to process fully (a write takes effect) and then answer by resetting the socket. */
  private resetsAfterApply: Array<{ method: string | undefined; pathPrefix: string | undefined; remaining: number }> = [];

  reset(): void {
    this.resetsAfterApply = [];
    this.latency = null;
    this.streamFaults = [];
    this.bursts = [];
    this.bodyFaults = [];
    this.deprecations = [];
  }

  addBodyFault(spec: BodyFaultSpec): void {
    this.bodyFaults.push({ ...spec, remaining: spec.count ?? 1 });
  }

  /** Takes (consumes one use of) the first body fault matching `path`. */
  takeBodyFault(path: string): BodyFaultKind | null {
    const fault = this.bodyFaults.find((f) => f.remaining > 0 && matches(f.pathPrefix, path));
    if (!fault) return null;
    fault.remaining -= 1;
    this.bodyFaults = this.bodyFaults.filter((f) => f.remaining > 0);
    return fault.kind;
  }

  snapshotBodyFaults(): BodyFaultSpec[] {
    return this.bodyFaults.map((f) => ({ kind: f.kind, count: f.remaining, ...(f.pathPrefix !== undefined ? { pathPrefix: f.pathPrefix } : {}) }));
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
    if (burst.html) out.html = true;
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
      if (b.html) out.html = true;
      return out;
    });
  }
}
