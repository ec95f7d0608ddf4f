import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ConsoleClient } from '../core/console';
import type { ResourceKind } from '../core/console/catalog/kindSpecs';
import { checkPathId } from '../core/console/catalog/routes';
import { mayHoldSecretByLook, redactSecretText } from '../core/console/recordRedaction';
import type { ListPage, ResourceItem } from '../core/console/types';
import { isStratusError } from '../core/errors';
import { failureText, ToolRefusal, type FailureContext } from './failures';
import { isRedactedByLook, markRedactedByLook } from './records';
import type { McpOptions } from './options';

/** What every tool handler receives from the server. */
export interface ToolKit {
  /** The console client, or why there is none (flags or environment); every call then says it. */
  readonly client: ConsoleClient | undefined;
  readonly setupProblem: string | undefined;
  readonly options: McpOptions;
  /** The one redactor of this process (the transport's): every text leaving the server passes it. */
  readonly redact: (text: string) => string;
  readonly now: () => number;
}

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** `server.registerTool` that also keeps each tool by name in `into` (for directCalls.ts). */
export function registeringInto(server: McpServer, into: Map<string, RegisteredTool>): McpServer['registerTool'] {
  return ((name: string, ...rest: unknown[]): RegisteredTool => {
    const tool = (server.registerTool as (...args: unknown[]) => RegisteredTool).call(server, name, ...rest);
    into.set(name, tool);
    return tool;
  }) as McpServer['registerTool'];
}

/**
 * A JSON result: compact JSON text (what every host shows a model), redacted by value: every
 * string in it of secret-shaped values (private keys, JWTs, `PASSWORD=...`, URL signatures),
 * whatever its field is called (a record from redactRecord is so already: its strings are not
 * scanned twice), then the whole text of this process's known secrets, once.
 */
export function jsonResult(kit: ToolKit, value: unknown): CallToolResult {
  // Most answers (a listing's ids, names, states, summaries) hold no string a secret's look needs:
  // their plain JSON is the redacted JSON, without a replacer call for every value (3x slower).
  const text = lookClean(value, 0)
    ? JSON.stringify(value)
    : JSON.stringify(value, function byLook(this: unknown, _key: string, v: unknown): unknown {
        if (isRedactedByLook(this)) return markRedactedByLook(v);
        return typeof v === 'string' ? redactSecretText(v) : v;
      });
  return { content: [{ type: 'text', text: kit.redact(text) }] };
}

/**
 * Whether no string of `value` (outside a record redactRecord already redacted) can hold a secret
 * by its look. Anything JSON.stringify would not print as it is (a `toJSON`, very deep nesting)
 * counts as not clean: the replacer then decides, as it always did.
 */
function lookClean(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return !mayHoldSecretByLook(value);
  if (typeof value !== 'object' || value === null) return true;
  if (isRedactedByLook(value)) return true;
  if (depth > 32 || typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(value)) {
    for (const item of value) if (!lookClean(item, depth + 1)) return false;
    return true;
  }
  for (const key of Object.keys(value)) if (!lookClean((value as Record<string, unknown>)[key], depth + 1)) return false;
  return true;
}

/** A plain text leaving the server (an error, a progress message, a question to the user), redacted by value. */
export function plainText(kit: ToolKit, text: string): string {
  return kit.redact(redactSecretText(text));
}

/** A tool error with one line: what happened and what to do. */
export function errorResult(kit: ToolKit, text: string): CallToolResult {
  return { content: [{ type: 'text', text: plainText(kit, text) }], isError: true };
}

/**
 * Runs a handler; any failure (typed or not) becomes a one-line tool error, so one call's crash
 * never reaches the protocol or ends the server.
 */
export async function guarded(kit: ToolKit, context: () => FailureContext, body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    return errorResult(kit, failureText(error, { now: kit.now(), ...context() }));
  }
}

/** The client, or a refusal that says what to set. */
export function clientOf(kit: ToolKit): ConsoleClient {
  if (!kit.client) throw new ToolRefusal(kit.setupProblem ?? 'The server is not configured.');
  return kit.client;
}

/** A kind of the catalog (the schema already limits the names; this gives the kind itself). */
export function kindOf(client: ConsoleClient, kindId: string): ResourceKind {
  const kind = client.catalog.kinds.find((k) => k.id === kindId);
  if (!kind) throw new ToolRefusal(`Unknown resource kind "${kindId.slice(0, 60)}". Kinds: ${client.catalog.kinds.map((k) => k.id).join(', ')}. Nothing was sent.`);
  return kind;
}

/** Refuses an id that cannot go in a request path (`..`, separators, control characters), before any request. */
export function safeId(id: string): string {
  return checkPathId(id);
}

/**
 * One resource by id: read one where the kind can, else found in its list (at most 20 pages of
 * 200). A 404 is a refusal that says how to find ids.
 */
export async function findResource(client: ConsoleClient, kind: ResourceKind, id: string, signal: AbortSignal): Promise<ResourceItem> {
  const missing = (): ToolRefusal => new ToolRefusal(`There is no ${kind.label.singular.toLowerCase()} with id "${id}". Call list_resources with kind "${kind.id}" to find ids.`);
  if (kind.item) {
    try {
      return await client.get(kind.id, id, { signal });
    } catch (error) {
      if (isStratusError(error) && error.kind === 'not_found' && client.catalog.kind(kind.id).item) throw missing();
      throw error;
    }
  }
  let offset: number | undefined = 0;
  for (let pages = 0; offset !== undefined && pages < 20; pages++) {
    const page: ListPage<ResourceItem> = await client.list(kind.id, { offset, limit: 200, signal });
    const found = page.items.find((i) => i.id === id);
    if (found) return found;
    offset = page.nextOffset;
  }
  throw missing();
}
