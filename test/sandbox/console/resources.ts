import { parseJsonBody, sendEmpty, sendJson, type RequestContext } from '../core/http';
import { isInteger, isRecord, isString, optional, type JsonObject } from '../core/json';
import type { SandboxState } from '../state';
import type { NewActivity } from './activities';
import type { Principal } from './auth';
import { sendConsoleError } from './errors';
import { sendList } from './lists';
import { DATACENTERS, makeVm, type Network, type User, type Vm } from './store';

/** Console resource handlers: virtual machines, users, roles, virtual networks. */

export type Params = Record<string, string>;
export type Handler = (state: SandboxState, ctx: RequestContext, principal: Principal, params: Params) => void;

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

class BadRequest extends Error {}

function bad(message: string): never {
  throw new BadRequest(message);
}

/** Runs a handler body, turning validation failures into a 400. */
function guarded(ctx: RequestContext, run: () => void): void {
  try {
    run();
  } catch (error) {
    if (error instanceof BadRequest) sendConsoleError(ctx, 400, error.message);
    else throw error;
  }
}

function jsonObject(ctx: RequestContext): JsonObject {
  const body = parseJsonBody(ctx);
  if (!body.ok || !isRecord(body.value)) bad('The request body must be a JSON object.');
  return body.value;
}

function nameField(body: JsonObject, key = 'name'): string {
  const value = body[key];
  if (!isString(value) || value.trim().length === 0 || value.length > 80) bad(`'${key}' is required: a string of 1 to 80 characters.`);
  return value.trim();
}

function intField(body: JsonObject, key: string, min: number, max: number): number | undefined {
  const value = optional(body, key);
  if (value === undefined) return undefined;
  if (!isInteger(value) || value < min || value > max) bad(`'${key}' must be an integer between ${min} and ${max}.`);
  return value;
}

/** Sends 201 with the activity id in `Location` (contract: its URL path; production: the raw id). */
function startActivity(state: SandboxState, ctx: RequestContext, principal: Principal, spec: Omit<NewActivity, 'initiator' | 'tenantId'>): void {
  const id = state.activities.create({ ...spec, initiator: principal.userId, tenantId: principal.tenantId });
  sendEmpty(ctx, 201, { Location: state.profile === 'production' ? id : `/api/activity/v1/activities/${id}` });
}

// ---- virtual machines -------------------------------------------------------------------------

export function vmView(state: SandboxState, vm: Vm): Record<string, unknown> {
  const view: Record<string, unknown> = {
    ...vm,
    operatingSystem: { ...vm.operatingSystem },
    datacenter: { ...vm.datacenter },
    hostCluster: { ...vm.hostCluster },
    datastore: { ...vm.datastore },
  };
  if (state.profile === 'production') Object.assign(view, { machineManagerType: 'vcenter', hardwareVersion: 'vmx-19', consolidationNeeded: false, toolsVersion: 12352 });
  return view;
}

export const listVms: Handler = (state, ctx) => sendList(state, ctx, state.store.vms.values(), (vm) => vmView(state, vm), (vm) => vm.name);

export const readVm: Handler = (state, ctx, _principal, params) => {
  const vm = state.store.vms.get(params.id ?? '');
  if (!vm) return sendConsoleError(ctx, 404, `Virtual machine ${params.id ?? ''} not found.`);
  sendJson(ctx, 200, vmView(state, vm));
};

