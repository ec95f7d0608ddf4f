// Run in a fresh process by lazy-load.test.ts: reports whether undici is loaded after importing
// and constructing the clients, and after a first request.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInferenceClient } from '../../../../src/core/inference';
import { createTransport } from '../../../../src/core/http';

const undiciLoaded = (): boolean => Object.keys(require.cache).some((k) => /[\\/]node_modules[\\/]undici[\\/]/.test(k));

async function main(): Promise<void> {
  const client = createInferenceClient({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: () => Promise.resolve('k-123456') });
  createTransport({ baseUrl: 'http://127.0.0.1:1' });
  const afterImport = undiciLoaded();
  const server = createServer((_q, res) => res.end('{"object":"list","data":[]}'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const live = createInferenceClient({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: () => Promise.resolve('k-123456') });
  await live.models.list();
  const afterRequest = undiciLoaded();
  await live.close();
  await client.close();
  server.close();
  process.stdout.write(JSON.stringify({ afterImport, afterRequest }));
}

void main();
