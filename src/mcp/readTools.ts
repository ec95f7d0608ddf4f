import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { checkPathId } from '../core/console/catalog/routes';
import { isStratusError } from '../core/errors';
import { ToolRefusal } from './failures';
import { compactActivity, compactResource, detailedResource } from './records';
import { clientOf, findResource, guarded, jsonResult, kindOf, registeringInto, safeId, type ToolKit } from './toolKit';

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true } as const;

/** The kind argument: one of the catalog's ids. */
export function kindSchema(kindIds: readonly string[]): z.ZodType<string> {
  const [first, ...rest] = kindIds;
  return (first === undefined ? z.string() : z.enum([first, ...rest])).describe('Resource kind id, as list_resource_kinds gives it (e.g. "virtualMachines").');
}

export const idSchema = z.string().min(1).max(200);

/** list_resource_kinds, list_resources, get_resource, list_activities, get_activity; returns them by name. */
export function registerReadTools(server: McpServer, kit: ToolKit, kindIds: readonly string[]): Map<string, RegisteredTool> {
  const tools = new Map<string, RegisteredTool>();
  const register = registeringInto(server, tools);
  register(
    'list_resource_kinds',
    {
      title: 'List resource kinds',
      description: 'Lists the kinds of cloud resources this console has (virtual machines, users, networks, roles...), with the actions each supports and whether one can be read by id. Call this first to learn the kind ids the other tools take.',
      inputSchema: {},
      annotations: { ...READ, openWorldHint: false },
    },
    () =>
      guarded(kit, () => ({ what: 'Listing resource kinds' }), () => {
        const client = clientOf(kit);
        return Promise.resolve(
          jsonResult(kit, {
            kinds: client.catalog.kinds.map((k) => ({
              id: k.id,
              name: k.label.plural,
              readOnly: k.readOnly,
              readOneById: k.item !== undefined,
              actions: k.actions.map((a) => a.id),
            })),
            writesAllowed: kit.options.allowWrites,
          }),
        );
      }),
  );

  register(
    'list_resources',
    {
      title: 'List cloud resources',
      description: 'Lists resources of one kind, one page at a time: id, name, state and a one-line summary each. Filter by name (contains, case-insensitive); page with offset (use nextOffset of the previous answer). Use get_resource for one resource in detail.',
      inputSchema: {
        kind: kindSchema(kindIds),
        name: z.string().max(200).optional().describe('Only resources whose name contains this text (case-insensitive).'),
        limit: z.number().int().min(1).max(200).optional().describe('Page size, 1 to 200 (default 50).'),
        offset: z.number().int().min(0).max(10_000_000).optional().describe('Where the page starts: 0, or nextOffset from the previous answer.'),
      },
      annotations: { ...READ, title: 'List cloud resources' },
    },
    (args, extra) => {
      let plural: string | undefined;
      return guarded(kit, () => ({ what: `Listing ${plural ?? args.kind}`, kindPlural: plural }), async () => {
        const client = clientOf(kit);
        const kind = kindOf(client, args.kind);
        plural = kind.label.plural.toLowerCase();
        const limit = args.limit ?? 50;
        const page = await client.list(kind.id, { limit, offset: args.offset ?? 0, ...(args.name ? { name: args.name } : {}), signal: extra.signal });
        return jsonResult(kit, {
          kind: kind.id,
          items: page.items.slice(0, limit).map((item) => compactResource(client.catalog, kind.id, item)),
          ...(page.total !== undefined ? { total: page.total } : {}),
          ...(page.nextOffset !== undefined ? { nextOffset: page.nextOffset } : {}),
          ...(page.partial ? { partial: true } : {}),
          ...(page.filteredHere ? { note: 'The console ignored the name filter; this page was filtered here, and later pages may hold more matches (use nextOffset).' } : {}),
        });
      });
    },
  );

  register(
    'get_resource',
    {
      title: 'Get one cloud resource',
      description: 'One resource by kind and id: its main fields and the actions possible on it now. Set full to true for the whole record (secrets are redacted); leave it off unless the fields shown are not enough.',
      inputSchema: {
        kind: kindSchema(kindIds),
        id: idSchema.describe('The resource id, from list_resources.'),
        full: z.boolean().optional().describe('Include the whole record (default false).'),
      },
      annotations: { ...READ, title: 'Get one cloud resource' },
    },
    (args, extra) =>
      guarded(kit, () => ({ what: `Reading ${args.kind} ${args.id.slice(0, 80)}` }), async () => {
        const client = clientOf(kit);
        const kind = kindOf(client, args.kind);
        const item = await findResource(client, kind, safeId(args.id), extra.signal);
        return jsonResult(kit, detailedResource(client.catalog, kind.id, item, args.full === true));
      }),
  );

  register(
    'list_activities',
    {
      title: 'List recent activities',
      description: 'Lists the console\'s recent activities (the asynchronous operations every write starts), newest first: id, type, description, state (waiting, running, completed, failed) and the resources concerned.',
      inputSchema: {
        limit: z.number().int().min(1).max(100).optional().describe('How many, 1 to 100 (default 20).'),
        offset: z.number().int().min(0).max(10_000_000).optional().describe('Where the page starts: 0, or nextOffset from the previous answer.'),
      },
      annotations: { ...READ, title: 'List recent activities' },
    },
    (args, extra) =>
      guarded(kit, () => ({ what: 'Listing activities' }), async () => {
        const client = clientOf(kit);
        const limit = args.limit ?? 20;
        const page = await client.activities.list({ limit, offset: args.offset ?? 0, signal: extra.signal });
        return jsonResult(kit, {
          items: page.items.slice(0, limit).map((a) => compactActivity(a)),
          ...(page.total !== undefined ? { total: page.total } : {}),
          ...(page.nextOffset !== undefined ? { nextOffset: page.nextOffset } : {}),
        });
      }),
  );

  register(
    'get_activity',
    {
      title: 'Get one activity',
      description: 'One activity by id (a write\'s tracking id): its state, progression, failure reason or result. Use it to check on a write started without wait, or one whose outcome was unknown.',
      inputSchema: { id: idSchema.describe('The activity id a write returned, or from list_activities.') },
      annotations: { ...READ, title: 'Get one activity' },
    },
    (args, extra) =>
      guarded(kit, () => ({ what: `Reading activity ${args.id.slice(0, 80)}` }), async () => {
        const client = clientOf(kit);
        const id = checkPathId(args.id);
        const activity = await client.activities.get(id, { signal: extra.signal }).catch((error: unknown) => {
          // The console shows a new activity a moment after the write that started it (field-notes.md).
          if (isStratusError(error) && error.kind === 'not_found') throw new ToolRefusal(`Activity ${id} was not found (404). A just-started activity can take a few seconds to appear: call get_activity again shortly; otherwise check the id with list_activities.`);
          throw error;
        });
        return jsonResult(kit, compactActivity(activity));
      }),
  );
  return tools;
}
