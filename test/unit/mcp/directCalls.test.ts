import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { DirectToolCalls } from '../../../src/mcp/directCalls';
import type { DispatchCounts } from '../../../src/mcp/dispatch';
import { parseOptions } from '../../../src/mcp/options';
import { createStratusMcp, type StratusMcp } from '../../../src/mcp/server';
import { AUTH_PATH, fakeJwt, Fixtures, json, jwtClaims } from '../console/helpers';
import { sandboxEnv } from './helpers';

type Answer = { id: number; result?: { isError?: boolean; content?: Array<{ text: string }> }; error?: { code: number; message: string } };

/** A raw JSON-RPC client on an in-memory pair: sends lines as a host would and keeps every answer by id. */
async function rawSession(mcp: StratusMcp, counts: DispatchCounts) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const answers = new Map<number, Answer>();
  const waiters = new Map<number, () => void>();
  clientSide.onmessage = (message: JSONRPCMessage) => {
    if ('id' in message && typeof message.id === 'number' && !('method' in message)) {
      answers.set(message.id, message as Answer);
      waiters.get(message.id)?.();
    }
  };
  await mcp.connect(serverSide, counts);
  await clientSide.start();
  const answerOf = (id: number): Promise<Answer> =>
    answers.has(id) ? Promise.resolve(answers.get(id) as Answer) : new Promise((resolve) => waiters.set(id, () => resolve(answers.get(id) as Answer)));
  const request = async (id: number, method: string, params?: unknown): Promise<Answer> => {
    const answered = answerOf(id);
    await clientSide.send({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) } as JSONRPCMessage);
    return answered;
  };
  await request(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
  await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { clientSide, answers, answerOf, request, send: (m: unknown) => clientSide.send(m as JSONRPCMessage) };
}

const newCounts = (): DispatchCounts => ({ requests: 0, direct: 0, notifications: 0, other: 0 });

