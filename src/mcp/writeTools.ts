import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ConsoleClient } from '../core/console';
import { changedInput } from '../core/console/catalog/actionInputs';
import type { ActionSpec } from '../core/console/catalog/kindSpecs';
import type { Activity, ResourceItem } from '../core/console/types';
import { confirmDestructive } from './confirm';
import type { FailureContext } from './failures';
import { ToolRefusal } from './failures';
import { idSchema, kindSchema } from './readTools';
import { compactActivity, detailedResource } from './records';
import { clientOf, findResource, guarded, jsonResult, kindOf, plainText, safeId, type Extra, type ToolKit } from './toolKit';

interface WriteCall {
  readonly kind: string;
  readonly action: string;
  readonly id?: string | undefined;
  readonly input?: Readonly<Record<string, string | number | boolean>> | undefined;
  readonly wait?: boolean | undefined;
}

const inputSchema = z
  .record(z.union([z.string().max(2_000), z.number(), z.boolean()]))
  .describe('Field values keyed by input name (list_resource_kinds and get_resource show the kind; e.g. {"name": "web-1", "cpu": 2, "memoryGiB": 4} for a virtual machine).');
const waitSchema = z.boolean().optional().describe('true: follow the activity to its end (progress notifications), then return the resulting resource. false (default): return the activity id at once.');

function stateLine(activity: Activity): string {
  const s = activity.state;
  if (s.kind === 'running') return `running${s.progression !== undefined ? ` ${Math.round(s.progression)}%` : ''}${s.status ? ` (${s.status})` : ''}`;
  return s.kind;
}

/** The action of a kind, or a refusal naming the ones it has. */
function actionOf(client: ConsoleClient, kindId: string, actionId: string): ActionSpec {
  const kind = kindOf(client, kindId);
  const action = kind.actions.find((a) => a.id === actionId);
  if (!action) throw new ToolRefusal(`${kind.label.plural} have no "${actionId}" action. Actions: ${kind.actions.map((a) => a.id).join(', ') || 'none (read-only)'}. Nothing was sent.`);
  return action;
}

/** One write: checks, the target, confirmation where destructive, the request, then (on `wait`) the activity followed with progress. */
async function runWrite(server: McpServer, kit: ToolKit, call: WriteCall, extra: Extra, context: { activityId?: string | undefined }): Promise<CallToolResult> {
  const client = clientOf(kit);
  const kind = kindOf(client, call.kind);
  const action = actionOf(client, call.kind, call.action);
  const verb = action.label.replace(/(\.\.\.|…)$/, '');
  let target: ResourceItem | undefined;
  if (action.target === 'item') {
    if (call.id === undefined) throw new ToolRefusal(`${verb} acts on one ${kind.label.singular.toLowerCase()}: give its id (list_resources finds it). Nothing was sent.`);
    const id = safeId(call.id);
    target = await findResource(client, kind, id, extra.signal);
    const now = client.catalog.actionsFor(kind.id, target).map((a) => a.id);
    if (!now.includes(action.id)) throw new ToolRefusal(`${verb} is not possible on ${target.name} now. Actions possible now: ${now.join(', ') || 'none'}. Nothing was done.`);
  }
  // Only what changes is sent: a current value repeated is neither re-checked nor sent back.
  const input = action.id === 'modify' ? changedInput(client.catalog.initialInput(kind.id, action.id, target), call.input ?? {}) : { ...(call.input ?? {}) };
  if (action.method === 'DELETE' || action.id === 'powerOff') {
    await confirmDestructive(server, kit, `${verb} ${kind.label.singular.toLowerCase()} "${target?.name ?? call.id ?? ''}" (id ${target?.id ?? call.id ?? ''})?${action.method === 'DELETE' ? ' This cannot be undone.' : ''}`, extra.signal);
  }
  const { activityId } = await client.perform(kind.id, action.id, { ...(target ? { target } : {}), input, signal: extra.signal });
  context.activityId = activityId;
  if (call.wait !== true) {
    return jsonResult(kit, { activityId, state: 'accepted', next: `The change runs on the server. Call get_activity with id ${activityId} to see its state, or pass wait: true next time.` });
  }
  const progressToken = extra._meta?.progressToken;
  let step = 0;
  const report = (message: string): void => {
    if (progressToken === undefined) return;
    step += 1;
    extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: step, message: plainText(kit, message) } }).catch(() => undefined);
  };
  report(`${verb}: activity ${activityId} waiting`);
  const done = await client.activities.follow(activityId, {
    signal: extra.signal,
    initialDelayMs: kit.options.pollMs,
    maxDelayMs: Math.max(kit.options.pollMs, 30_000),
    timeoutMs: kit.options.followTimeoutMs,
    onUpdate: (activity) => report(`${verb}: activity ${activityId} ${stateLine(activity)}`),
  });
  const result = done.state.kind === 'completed' ? done.state.result : undefined;
  const afterId = action.method === 'DELETE' ? undefined : action.target === 'collection' ? result : target?.id;
  let resource: Record<string, unknown> | undefined;
  if (afterId) {
    const item = await findResource(client, kind, afterId, extra.signal).catch(() => undefined);
    if (item) resource = detailedResource(client.catalog, kind.id, item, false);
  }
  return jsonResult(kit, {
    activityId,
    state: 'completed',
    activity: compactActivity(done),
    ...(resource ? { resource } : action.method === 'DELETE' ? { deleted: target?.id } : afterId ? { resourceId: afterId, note: 'The resource could not be read back; call get_resource.' } : {}),
  });
}

