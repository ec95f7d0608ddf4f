import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { consoleErrorBody } from '../console/errors';
import { handleConsole } from '../console/router';
import { CONTROL_PREFIX, handleControl } from '../control/routes';
import { helpText } from '../help';
import { errorBody, rateLimited, SERVER_ERROR, UNAVAILABLE_ERROR, type InferenceError } from '../inference/errors';
import { boundaryOf, parseMultipart } from '../inference/multipart';
import { handleInference, isInferencePath } from '../inference/router';
import { multipartSummary } from '../inference/transcription';
import type { SandboxState } from '../state';
import { applyBodyFault, htmlErrorPage } from './faults';
import type { BurstSpec, RecordedRequest, SandboxControl } from '../types';
import { MAX_BODY_BYTES, readBody, sendJson, sendText, type RequestContext } from './http';

type Area = 'inference' | 'console' | 'other';

function areaOf(path: string): Area {
  if (isInferencePath(path)) return 'inference';
  if (path === '/api' || path.startsWith('/api/')) return 'console';
  return 'other';
}

function sendAreaError(state: SandboxState, ctx: RequestContext, area: Area, status: number, message: string, headers: Record<string, string | number> = {}): void {
  if (area === 'inference') {
    let error: InferenceError;
    if (status === 429) error = rateLimited(message);
    else if (status === 503) error = UNAVAILABLE_ERROR;
    else if (status === 500) error = SERVER_ERROR;
    else error = { status, type: status >= 500 ? 'server_error' : 'invalid_request_error', message };
    sendJson(ctx, status, errorBody(error), { ...state.meter.headers(state.profile), ...headers });
  } else {
    sendJson(ctx, status, consoleErrorBody(status, status === 429 ? 'Too Many Requests' : message), headers);
  }
}

const BURST_MESSAGES: Record<number, string> = {
  401: 'The credentials were rejected (sandbox burst).',
  403: 'Permission denied (sandbox burst).',
  429: 'Rate limit reached (sandbox burst).',
  502: 'Bad gateway (sandbox burst).',
  503: 'Service temporarily unavailable (sandbox burst).',
  504: 'Gateway timeout (sandbox burst).',
};

function sendBurst(state: SandboxState, ctx: RequestContext, area: Area, burst: BurstSpec): void {
  ctx.record.fault = `burst:${burst.status}${burst.html ? ':html' : ''}`;
  const headers: Record<string, string | number> = {};
  if (burst.retryAfterSeconds !== undefined) headers['Retry-After'] = burst.retryAfterSeconds;
  if (burst.html) return sendText(ctx, burst.status, htmlErrorPage(burst.status), { ...headers, 'Content-Type': 'text/html; charset=utf-8' });
  const message = BURST_MESSAGES[burst.status] ?? 'Internal error (sandbox burst).';
  sendAreaError(state, ctx, area, burst.status, message, headers);
}

function setDeprecationHeaders(state: SandboxState, res: ServerResponse, path: string): void {
  const rule = state.faults.deprecationFor(path);
  if (!rule) return;
  if (rule.deprecation !== undefined) res.setHeader('Deprecation', rule.deprecation);
  if (rule.sunset !== undefined) res.setHeader('Sunset', rule.sunset);
  if (rule.link !== undefined) res.setHeader('Link', `<${rule.link}>; rel="successor-version"`);
}

function summarizeBody(state: SandboxState, req: IncomingMessage, body: Buffer): RecordedRequest['body'] {
  const contentType = req.headers['content-type'] ?? null;
  const boundary = boundaryOf(contentType ?? undefined);
  const parts = boundary !== undefined ? parseMultipart(body, boundary) : undefined;
  return state.log.summarize(body, contentType, parts ? multipartSummary(parts) : undefined);
}

async function handle(state: SandboxState, control: SandboxControl, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
  const path = url.pathname;
  const method = (req.method ?? 'GET').toUpperCase();
  const ip = req.socket.remoteAddress ?? 'unknown';

  if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) {
    const { body } = await readBody(req, MAX_BODY_BYTES);
    const record = state.log.start({ method, path, query: url.search, ip, headers: {}, time: state.clock.iso() }, false);
    handleControl(state, control, { req, res, method, path, url, ip, body, record, chunkDelayMs: 0 });
    return;
  }

  const started = performance.now();
  const record = state.log.start({ method, path, query: url.search, ip, headers: req.headers, time: state.clock.iso() });
  res.once('close', () => {
    record.status = res.headersSent ? res.statusCode : null;
    record.durationMs = Math.round((performance.now() - started) * 10) / 10;
    if (!res.writableFinished && !record.droppedByServer && !state.closing) record.clientClosedEarly = true;
  });

  const { body, tooLarge } = await readBody(req, MAX_BODY_BYTES);
  record.body = summarizeBody(state, req, body);
  const latency = state.faults.latencyFor(path);
  if (latency.ms > 0) {
    await state.clock.sleep(latency.ms);
    if (res.destroyed || state.closing) return;
  }
  const ctx: RequestContext = { req, res, method, path, url, ip, body, record, chunkDelayMs: state.options.chunkDelayMs + latency.chunkDelayMs };
  const area = areaOf(path);
  setDeprecationHeaders(state, res, path);
  if (area === 'other') {
    if (method === 'GET' && path === '/') return sendText(ctx, 200, helpText(state.profile, `http://${req.headers.host ?? 'localhost'}`));
    return sendJson(ctx, 404, { error: { message: `No route ${method} ${path}. Inference is under /v1, the console under /api, control under ${CONTROL_PREFIX}.` } });
  }
  if (tooLarge) return sendAreaError(state, ctx, area, 413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
  const refusedByGateway = state.gateway.check(req.headers);
  if (refusedByGateway) return sendAreaError(state, ctx, area, refusedByGateway.status, refusedByGateway.message);
  const burst = state.faults.takeBurst(path);
  if (burst) return sendBurst(state, ctx, area, burst);
  const bodyFault = state.faults.takeBodyFault(path);
  if (bodyFault) applyBodyFault(res, record, bodyFault);
  if (state.faults.takeResetAfterApply(method, path)) resetInsteadOfAnswering(ctx);
  try {
    if (area === 'inference') await handleInference(state, ctx);
    else handleConsole(state, ctx);
  } catch (error) {
    ctx.record.fault = ctx.record.fault ?? `exception:${error instanceof Error ? error.message : String(error)}`;
    if (!res.headersSent) sendAreaError(state, ctx, area, 500, 'Internal sandbox error.');
    else res.destroy();
  }
}

/**
 * The request is processed as usual (a write takes effect) but its answer never leaves: the socket
 * is destroyed when the response would start, as when a connection breaks after the server acted.
 */
function resetInsteadOfAnswering(ctx: RequestContext): void {
  ctx.record.fault = 'reset-after-apply';
  ctx.record.droppedByServer = true;
  const socket = ctx.req.socket;
  const reset = (): ServerResponse => {
    socket.destroy();
    return ctx.res;
  };
  ctx.res.writeHead = reset as ServerResponse['writeHead'];
  ctx.res.write = (() => (reset(), true)) as ServerResponse['write'];
  ctx.res.end = reset as ServerResponse['end'];
}

export function createSandboxServer(state: SandboxState, control: SandboxControl): Server {
  const server = createServer((req, res) => {
    handle(state, control, req, res).catch(() => {
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end('{"error":{"message":"Internal sandbox error.","type":"server_error"}}');
      } else res.destroy();
    });
  });
  return server;
}
