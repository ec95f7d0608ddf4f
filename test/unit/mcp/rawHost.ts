import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { connectWithDirectDispatch, type DispatchCounts } from '../../../src/mcp/dispatch';
import { parseOptions } from '../../../src/mcp/options';
import { createStratusMcp } from '../../../src/mcp/server';

/**
 * A raw host on an in-memory pair. `direct`: the server as it serves (the read tools' plain calls
 * on directCalls.ts); otherwise every call takes the SDK's path (the same server, no direct path).
 * `exchange` sends one line as JSON.parse reads it (own `__proto__` keys included) and returns what
 * came of it: the answer with its id, or the protocol error the SDK reports for a line it refuses.
 */
export async function rawHost(env: Record<string, string>, direct: boolean) {
  const mcp = createStratusMcp(parseOptions([], env));
  const counts: DispatchCounts = { requests: 0, direct: 0, notifications: 0, other: 0 };
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const answers = new Map<unknown, unknown>();
  let wake: (() => void) | undefined;
  let errors = 0;
  clientSide.onmessage = (message) => {
    if ('id' in message && !('method' in message)) answers.set(message.id, message);
    wake?.();
  };
  if (direct) await mcp.connect(serverSide, counts);
  else await connectWithDirectDispatch(mcp.server.server, serverSide, counts);
  mcp.server.server.onerror = () => {
    errors++;
    wake?.();
  };
  await clientSide.start();
  const exchange = async (line: string): Promise<string> => {
    const message = JSON.parse(line) as { id?: unknown };
    const errorsBefore = errors;
    answers.delete(message.id);
    await clientSide.send(message as JSONRPCMessage);
    while (!answers.has(message.id) && errors === errorsBefore) await new Promise<void>((resolve) => (wake = resolve));
    return answers.has(message.id) ? JSON.stringify(answers.get(message.id)) : 'refused: no answer, a protocol error reported';
  };
  await exchange('{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}');
  await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { exchange, counts, send: (m: unknown) => clientSide.send(m as JSONRPCMessage), answers, mcp, close: async () => (await clientSide.close(), await mcp.close()) };
}
