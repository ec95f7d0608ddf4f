import { parseJsonBody, sendJson, sendText, type RequestContext } from '../core/http';
import { isRecord, type JsonObject } from '../core/json';
import { helpText } from '../help';
import type { SandboxState } from '../state';
import type { BodyFaultKind, BurstSpec, BurstStatus, ConsoleRateLimits, SandboxControl, StreamFaultKind } from '../types';
import { ControlError } from './controller';
import type { UnroutedConsoleAnswer } from '../console/productionPaths';
import type { BatchAvailability } from '../inference/batches';

/**
 * HTTP twin of SandboxControl under /__sandbox (JSON bodies, no auth: a loopback test fixture).
 * Answers 200 {"ok": true, "state": <snapshot>} or 400 {"error": {"message": ...}}.
 */

export const CONTROL_PREFIX = '/__sandbox';

type Op = (control: SandboxControl, body: JsonObject, ctx: RequestContext) => unknown;

function num(body: JsonObject, key: string): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number') throw new ControlError(`${key} must be a number`);
  return value;
}

function str(body: JsonObject, key: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ControlError(`${key} must be a string`);
  return value;
}

function bool(body: JsonObject, key: string): boolean | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new ControlError(`${key} must be a boolean`);
  return value;
}

function required<T>(value: T | undefined, key: string): T {
  if (value === undefined) throw new ControlError(`${key} is required`);
  return value;
}

const POST_OPS: Record<string, Op> = {
  '/reset': (c) => c.reset(),
  '/latency': (c, b) => {
    const ms = num(b, 'ms') ?? 0;
    const chunkDelayMs = num(b, 'chunkDelayMs');
    const pathPrefix = str(b, 'pathPrefix');
    c.setLatency({ ms, ...(chunkDelayMs !== undefined ? { chunkDelayMs } : {}), ...(pathPrefix !== undefined ? { pathPrefix } : {}) });
  },
  '/stream-fault': (c, b) => {
    const count = num(b, 'count');
    const pathPrefix = str(b, 'pathPrefix');
    c.injectStreamFault({
      kind: required(str(b, 'kind'), 'kind') as StreamFaultKind,
      afterChunks: required(num(b, 'afterChunks'), 'afterChunks'),
      ...(count !== undefined ? { count } : {}),
      ...(pathPrefix !== undefined ? { pathPrefix } : {}),
    });
  },
  '/burst': (c, b) => {
    const spec: BurstSpec = { status: required(num(b, 'status'), 'status') as BurstStatus, count: num(b, 'count') ?? 1 };
    const retryAfterSeconds = num(b, 'retryAfterSeconds');
    const pathPrefix = str(b, 'pathPrefix');
    if (retryAfterSeconds !== undefined) spec.retryAfterSeconds = retryAfterSeconds;
    if (pathPrefix !== undefined) spec.pathPrefix = pathPrefix;
    if (bool(b, 'html') === true) spec.html = true;
    c.burst(spec);
  },
  '/body-fault': (c, b) => {
    const count = num(b, 'count');
    const pathPrefix = str(b, 'pathPrefix');
    c.injectBodyFault({
      kind: required(str(b, 'kind'), 'kind') as BodyFaultKind,
      ...(count !== undefined ? { count } : {}),
      ...(pathPrefix !== undefined ? { pathPrefix } : {}),
    });
  },
  '/reset-after-apply': (c, b) => {
    const method = str(b, 'method');
    const pathPrefix = str(b, 'pathPrefix');
    c.resetAfterApply({ count: num(b, 'count') ?? 1, ...(method !== undefined ? { method } : {}), ...(pathPrefix !== undefined ? { pathPrefix } : {}) });
  },
  '/expire-tokens': (c) => c.expireTokens(),
  '/activities/fail': (c, b) => {
    const next = num(b, 'next');
    const all = bool(b, 'all');
    const reason = str(b, 'reason');
    c.failActivities({ ...(next !== undefined ? { next } : {}), ...(all !== undefined ? { all } : {}), ...(reason !== undefined ? { reason } : {}) });
  },
  '/activities/slow': (c, b) => c.slowActivities(required(num(b, 'factor'), 'factor')),
  '/activities/first-read-404': (c, b) => c.setActivityFirstRead404(required(bool(b, 'enabled'), 'enabled')),
  '/seed': (c, b) => {
    const vms = num(b, 'vms');
    const users = num(b, 'users');
    const networks = num(b, 'networks');
    c.seed({ ...(vms !== undefined ? { vms } : {}), ...(users !== undefined ? { users } : {}), ...(networks !== undefined ? { networks } : {}) });
  },
  '/deprecate': (c, b) => {
    const deprecation = str(b, 'deprecation');
    const sunset = str(b, 'sunset');
    const link = str(b, 'link');
    c.deprecate({
      pathPrefix: required(str(b, 'pathPrefix'), 'pathPrefix'),
      ...(deprecation !== undefined ? { deprecation } : {}),
      ...(sunset !== undefined ? { sunset } : {}),
      ...(link !== undefined ? { link } : {}),
    });
  },
  '/tier': (c, b) => c.setTier({ outputTokensPerHour: required(num(b, 'outputTokensPerHour'), 'outputTokensPerHour'), outputTokensPerDay: required(num(b, 'outputTokensPerDay'), 'outputTokensPerDay') }),
  '/consume': (c, b) => c.consumeOutputTokens(required(num(b, 'outputTokens'), 'outputTokens')),
  '/recorded-strings': (c, b) => c.setRecordedStringLimit(required(num(b, 'maxChars'), 'maxChars')),
  '/clock': (c, b) => c.advanceTime(required(num(b, 'advanceMs'), 'advanceMs')),
  '/console-paths': (c, b) => c.setConsolePaths(required(str(b, 'mode'), 'mode') as 'all' | 'production'),
  '/console-unrouted': (c, b) => c.setUnroutedConsolePaths(required(str(b, 'answer'), 'answer') as UnroutedConsoleAnswer),
  '/gateway': (c, b) => c.setGateway(bool(b, 'off') === true ? null : { header: required(str(b, 'header'), 'header'), value: required(str(b, 'value'), 'value') }),
  '/batches': (c, b) => {
    const available = str(b, 'available');
    const hold = bool(b, 'hold');
    const stepMs = num(b, 'stepMs');
    const failLinesContaining = str(b, 'failLinesContaining');
    c.setBatches({ ...(available !== undefined ? { available: available as BatchAvailability } : {}), ...(hold !== undefined ? { hold } : {}), ...(stepMs !== undefined ? { stepMs } : {}), ...(failLinesContaining !== undefined ? { failLinesContaining } : {}) });
  },
  '/console-rate-limits': (c, b) => {
    if (bool(b, 'enabled') === false) return c.setConsoleRateLimits(false);
    const limits: ConsoleRateLimits = { perModule: num(b, 'perModule') ?? 25, auth: num(b, 'auth') ?? 5 };
    c.setConsoleRateLimits(limits);
  },
};