/** The kinds that have an action, for a tool's kind enum. */
function kindsWith(kit: ToolKit, kindIds: readonly string[], actionId: string): string[] {
  const catalog = kit.client?.catalog;
  if (!catalog) return [...kindIds];
  const ids = catalog.kinds.filter((k) => k.actions.some((a) => a.id === actionId)).map((k) => k.id);
  return ids.length ? ids : [...kindIds];
}

function write(server: McpServer, kit: ToolKit, call: WriteCall, extra: Extra): Promise<CallToolResult> {
  const context: { activityId?: string | undefined } = {};
  const what = (): FailureContext => ({ what: `${call.action} ${call.kind}${call.id ? ` ${call.id.slice(0, 80)}` : ''}`, write: true, activityId: context.activityId });
  return guarded(kit, what, () => runWrite(server, kit, call, extra, context));
}

/** create_resource, modify_resource, power_on_resource, power_off_resource, delete_resource (only with writes allowed). */
export function registerWriteTools(server: McpServer, kit: ToolKit, kindIds: readonly string[]): void {
  const change = { readOnlyHint: false, openWorldHint: true } as const;
  server.registerTool(
    'create_resource',
    {
      title: 'Create a cloud resource',
      description: 'Creates a resource (a virtual machine, a user, a network...). Returns the activity id at once; with wait: true, follows it and returns the created resource. Creating twice creates two resources: check list_activities first when unsure whether a create went through.',
      inputSchema: { kind: kindSchema(kindsWith(kit, kindIds, 'create')), input: inputSchema, wait: waitSchema },
      annotations: { ...change, title: 'Create a cloud resource', destructiveHint: false, idempotentHint: false },
    },
    (args, extra) => write(server, kit, { kind: args.kind, action: 'create', input: args.input, wait: args.wait }, extra),
  );
  server.registerTool(
    'modify_resource',
    {
      title: 'Modify a cloud resource',
      description: 'Changes fields of one resource (name, vCPU, memory in GiB...). Only the fields given are changed. Returns the activity id; with wait: true, the changed resource.',
      inputSchema: { kind: kindSchema(kindsWith(kit, kindIds, 'modify')), id: idSchema.describe('The resource id.'), input: inputSchema, wait: waitSchema },
      annotations: { ...change, title: 'Modify a cloud resource', destructiveHint: false, idempotentHint: true },
    },
    (args, extra) => write(server, kit, { kind: args.kind, action: 'modify', id: args.id, input: args.input, wait: args.wait }, extra),
  );
  // The writes that take an id and nothing else: one shape, their words apart.
  const idOnly: ReadonlyArray<{ name: string; action: 'powerOn' | 'powerOff' | 'delete'; title: string; description: string; idText: string; destructive: boolean }> = [
    { name: 'power_on_resource', action: 'powerOn', title: 'Power on a virtual machine', description: 'Powers on a stopped virtual machine. Returns the activity id; with wait: true, the machine once running.', idText: 'The virtual machine id.', destructive: false },
    { name: 'power_off_resource', action: 'powerOff', title: 'Power off a virtual machine', description: 'Powers off a running virtual machine (a hard stop: unsaved work in it is lost). The user is asked to confirm. Returns the activity id; with wait: true, the machine once stopped.', idText: 'The virtual machine id.', destructive: true },
    { name: 'delete_resource', action: 'delete', title: 'Delete a cloud resource', description: 'Deletes one resource for good. The user is asked to confirm. Returns the activity id; with wait: true, waits until it is gone.', idText: 'The resource id.', destructive: true },
  ];
  for (const tool of idOnly) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: { kind: kindSchema(kindsWith(kit, kindIds, tool.action)), id: idSchema.describe(tool.idText), wait: waitSchema },
        annotations: { ...change, title: tool.title, destructiveHint: tool.destructive, idempotentHint: true },
      },
      (args, extra) => write(server, kit, { kind: args.kind, action: tool.action, id: args.id, wait: args.wait }, extra),
    );
  }
}
