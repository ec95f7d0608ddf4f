import type { InferenceClient } from '../../../../src/core/inference';
import { createMeteredInferenceClient, type MeteredClientOptions } from '../../../../src/core/usage/meteredClient';
import { startServer, type Handler, type TestServer } from '../../http/helpers/server';

export const API_KEY = 'sk-inference-test-9f8e7d6c5b4a';

/** A loopback server plus an inference client pointed at it (base URL with `/v1`, as users paste it). */
export interface Rig {
  server: TestServer;
  handler: Handler;
  client(options?: Partial<MeteredClientOptions>): InferenceClient;
  reset(): Promise<void>;
  close(): Promise<void>;
}

export async function startRig(): Promise<Rig> {
  const clients: InferenceClient[] = [];
  const rig: Rig = {
    server: undefined as unknown as TestServer,
    handler: (_q, res) => {
      res.writeHead(500);
      res.end();
    },
    client(options = {}) {
      const c = createMeteredInferenceClient({
        baseUrl: `${rig.server.url}/v1/`,
        apiKey: () => Promise.resolve(API_KEY),
        retry: { baseDelayMs: 1, maxDelayMs: 5 },
        ...options,
      });
      clients.push(c);
      return c;
    },
    async reset() {
      await Promise.all(clients.splice(0).map((c) => c.close()));
      rig.server.requests.length = 0;
    },
    async close() {
      await rig.reset();
      await rig.server.close();
    },
  };
  rig.server = await startServer((req, res, body, n) => rig.handler(req, res, body, n));
  return rig;
}

export function requestJson(rig: Rig, i = 0): Record<string, unknown> {
  const r = rig.server.requests[i];
  if (!r) throw new Error(`no request #${i}`);
  return JSON.parse(r.body.toString('utf8')) as Record<string, unknown>;
}
