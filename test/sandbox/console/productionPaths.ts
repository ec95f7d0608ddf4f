import { parseJsonBody } from '../core/http';
import { isRecord } from '../core/json';
import { sendConsoleError } from './errors';
import * as r from './resources';

/**
 * The console as production serves it (spec/field-notes.md and the provider's public Go client),
 * with none of the contract's resource paths: `startSandbox({ consolePaths: 'production' })`,
 * `--console-paths production`, or `POST /__sandbox/console-paths {"mode": "production"}`. The
 * contract's `/api/compute/v1/virtual-machines` and `/api/iam/v1/users` answer 404 here, as they do
 * on the real console, so a client must find these paths by itself.
 */

export type ConsolePathsMode = 'all' | 'production';

/**
 * What a console path no route serves answers, as a gateway in front of the console may:
 * `notFound` (404, the default), `methodNotAllowed` (405), `gone` (410), `redirect` (302 to a
 * sign-in page) or `spa` (200 with a single-page app's HTML: a gateway's fallback route).
 */
export type UnroutedConsoleAnswer = 'notFound' | 'methodNotAllowed' | 'gone' | 'redirect' | 'spa';
export const UNROUTED_CONSOLE_ANSWERS: readonly UnroutedConsoleAnswer[] = ['notFound', 'methodNotAllowed', 'gone', 'redirect', 'spa'];

export interface ConsoleRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  pattern: string;
  handle: r.Handler;
}

export const PRODUCTION_VM_PATH = '/api/compute/v1/vcenters/virtual_machines';

/**
 * `PATCH .../virtual_machines/power {id, datacenterId, powerAction}`, all three required, and the
 * datacenter must be the VM's own (the shape production's public client sends).
 */
const powerWithDatacenter: r.Handler = (state, ctx, principal, params) => {
  const body = parseJsonBody(ctx);
  const value = body.ok && isRecord(body.value) ? body.value : undefined;
  if (!value) return sendConsoleError(ctx, 400, 'The request body must be a JSON object.');
  const vm = typeof value.id === 'string' ? state.store.vms.get(value.id) : undefined;
  if (typeof value.datacenterId !== 'string') return sendConsoleError(ctx, 400, `'datacenterId' is required.`);
  if (vm && vm.datacenter.id !== value.datacenterId) return sendConsoleError(ctx, 400, `Virtual machine ${vm.id} is not in datacenter ${value.datacenterId}.`);
  r.powerVm(state, ctx, principal, params);
};

/** `PATCH .../virtual_machines {id, ...changes}`: production modifies a VM named in the body, not the path. */
export const modifyWithIdInBody: r.Handler = (state, ctx, principal, params) => {
  const body = parseJsonBody(ctx);
  const value = body.ok && isRecord(body.value) ? body.value : undefined;
  if (!value) return sendConsoleError(ctx, 400, 'The request body must be a JSON object.');
  if (typeof value.id !== 'string' || value.id === '') return sendConsoleError(ctx, 400, `'id' is required.`);
  r.updateVm(state, ctx, principal, { ...params, id: value.id });
};

export const PRODUCTION_ROUTES: readonly ConsoleRoute[] = [
  { method: 'GET', pattern: PRODUCTION_VM_PATH, handle: r.listVms },
  { method: 'POST', pattern: PRODUCTION_VM_PATH, handle: r.createVm },
  { method: 'PATCH', pattern: PRODUCTION_VM_PATH, handle: modifyWithIdInBody },
  { method: 'PATCH', pattern: `${PRODUCTION_VM_PATH}/power`, handle: powerWithDatacenter },
  { method: 'GET', pattern: `${PRODUCTION_VM_PATH}/:id`, handle: r.readVm },
  { method: 'DELETE', pattern: `${PRODUCTION_VM_PATH}/:id`, handle: r.deleteVm },
  { method: 'GET', pattern: '/api/iam/v2/users', handle: r.listUsersByCompany },
  { method: 'POST', pattern: '/api/iam/v2/users', handle: r.createUser },
  { method: 'GET', pattern: '/api/iam/v2/users/:id', handle: r.readUser },
  { method: 'GET', pattern: '/api/iam/v2/roles', handle: r.listRoles },
  { method: 'GET', pattern: '/api/network/v1/virtual-networks', handle: r.listNetworks },
  { method: 'POST', pattern: '/api/network/v1/virtual-networks', handle: r.createNetwork },
  { method: 'GET', pattern: '/api/activity/v1/activities', handle: r.listActivities },
  { method: 'GET', pattern: '/api/activity/v1/activities/:id', handle: r.readActivity },
];
