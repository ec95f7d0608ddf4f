import { parseJsonBody, sendJson, sendText, type RequestContext } from '../core/http';
import { isRecord } from '../core/json';
import type { SandboxState } from '../state';
import { sendConsoleError, TOO_MANY_REQUESTS } from './errors';
import { AUTH_PATH } from './rateLimit';
import { modifyWithIdInBody, PRODUCTION_ROUTES, type ConsoleRoute } from './productionPaths';
import * as r from './resources';

/**
 * Console API router. Choices where the contract is silent (see also README.md):
 * - activity state: contract profile = the flat state form told apart by its fields, production =
 *   keyed by state name (console/activities.ts); Location: contract = /api/activity/v1/activities/<id>,
 *   production = the raw id; 201 bodies are empty;
 * - lists: contract = {"items", "total"} with limit/offset/name, production = bare arrays with 206
 *   when partial (console/lists.ts);
 * - every error body uses the contract's 429 shape {"error": {"status": "<code> <reason>", "message"}}.
 * Order of checks for every request: per-IP rate limit (429) -> PAT exchange route, or bearer JWT
 * (401) -> route (404/405) -> write permission (403) -> body (400).
 */

interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  pattern: string;
  handle: r.Handler;
}

const VM = '/api/compute/v1/virtual-machines';
const VCENTER_VM = '/api/compute/v1/vcenters/virtual_machines';

export const CONSOLE_ROUTES: readonly Route[] = [
  { method: 'GET', pattern: VM, handle: r.listVms },
  { method: 'POST', pattern: VM, handle: r.createVm },
  { method: 'GET', pattern: `${VM}/:id`, handle: r.readVm },
  { method: 'PATCH', pattern: `${VM}/:id`, handle: r.updateVm },
  { method: 'DELETE', pattern: `${VM}/:id`, handle: r.deleteVm },
  // Production-style paths (field-notes.md), served in both profiles.
  { method: 'GET', pattern: VCENTER_VM, handle: r.listVms },
  { method: 'POST', pattern: VCENTER_VM, handle: r.createVm },
  { method: 'PATCH', pattern: VCENTER_VM, handle: modifyWithIdInBody },
  { method: 'PATCH', pattern: `${VCENTER_VM}/power`, handle: r.powerVm },
  { method: 'GET', pattern: `${VCENTER_VM}/:id`, handle: r.readVm },
  { method: 'DELETE', pattern: `${VCENTER_VM}/:id`, handle: r.deleteVm },
  { method: 'GET', pattern: '/api/iam/v1/users', handle: r.listUsers },
  { method: 'POST', pattern: '/api/iam/v1/users', handle: r.createUser },
  { method: 'GET', pattern: '/api/iam/v1/users/:id', handle: r.readUser },
  { method: 'GET', pattern: '/api/iam/v2/users', handle: r.listUsersByCompany },
  { method: 'POST', pattern: '/api/iam/v2/users', handle: r.createUser },
  { method: 'GET', pattern: '/api/iam/v2/roles', handle: r.listRoles },
  { method: 'GET', pattern: '/api/network/v1/virtual-networks', handle: r.listNetworks },
  { method: 'POST', pattern: '/api/network/v1/virtual-networks', handle: r.createNetwork },
  { method: 'GET', pattern: '/api/activity/v1/activities', handle: r.listActivities },
  { method: 'GET', pattern: '/api/activity/v1/activities/:id', handle: r.readActivity },
];

function match(pattern: string, path: string): r.Params | undefined {
  const want = pattern.split('/');
  const got = path.replace(/\/+$/, '').split('/');
  if (want.length !== got.length) return undefined;
  const params: r.Params = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] ?? '';
    const g = got[i] ?? '';
    if (w.startsWith(':')) {
      if (g === '') return undefined;
      params[w.slice(1)] = decodeURIComponent(g);
    } else if (w !== g) return undefined;
  }
  return params;
}

function exchange(state: SandboxState, ctx: RequestContext): void {
  if (ctx.method !== 'POST') return sendConsoleError(ctx, 405, `Use POST on ${AUTH_PATH}.`, { Allow: 'POST' });
  const body = parseJsonBody(ctx);
  const value = body.ok && isRecord(body.value) ? body.value : {};
  const result = state.auth.exchange(value.id, value.secret);
  if (!result.ok) return sendConsoleError(ctx, result.status, result.message);
  // Contract profile: JSON {"token": ...}; production profile: the raw JWT as text/plain.
  if (state.profile === 'production') sendText(ctx, 200, result.token);
  else sendJson(ctx, 200, { token: result.token });
}

export function handleConsole(state: SandboxState, ctx: RequestContext): void {
  if (state.limiter.limited(ctx.ip, ctx.path)) {
    ctx.record.fault = ctx.record.fault ?? 'console-rate-limit';
    sendConsoleError(ctx, 429, TOO_MANY_REQUESTS);
    return;
  }
  // Only successful requests count against the per-IP limits: counted on admission, uncounted
  // when the answer is not a 2xx or never completes.
  const uncount = state.limiter.record(ctx.ip, ctx.path);
  let finished = false;
  ctx.res.once('finish', () => {
    finished = true;
    if (ctx.res.statusCode < 200 || ctx.res.statusCode >= 300) uncount();
  });
  ctx.res.once('close', () => {
    if (!finished) uncount();
  });
  if (ctx.path === AUTH_PATH) return exchange(state, ctx);

  const auth = state.auth.verify(ctx.req.headers.authorization);
  if (!auth.ok) return sendConsoleError(ctx, 401, auth.message);
  state.activities.tick();

  let allowed: string[] = [];
  const routes: readonly ConsoleRoute[] = state.consolePaths === 'production' ? PRODUCTION_ROUTES : CONSOLE_ROUTES;
  for (const route of routes) {
    const params = match(route.pattern, ctx.path);
    if (!params) continue;
    if (route.method !== ctx.method) {
      allowed.push(route.method);
      continue;
    }
    if (route.method !== 'GET' && auth.principal.permission !== 'read-write') {
      return sendConsoleError(ctx, 403, 'Insufficient permissions: this personal access token is read-only.');
    }
    route.handle(state, ctx, auth.principal, params);
    return;
  }
  allowed = [...new Set(allowed)];
  if (allowed.length > 0) return sendConsoleError(ctx, 405, `Method ${ctx.method} is not allowed on ${ctx.path}.`, { Allow: allowed.join(', ') });
  sendUnrouted(state, ctx);
}

const SPA_PAGE = '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Console</title></head><body><div id="app"></div><script src="/assets/app.js"></script></body></html>\n';

/** A path no route serves: 404, or what a gateway in front answers instead (SandboxOptions.unroutedConsolePaths). */
function sendUnrouted(state: SandboxState, ctx: RequestContext): void {
  switch (state.unroutedConsolePaths) {
    case 'methodNotAllowed': return sendConsoleError(ctx, 405, `Method ${ctx.method} is not allowed on ${ctx.path}.`, { Allow: 'OPTIONS' });
    case 'gone': return sendConsoleError(ctx, 410, `${ctx.path} is gone.`);
    case 'redirect': return sendText(ctx, 302, '', { Location: `/login?next=${encodeURIComponent(ctx.path)}` });
    case 'spa': return sendText(ctx, 200, SPA_PAGE, { 'Content-Type': 'text/html; charset=utf-8' });
    default: return sendConsoleError(ctx, 404, `No route ${ctx.method} ${ctx.path}.`);
  }
}
