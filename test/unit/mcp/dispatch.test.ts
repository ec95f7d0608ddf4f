import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { JSONRPCErrorResponseSchema, JSONRPCResultResponseSchema } from '@modelcontextprotocol/sdk/types.js';
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
    const counts: DispatchCounts = { requests: 0, notifications: 0, other: 0 };
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
      assert.deepEqual(counts, { requests: 2, notifications: 1, other: 0 }); // initialize, tools/call; notifications/initialized
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
