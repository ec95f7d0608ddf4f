import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { createInterface } from 'node:readline';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { parseOptions } from '../../../src/mcp/options';
import { createStratusMcp } from '../../../src/mcp/server';
import { LineStdioTransport } from '../../../src/mcp/stdioTransport';
import { Fixtures } from '../console/helpers';
import { sandboxEnv } from './helpers';

type Run = (payload: unknown, ctx: unknown) => unknown;

describe('mcp server: the stdio transport reads a request by its own schema', function () {
  this.timeout(30_000);
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  it('a tool call is not parsed by the schema of every message (a union that copies it); a malformed line is reported and the next one served; lines split across chunks and CRLF are read', async () => {
    const sb = await fx.sandbox({ profile: 'contract' });
    const mcp = createStratusMcp(parseOptions([], sandboxEnv(sb)));
    const input = new PassThrough();
    const output = new PassThrough();
    const transport = new LineStdioTransport(input, output);
    const errors: Error[] = [];
    const answers = createInterface({ input: output })[Symbol.asyncIterator]();
    const answer = async (): Promise<{ id?: number; result?: { isError?: boolean; content?: Array<{ text: string }> }; error?: unknown }> => JSON.parse(((await answers.next()).value as string) ?? '') as never;
    const zod = (JSONRPCMessageSchema as unknown as { _zod: { run: Run } })._zod;
    const original = zod.run;
    let unionRuns = 0;
    try {
      await mcp.connect(transport);
      mcp.server.server.onerror = (error) => errors.push(error);
      input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\r\n`);
      assert.equal((await answer()).id, 1);
      input.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      zod.run = (payload, ctx) => {
        unionRuns++;
        return original.call(zod, payload, ctx);
      };
      const line = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_resources', arguments: { kind: 'virtualMachines', limit: 3 } } });
      input.write(line.slice(0, 20));
      input.write(`${line.slice(20)}\n`);
      const listed = await answer();
      // Before (the SDK's StdioServerTransport): the union parsed every line, this one too (1).
      assert.equal(unionRuns, 0);
      assert.equal(listed.id, 2);
      assert.notEqual(listed.result?.isError, true);
      assert.equal((JSON.parse(listed.result?.content?.[0]?.text ?? '') as { items: unknown[] }).items.length, 3);
      // Not JSON, then not a message: each reported, the server goes on.
      input.write('{not json\n');
      input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: 5 })}\n`);
      input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'list_resource_kinds', arguments: {} } })}\n`);
      const kinds = await answer();
      assert.equal(kinds.id, 4);
      assert.notEqual(kinds.result?.isError, true);
      // The malformed request is checked once, by the router (dispatch.ts, then the SDK's, which
      // reports it), not by the union; the JSON error is JSON.parse's.
      assert.equal(unionRuns, 0);
      assert.equal(errors.length, 2);
      assert.match(errors[1]?.message ?? '', /Unknown message type/);
    } finally {
      zod.run = original;
      await mcp.close();
    }
  });
});