export const createVm: Handler = (state, ctx, principal) =>
  guarded(ctx, () => {
    const body = jsonObject(ctx);
    const name = nameField(body);
    const cpu = intField(body, 'cpu', 1, 128) ?? 2;
    const cores = intField(body, 'numCoresPerSocket', 1, cpu) ?? 1;
    const memory = intField(body, 'memory', 256 * MIB, 4096 * GIB) ?? 4 * GIB;
    const os = optional(body, 'operatingSystem');
    let osName = 'Other Linux (64-bit)';
    if (isRecord(os) && isString(os.name)) osName = os.name;
    else if (isString(optional(body, 'operatingSystemName'))) osName = String(body.operatingSystemName);
    else if (os !== undefined) bad(`'operatingSystem' must be {"name": "..."}.`);
    const datacenterId = optional(body, 'datacenterId');
    const datacenter = datacenterId === undefined ? DATACENTERS[0] : DATACENTERS.find((d) => d.id === datacenterId);
    if (!datacenter) bad(`Unknown datacenterId.`);
    const powerOn = optional(body, 'powerOn');
    if (powerOn !== undefined && typeof powerOn !== 'boolean') bad(`'powerOn' must be a boolean.`);
    const { id, n } = state.store.newId('vm');
    startActivity(state, ctx, principal, {
      description: `Create virtual machine '${name}'`,
      type: 'ComputeActivity',
      concernedItems: [{ type: 'virtual_machine', id }],
      apply: () => {
        const vm = makeVm(n, { id, name, cpu, numCoresPerSocket: cores, memory, operatingSystem: { name: osName }, datacenter: { ...datacenter }, template: false });
        vm.powerState = powerOn === true ? 'running' : 'stopped';
        vm.tools = powerOn === true ? 'toolsOk' : 'toolsNotRunning';
        state.store.vms.set(id, vm);
        return { ok: true, result: id };
      },
    });
  });

function powerActionOf(body: JsonObject): 'on' | 'off' | undefined {
  const action = optional(body, 'powerAction');
  if (action === undefined) return undefined;
  if (action !== 'on' && action !== 'off') bad(`'powerAction' must be "on" or "off".`);
  return action;
}

function patchVm(state: SandboxState, ctx: RequestContext, principal: Principal, id: string, body: JsonObject): void {
  const vm = state.store.vms.get(id);
  if (!vm) return sendConsoleError(ctx, 404, `Virtual machine ${id} not found.`);
  const name = optional(body, 'name') === undefined ? undefined : nameField(body);
  const cpu = intField(body, 'cpu', 1, 128);
  const cores = intField(body, 'numCoresPerSocket', 1, 128);
  const memory = intField(body, 'memory', 256 * MIB, 4096 * GIB);
  const powerAction = powerActionOf(body);
  if (name === undefined && cpu === undefined && cores === undefined && memory === undefined && powerAction === undefined) {
    bad('Nothing to change: send at least one of name, cpu, numCoresPerSocket, memory, powerAction.');
  }
  if (powerAction !== undefined && vm.template) bad('A template cannot be powered on or off.');
  const description = powerAction !== undefined ? `Power ${powerAction} virtual machine '${vm.name}'` : `Update virtual machine '${vm.name}'`;
  startActivity(state, ctx, principal, {
    description,
    type: 'ComputeActivity',
    concernedItems: [{ type: 'virtual_machine', id }],
    apply: () => {
      const target = state.store.vms.get(id);
      if (!target) return { ok: false, reason: `Virtual machine ${id} no longer exists.` };
      if (name !== undefined) target.name = name;
      if (cpu !== undefined) target.cpu = cpu;
      if (cores !== undefined) target.numCoresPerSocket = cores;
      if (memory !== undefined) target.memory = memory;
      if (powerAction !== undefined) {
        target.powerState = powerAction === 'on' ? 'running' : 'stopped';
        target.tools = powerAction === 'on' ? 'toolsOk' : 'toolsNotRunning';
      }
      return { ok: true, result: id };
    },
  });
}

export const updateVm: Handler = (state, ctx, principal, params) => guarded(ctx, () => patchVm(state, ctx, principal, params.id ?? '', jsonObject(ctx)));

/** Production-style power route: PATCH .../vcenters/virtual_machines/power {id, datacenterId?, powerAction}. */
export const powerVm: Handler = (state, ctx, principal) =>
  guarded(ctx, () => {
    const body = jsonObject(ctx);
    const id = body.id;
    if (!isString(id)) bad(`'id' is required.`);
    if (optional(body, 'powerAction') === undefined) bad(`'powerAction' is required.`);
    patchVm(state, ctx, principal, id, { powerAction: body.powerAction });
  });

export const deleteVm: Handler = (state, ctx, principal, params) => {
  const id = params.id ?? '';
  const vm = state.store.vms.get(id);
  if (!vm) return sendConsoleError(ctx, 404, `Virtual machine ${id} not found.`);
  startActivity(state, ctx, principal, {
    description: `Delete virtual machine '${vm.name}'`,
    type: 'ComputeActivity',
    concernedItems: [{ type: 'virtual_machine', id }],
    apply: () => (state.store.vms.delete(id) ? { ok: true, result: id } : { ok: false, reason: `Virtual machine ${id} no longer exists.` }),
  });
};