describe('mcp server: the read tools\' plain calls are answered on the direct path, the same answers as the SDK\'s', function () {
  this.timeout(30_000);
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  it('answers a read call directly (no request parse) with the SDK path\'s very answer; bad arguments, unknown tools, other _meta and tasks take the SDK\'s path', async () => {
    const sb = await fx.sandbox({ profile: 'production' });
    const mcp = createStratusMcp(parseOptions([], sandboxEnv(sb)));
    const counts = newCounts();
    const s = await rawSession(mcp, counts);
    try {
      const page = { name: 'list_resources', arguments: { kind: 'virtualMachines', limit: 3 } };
      let requestParses = 0;
      const direct = await (async () => {
        const zod = (CallToolRequestSchema as unknown as { _zod: { run: (...a: unknown[]) => unknown } })._zod;
        const run = zod.run;
        zod.run = (...a: unknown[]) => {
          requestParses++;
          return run.apply(zod, a);
        };
        try {
          return await s.request(2, 'tools/call', page);
        } finally {
          zod.run = run;
        }
      })();
      assert.equal(counts.direct, 1);
      assert.equal(requestParses, 0);
      // The same call with a _meta field the direct path does not know goes the SDK's way: same answer.
      const viaSdk = await s.request(3, 'tools/call', { ...page, _meta: { 'example.com/trace': 'x' } });
      assert.equal(counts.direct, 1);
      assert.deepEqual(direct.result, viaSdk.result);
      assert.equal((JSON.parse(direct.result?.content?.[0]?.text ?? '') as { items: unknown[] }).items.length, 3);
      // A progress token is plain: direct.
      assert.deepEqual((await s.request(4, 'tools/call', { ...page, _meta: { progressToken: 7 } })).result, direct.result);
      assert.equal(counts.direct, 2);
      // Every other read tool, and get_usage, without arguments where they take none.
      assert.notEqual((await s.request(5, 'tools/call', { name: 'list_resource_kinds' })).result?.isError, true);
      assert.notEqual((await s.request(6, 'tools/call', { name: 'get_usage', arguments: {} })).result?.isError, true);
      assert.notEqual((await s.request(7, 'tools/call', { name: 'list_activities', arguments: { limit: 2 } })).result?.isError, true);
      assert.equal(counts.direct, 5);
      // Arguments the schema refuses, an unknown tool, arguments that are no plain values: the SDK's own tool errors.
      const badType = await s.request(8, 'tools/call', { name: 'list_resources', arguments: { kind: 'virtualMachines', limit: 'many' } });
      assert.equal(badType.result?.isError, true);
      assert.match(badType.result?.content?.[0]?.text ?? '', /Input validation error: Invalid arguments for tool list_resources/);
      const unknown = await s.request(9, 'tools/call', { name: 'no_such_tool', arguments: {} });
      assert.match(unknown.result?.content?.[0]?.text ?? '', /Tool no_such_tool not found/);
      const nested = await s.request(10, 'tools/call', { name: 'list_resources', arguments: { kind: { $ne: 1 } } });
      assert.equal(nested.result?.isError, true);
      // Not a valid request (no name), a task: refused by the SDK as before, no tool run.
      assert.ok((await s.request(11, 'tools/call', { arguments: {} })).error);
      assert.ok((await s.request(12, 'tools/call', { ...page, task: { ttl: 1000 } })).error);
      assert.equal(counts.direct, 5);
    } finally {
      await s.clientSide.close();
      await mcp.close();
    }
  });

  it('a direct call cancelled by notifications/cancelled, or cut by the connection\'s close, aborts its request to the console and is never answered', async () => {
    // Each hanging page (by its limit) says when the console has it and when the client left it.
    const events = new Map<string, { arrived: () => void; left: () => void }>();
    const expect = (limit: number): { arrived: Promise<void>; left: Promise<void> } => {
      let arrived: () => void = () => undefined;
      let left: () => void = () => undefined;
      const promises = { arrived: new Promise<void>((r) => (arrived = r)), left: new Promise<void>((r) => (left = r)) };
      events.set(String(limit), { arrived, left });
      return promises;
    };
    const stub = await fx.stub((req, res: ServerResponse) => {
      if (req.path === AUTH_PATH) return res.end(fakeJwt(jwtClaims()));
      if (req.query.get('limit') === '1') return json(res, 200, { items: [{ id: 'vm-1', name: 'one' }], total: 1 });
      // Any other page never comes: only the client leaving ends it.
      const event = events.get(req.query.get('limit') ?? '');
      res.on('close', () => event?.left());
      event?.arrived();
    });
    const mcp = createStratusMcp(parseOptions([], { STRATUS_CONSOLE_BASE_URL: stub.url, STRATUS_PAT_ID: 'id', STRATUS_PAT_SECRET: 'stub-secret-not-real' }));
    const counts = newCounts();
    const s = await rawSession(mcp, counts);
    const pageOf = (limit: number) => ({ name: 'list_resources', arguments: { kind: 'virtualMachines', limit } });
    try {
      /** Sends a call whose console page hangs; resolves once the console has it, with the promise of the client leaving it. */
      const hanging = async (id: number, limit: number): Promise<{ left: Promise<void> }> => {
        const page = expect(limit);
        await s.send({ jsonrpc: '2.0', id, method: 'tools/call', params: pageOf(limit) });
        await page.arrived;
        return { left: page.left };
      };
      const cancelled = await hanging(2, 2);
      await s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'the user stopped it' } });
      // The next call is answered; the cancelled one never is, and its console request was dropped.
      assert.notEqual((await s.request(3, 'tools/call', pageOf(1))).result?.isError, true);
      await cancelled.left;
      assert.equal(s.answers.has(2), false);
      assert.equal(counts.direct, 2);
      // The connection closes with a call under way: it is aborted as well, and nothing is sent after.
      const closed = await hanging(4, 4);
      await s.clientSide.close();
      await closed.left;
      assert.equal(s.answers.has(4), false);
    } finally {
      await mcp.close();
    }
  });

  it('a disabled tool, a tool not on the path (a write), other methods, unknown params and an argument list past the cap are left to the SDK', () => {
    const sent: unknown[] = [];
    const tool = { enabled: false, handler: () => ({ content: [] }) } as unknown as RegisteredTool;
    const server = { _requestHandlerAbortControllers: new Map() } as never;
    const direct = new DirectToolCalls(server, { send: (m: unknown) => sent.push(m), start: async () => undefined, close: async () => undefined } as never, (text) => ({ content: [{ type: 'text', text }], isError: true }));
    direct.add('list_resource_kinds', tool);
    assert.equal(direct.tryAnswer({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_resource_kinds' } }), false);
    tool.enabled = true;
    assert.equal(direct.tryAnswer({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'delete_resource' } }), false);
    const many = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`a${i}`, i]));
    assert.equal(direct.tryAnswer({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_resource_kinds', arguments: many } }), false);
    assert.equal(direct.tryAnswer({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} }), false);
    assert.equal(direct.tryAnswer({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'list_resource_kinds', extra: 1 } }), false);
    assert.equal(direct.tryAnswer({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'list_resource_kinds' } }), true);
  });
});