export function handleControl(state: SandboxState, control: SandboxControl, ctx: RequestContext): void {
  const sub = ctx.path.slice(CONTROL_PREFIX.length) || '/';
  try {
    if (ctx.method === 'GET' && (sub === '/' || sub === '/help')) return sendText(ctx, 200, helpText(state.profile, ''));
    if (ctx.method === 'GET' && sub === '/state') return sendJson(ctx, 200, control.snapshot());
    if (sub === '/requests') {
      if (ctx.method === 'DELETE') {
        control.clearRequests();
        return sendJson(ctx, 200, { ok: true });
      }
      if (ctx.method === 'GET') {
        const pathPrefix = ctx.url.searchParams.get('pathPrefix') ?? undefined;
        return sendJson(ctx, 200, { requests: control.requests(pathPrefix === undefined ? undefined : { pathPrefix }) });
      }
    }
    if (sub === '/completions') {
      if (ctx.method === 'DELETE') {
        control.clearCompletionStreams();
        return sendJson(ctx, 200, { ok: true });
      }
      if (ctx.method === 'GET') return sendJson(ctx, 200, { streams: control.completionStreams() });
    }
    const op = POST_OPS[sub];
    if (!op) return sendJson(ctx, 404, { error: { message: `Unknown control route ${ctx.method} ${ctx.path}. GET ${CONTROL_PREFIX}/help lists them.` } });
    if (ctx.method !== 'POST') return sendJson(ctx, 405, { error: { message: `Use POST on ${ctx.path}.` } }, { Allow: 'POST' });
    let body: JsonObject = {};
    if (ctx.body.length > 0) {
      const parsed = parseJsonBody(ctx);
      if (!parsed.ok || !isRecord(parsed.value)) throw new ControlError('The body must be a JSON object.');
      body = parsed.value;
    }
    op(control, body, ctx);
    sendJson(ctx, 200, { ok: true, state: control.snapshot() });
  } catch (error) {
    if (error instanceof ControlError) sendJson(ctx, 400, { error: { message: error.message } });
    else throw error;
  }
}
