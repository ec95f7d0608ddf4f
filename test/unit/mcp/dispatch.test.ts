import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolRequestSchema, CallToolResultSchema, ErrorCode, JSONRPCErrorResponseSchema, JSONRPCResultResponseSchema } from '@modelcontextprotocol/sdk/types.js';
import type { DispatchCounts } from '../../../src/mcp/dispatch';
import { parseOptions } from '../../../src/mcp/options';
import { createStratusMcp } from '../../../src/mcp/server';
import { Fixtures } from '../console/helpers';
import { sandboxEnv } from './helpers';

type Parse = (value: unknown) => { success: boolean };

/** Counts the messages with a `method` (requests and notifications) tried as responses while `body` runs. */
async function requestsTriedAsResponses(body: () => Promise<void>): Promise<number> {
  const schemas = [JSONRPCResultResponseSchema, JSONRPCErrorResponseSchema] as unknown as Array<{ safeParse: Parse }>;
  const originals = schemas.map((s) => s.safeParse);
  let tried = 0;
  schemas.forEach((schema, i) => {
    const original = originals[i] as Parse;
    schema.safeParse = (value: unknown) => {
      if (typeof value === 'object' && value !== null && 'method' in value) tried++;
      return original.call(schema, value);
    };
  });
  try {
    await body();
  } finally {
    schemas.forEach((schema, i) => {
      schema.safeParse = originals[i] as Parse;
    });
  }
  return tried;
}

describe('mcp server: each request goes straight to its handler (no failing response parses per call)', function () {
  this.timeout(30_000);
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  it('a tool call and a notification reach their handlers without being parsed as responses first; a malformed message still takes the SDK path', async () => {
    const sb = await fx.sandbox({ profile: 'contract' });
    const mcp = createStratusMcp(parseOptions([], sandboxEnv(sb)));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const counts: DispatchCounts = { requests: 0, direct: 0, notifications: 0, other: 0 };
    const errors: Error[] = [];
    const client = new Client({ name: 'stratus-test', version: '1.0.0' });
    try {
      await mcp.connect(serverSide, counts);
      mcp.server.server.onerror = (error) => errors.push(error);
      let listed: unknown;
      const tried = await requestsTriedAsResponses(async () => {
        await client.connect(clientSide);
        listed = await client.callTool({ name: 'list_resources', arguments: { kind: 'virtualMachines', limit: 3 } });
      });
      // Before: the SDK's router tried every request and notification as a result and as an error response first.
      assert.equal(tried, 0);
      assert.deepEqual(counts, { requests: 2, direct: 1, notifications: 1, other: 0 }); // initialize, tools/call (directCalls.ts); notifications/initialized
      const result = listed as { isError?: boolean; content: Array<{ type: string; text: string }> };
      assert.notEqual(result.isError, true);
      assert.equal((JSON.parse(result.content[0]?.text ?? '') as { items: unknown[] }).items.length, 3);
      // Not a valid request (params must be an object): the SDK's router reports it, as before.
      await clientSide.send({ jsonrpc: '2.0', id: 99, method: 'tools/call', params: 5 } as never);
      assert.equal(counts.other, 1);
      assert.equal(errors.length, 1);
      assert.match(errors[0]?.message ?? '', /Unknown message type/);
    } finally {
      await client.close();
      await mcp.close();
    }
  });
});

type Run = (payload: { value: unknown }, ctx: unknown) => unknown;

/** Counts the runs of each schema (zod v4 runs `_zod.run` for every parse, whichever helper calls it) while `body` runs. */
async function schemaRuns(schemas: Record<string, unknown>, body: () => Promise<void>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const restore: Array<() => void> = [];
  for (const [name, schema] of Object.entries(schemas)) {
    const zod = (schema as { _zod: { run: Run } })._zod;
    const original = zod.run;
    counts[name] = 0;
    zod.run = (payload, ctx) => {
      counts[name] = (counts[name] ?? 0) + 1;
      return original.call(zod, payload, ctx);
    };
    restore.push(() => (zod.run = original));
  }
  try {
    await body();
  } finally {
    for (const undo of restore) undo();
  }
  return counts;
}

describe('mcp server: a tool call is parsed once (no second request parse, no parse of our own result)', function () {
  this.timeout(30_000);
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  it('tools/call runs CallToolRequestSchema once and CallToolResultSchema never; a malformed or task-augmented call is still refused before any tool runs', async () => {
    const sb = await fx.sandbox({ profile: 'contract' });
    const mcp = createStratusMcp(parseOptions([], sandboxEnv(sb)));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const answers = new Map<number, { result?: { isError?: boolean; content?: Array<{ text: string }> }; error?: { code: number; message: string } }>();
    let answered: () => void = () => undefined;
    clientSide.onmessage = (message) => {
      if ('id' in message && typeof message.id === 'number') {
        answers.set(message.id, message as never);
        answered();
      }
    };
    const call = async (id: number, params: unknown): Promise<void> => {
      const got = new Promise<void>((resolve) => (answered = () => answers.has(id) && resolve()));
      await clientSide.send({ jsonrpc: '2.0', id, method: 'tools/call', params } as never);
      await got;
    };
    try {
      await mcp.connect(serverSide);
      await clientSide.start();
      const init = new Promise<void>((resolve) => (answered = () => answers.has(1) && resolve()));
      await clientSide.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
      await init;
      // The tools capability is declared as before (McpServer declares it with the first tool).
      assert.deepEqual((answers.get(1)?.result as { capabilities?: unknown } | undefined)?.capabilities, { tools: { listChanged: true } });
      await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      // A _meta field of its own sends the call the SDK's way (a plain one is answered by directCalls.ts).
      const page = { name: 'list_resources', arguments: { kind: 'virtualMachines', limit: 3 }, _meta: { 'example.com/trace': 'x' } };
      const runs = await schemaRuns({ request: CallToolRequestSchema, result: CallToolResultSchema }, () => call(2, page));
      // Before: the SDK's Server parsed the request a second time and our result once more (2 and 1).
      assert.deepEqual(runs, { request: 1, result: 0 });
      const listed = answers.get(2)?.result;
      assert.notEqual(listed?.isError, true);
      assert.equal((JSON.parse(listed?.content?.[0]?.text ?? '') as { items: unknown[] }).items.length, 3);
      // Bad arguments are still the tool's own validation: a tool error, nothing sent.
      await call(3, { name: 'list_resources', arguments: { kind: 'virtualMachines', limit: 'many' } });
      assert.equal(answers.get(3)?.result?.isError, true);
      // A malformed tools/call (no tool name) is refused by the one request parse with an error
      // answer (the SDK's base Protocol's, as before), no tool run.
      await call(4, { arguments: {} });
      assert.equal(answers.get(4)?.result, undefined);
      assert.equal(answers.get(4)?.error?.code, ErrorCode.InternalError);
      // A task-augmented call is refused as before (this server offers no tasks), no tool run.
      await call(5, { ...page, task: { ttl: 1000 } });
      assert.equal(answers.get(5)?.result, undefined);
      assert.ok(answers.get(5)?.error);
    } finally {
      await clientSide.close();
      await mcp.close();
    }
  });
});