// ---- users, roles -------------------------------------------------------------------------------

function userView(state: SandboxState, user: User): Record<string, unknown> {
  const view: Record<string, unknown> = { ...user };
  if (state.profile === 'production') Object.assign(view, { companyId: state.identity.companyId, locale: 'fr' });
  return view;
}

export const listUsers: Handler = (state, ctx) => sendList(state, ctx, state.store.users.values(), (u) => userView(state, u), (u) => u.name);

/** Production path: GET /api/iam/v2/users?companyId=<companyId claim of the JWT>. */
export const listUsersByCompany: Handler = (state, ctx, principal) => {
  const companyId = ctx.url.searchParams.get('companyId');
  if (!companyId) return sendConsoleError(ctx, 400, `'companyId' query parameter is required.`);
  if (companyId !== principal.companyId) return sendConsoleError(ctx, 403, 'The token does not give access to this company.');
  listUsers(state, ctx, principal, {});
};

export const readUser: Handler = (state, ctx, _principal, params) => {
  const user = state.store.users.get(params.id ?? '');
  if (!user) return sendConsoleError(ctx, 404, `User ${params.id ?? ''} not found.`);
  sendJson(ctx, 200, userView(state, user));
};

export const createUser: Handler = (state, ctx, principal) =>
  guarded(ctx, () => {
    const body = jsonObject(ctx);
    const name = nameField(body);
    const email = body.email;
    if (!isString(email) || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) bad(`'email' is required and must be an email address.`);
    const type = optional(body, 'type') ?? 'LocalAccount';
    if (!isString(type)) bad(`'type' must be a string.`);
    const { id } = state.store.newId('user');
    startActivity(state, ctx, principal, {
      description: `Create user '${name}'`,
      type: 'IAMActivity',
      concernedItems: [{ type: 'user', id }],
      apply: () => {
        state.store.users.set(id, { id, internalId: state.store.newId('user-internal').id, name, type, source: 'local', sourceId: state.store.newId('user-source').id, email, emailVerified: false });
        return { ok: true, result: id };
      },
    });
  });

export const listRoles: Handler = (state, ctx) =>
  sendList(
    state,
    ctx,
    state.store.roles.values(),
    (r) => (state.profile === 'production' ? { ...r, description: `Permission ${r.name}` } : { ...r }),
    (r) => r.name,
  );

// ---- networks -----------------------------------------------------------------------------------

function networkView(state: SandboxState, network: Network): Record<string, unknown> {
  const view: Record<string, unknown> = { ...network };
  if (state.profile === 'production') view.type = 'DistributedVirtualPortgroup';
  return view;
}

export const listNetworks: Handler = (state, ctx) => sendList(state, ctx, state.store.networks.values(), (n) => networkView(state, n), (n) => n.name);

export const createNetwork: Handler = (state, ctx, principal) =>
  guarded(ctx, () => {
    const body = jsonObject(ctx);
    const name = nameField(body);
    const { id, n } = state.store.newId('network');
    startActivity(state, ctx, principal, {
      description: `Create virtual network '${name}'`,
      type: 'ComputeActivity',
      concernedItems: [{ type: 'virtual_network', id }],
      apply: () => {
        state.store.networks.set(id, { id, name, moref: `dvportgroup-${n}`, virtualMachinesNumber: 0, hostNumber: 2 });
        return { ok: true, result: id };
      },
    });
  });

// ---- activities ---------------------------------------------------------------------------------

export const listActivities: Handler = (state, ctx) =>
  sendList(state, ctx, state.activities.list(), (a) => state.activities.view(a), (a) => a.description);

export const readActivity: Handler = (state, ctx, _principal, params) => {
  const activity = state.activities.read(params.id ?? '');
  if (!activity) return sendConsoleError(ctx, 404, `Activity ${params.id ?? ''} not found.`);
  sendJson(ctx, 200, state.activities.view(activity));
};
