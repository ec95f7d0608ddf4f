import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { connectWithDirectDispatch } from '../../../src/mcp/dispatch';
import { parseOptions } from '../../../src/mcp/options';
import { createStratusMcp } from '../../../src/mcp/server';
import { LineStdioTransport } from '../../../src/mcp/stdioTransport';
import { Fixtures } from '../console/helpers';
import { sandboxEnv } from './helpers';
import { holdingConsole } from './holdingConsole';
import { rawHost } from './rawHost';

/** A transport that records what is sent and still hands on a line read before it closed. */
class LateTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly sent: JSONRPCMessage[] = [];
  start(): Promise<void> {
    return Promise.resolve();
  }
  send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
    return Promise.resolve();
  }
  close(): Promise<void> {
    this.onclose?.();
    return Promise.resolve();
  }
}

type Outcome = 'answered' | 'aborted';

/** The SDK's own controllers of running requests (not in its typings). */
const controllersOf = (host: Awaited<ReturnType<typeof rawHost>>): Map<unknown, AbortController> =>
  (host.mcp.server.server as unknown as { _requestHandlerAbortControllers: Map<unknown, AbortController> })._requestHandlerAbortControllers;

describe('mcp server: cancellation and close of a direct call are the SDK\'s own (same ids, same checks)', function () {
  this.timeout(60_000);
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  /**
   * Runs `scenario` on a server with the direct path or without it, over a console that holds
   * every page (limit n) until released; returns, by page, whether its call was answered or its
   * console request aborted. The pages in `cancelled` are released only once aborted.
   */
  async function outcomes(direct: boolean, cancelled: number[], scenario: (h: { call: (id: number | string, limit: number, meta?: unknown) => Promise<void>; cancel: (params: unknown) => Promise<void>; ping: () => Promise<void> }) => Promise<void>) {
    const { stub, held, aborted, until } = await holdingConsole(fx);
    const host = await rawHost({ STRATUS_CONSOLE_BASE_URL: stub.url, STRATUS_PAT_ID: 'id', STRATUS_PAT_SECRET: 'stub-secret-not-real' }, direct);
    const ids = new Map<string, number | string>();
    let pings = 0;
    try {
      await scenario({
        call: async (id, limit, meta) => {
          ids.set(String(limit), id);
          await host.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'list_resources', arguments: { kind: 'virtualMachines', limit }, ...(meta ? { _meta: meta } : {}) } });
          await until(() => held.has(String(limit)));
        },
        cancel: (params) => host.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params }),
        // A round trip after a notification: the server has handled it.
        ping: async () => void (await host.exchange(`{"jsonrpc":"2.0","id":"ping-${++pings}","method":"ping"}`)),
      });
      // The pages cancelled as the SDK cancels are aborted; the others are then answered.
      await until(() => cancelled.every((limit) => aborted.has(String(limit))));
      for (const release of held.values()) release();
      const result = new Map<string, Outcome>();
      // Each page ends answered (its id has an answer) or aborted (the console saw the client leave).
      const answeredPage = (limit: string): boolean => {
        const answer = host.answers.get(ids.get(limit)) as { result?: { content?: Array<{ text: string }> } } | undefined;
        return (answer?.result?.content?.[0]?.text ?? '').includes(`vm-${limit}`);
      };
      const waitAnswers = async (): Promise<void> => {
        for (const limit of held.keys()) {
          while (!answeredPage(limit) && !aborted.has(limit)) await new Promise((r) => setImmediate(r));
          result.set(limit, answeredPage(limit) ? 'answered' : 'aborted');
        }
      };
      await waitAnswers();
      // Nothing of a finished, cancelled or aborted call is kept.
      assert.equal(controllersOf(host).size, 0);
      return Object.fromEntries([...result].sort());
    } finally {
      await host.close();
    }
  }

  it('a cancel for id 0, a cancel whose reason is no string, a cancel of an id reused on the SDK\'s path: the same outcome as without the direct path', async () => {
    const scenario = async (h: Parameters<Parameters<typeof outcomes>[2]>[0]): Promise<void> => {
      // Id 0: the SDK takes no cancel for it (its requestId is falsy).
      await h.call(0, 10);
      await h.cancel({ requestId: 0 });
      // A reason that is no string: the SDK's notification schema refuses the cancel.
      await h.call(2, 12);
      await h.cancel({ requestId: 2, reason: 5 });
      // Id 3 twice: the second (the SDK's path, for its _meta) takes the first one's place.
      await h.call(3, 13);
      await h.call(3, 23, { 'example.com/trace': 'x' });
      await h.cancel({ requestId: 3, reason: 'stop' });
      // A plain cancel of a plain call.
      await h.call('four', 14);
      await h.cancel({ requestId: 'four' });
      await h.ping();
    };
    const sdk = await outcomes(false, [14, 23], scenario);
    assert.deepEqual(sdk, { 10: 'answered', 12: 'answered', 13: 'answered', 14: 'aborted', 23: 'aborted' });
    assert.deepEqual(await outcomes(true, [14, 23], scenario), sdk);
  });

  it('a plain call handed on after the server closed its transport: no answer on either path (the SDK sends none once closed)', async () => {
    const sb = await fx.sandbox({ profile: 'production' });
    const sent: Record<string, unknown[]> = {};
    for (const direct of [true, false]) {
      const mcp = createStratusMcp(parseOptions([], sandboxEnv(sb)));
      const transport = new LateTransport();
      if (direct) await mcp.connect(transport);
      else await connectWithDirectDispatch(mcp.server.server, transport);
      const running = (mcp.server.server as unknown as { _requestHandlerAbortControllers: Map<unknown, AbortController> })._requestHandlerAbortControllers;
      await mcp.close();
      transport.onmessage?.({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_resource_kinds' } });
      // The call ran (its controller is gone once its handler is done), then whatever it sends is sent.
      while (running.size > 0) await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      sent[direct ? 'direct' : 'sdk'] = transport.sent;
    }
    assert.deepEqual(sent, { direct: [], sdk: [] });
  });

  it('over stdio, a call of a tool that needs no console and its cancel in one chunk: not answered on either path (the cancel is handled before the call ends)', async () => {
    const sb = await fx.sandbox({ profile: 'production' });
    const answered: Record<string, string[]> = {};
    for (const direct of [true, false]) {
      const mcp = createStratusMcp(parseOptions([], sandboxEnv(sb)));
      const input = new PassThrough();
      const output = new PassThrough();
      const transport = new LineStdioTransport(input, output);
      const ids: string[] = [];
      output.on('data', (chunk: Buffer) => {
        for (const line of chunk.toString('utf8').split('\n')) if (line) ids.push(String((JSON.parse(line) as { id?: unknown }).id));
      });
      if (direct) await mcp.connect(transport);
      else await connectWithDirectDispatch(mcp.server.server, transport);
      const running = (mcp.server.server as unknown as { _requestHandlerAbortControllers: Map<unknown, AbortController> })._requestHandlerAbortControllers;
      const lines = [
        { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'list_resource_kinds' } },
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } },
        { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'get_usage' } },
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 6 } },
        // Not cancelled: answered.
        { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'list_resource_kinds' } },
      ];
      input.write(`${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
      while (running.size > 0 || !ids.includes('7')) await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      answered[direct ? 'direct' : 'sdk'] = ids;
      await mcp.close();
    }
    assert.deepEqual(answered, { direct: ['7'], sdk: ['7'] });
  });
});
