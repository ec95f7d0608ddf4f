// Run in a fresh process by lazy-load.test.ts: reports whether npm undici is ever loaded by the
// clients (it must not be: the engine is the runtime's fetch), and whether requests use the
// global fetch (VS Code patches it with the user's proxy and certificates).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInferenceClient } from '../../../../src/core/inference';
import { createConsoleClient } from '../../../../src/core/console';

const npmUndiciLoaded = (): boolean => Object.keys(require.cache).some((k) => /[\\/]node_modules[\\/]undici[\\/]/.test(k));

async function main(): Promise<void> {
  let globalFetchCalls = 0;
  const original = globalThis.fetch;
  // What VS Code does in the extension host: replace the global with its network-aware fetch.
  globalThis.fetch = (input, init) => {
    globalFetchCalls++;
    return original(input, init);
  };
  const server = createServer((_q, res) => res.end('{"object":"list","data":[]}'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const client = createInferenceClient({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: () => Promise.resolve('k-123456') });
  createConsoleClient({ baseUrl: `http://127.0.0.1:${port}`, pat: { id: () => Promise.resolve(undefined), secret: () => Promise.resolve(undefined) } });
  await client.models.list();
  await client.close();
  server.close();
  process.stdout.write(JSON.stringify({ npmUndiciLoaded: npmUndiciLoaded(), globalFetchCalls }));
}

void main();
