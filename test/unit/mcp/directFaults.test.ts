import assert from 'node:assert/strict';
import type { RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { DirectToolCalls } from '../../../src/mcp/directCalls';
import { Fixtures } from '../console/helpers';
import { sandboxEnv } from './helpers';
import { rawHost } from './rawHost';

describe('mcp server: a direct call\'s faults (a handler that throws, a schema that cannot parse synchronously)', function () {
  this.timeout(30_000);
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  it('a handler that throws with the PAT in its message: a redacted tool error on either path, and the server goes on', async () => {
    const sb = await fx.sandbox({ profile: 'production' });
    const host = await rawHost(sandboxEnv(sb), true);
    try {
      const tools = (host.mcp.server as unknown as { _registeredTools: Record<string, RegisteredTool> })._registeredTools;
      const usage = tools.get_usage as RegisteredTool;
      usage.handler = (() => {
        throw new Error(`boom with ${sb.credentials.patId}:${sb.credentials.patSecret}`);
      }) as never;
      const direct = await host.exchange('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_usage"}}');
      const viaSdk = await host.exchange('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_usage","_meta":{"example.com/x":1}}}');
      assert.equal(host.counts.direct, 1);
      for (const answer of [direct, viaSdk]) {
        assert.match(answer, /"isError":true/);
        assert.match(answer, /boom with/);
        assert.doesNotMatch(answer, new RegExp(sb.credentials.patSecret));
      }
      assert.equal(direct, viaSdk);
      assert.match(await host.exchange('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_resource_kinds"}}'), /virtualMachines/);
    } finally {
      await host.close();
    }
  });

  it('a tool whose schema refines asynchronously is left to the SDK (which parses asynchronously), not thrown out of the transport', () => {
    const tool = { enabled: true, inputSchema: z.object({ a: z.string().refine(async () => Promise.resolve(true)) }), handler: () => ({ content: [] }) } as unknown as RegisteredTool;
    const direct = new DirectToolCalls({ _requestHandlerAbortControllers: new Map() } as never, { send: () => Promise.resolve() } as never, (text) => ({ content: [{ type: 'text', text }], isError: true }));
    direct.add('t', tool);
    assert.equal(direct.tryAnswer({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: { a: 'x' } } }), false);
  });
});
