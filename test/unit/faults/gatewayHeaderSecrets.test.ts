// A gateway's secret header (stratus.setGatewayHeaderSecret) against servers that echo the
// request's headers back: like the API key, its value never reaches a log line or an error.
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { mergeGatewayHeaders } from '../../../src/core/http/gatewayHeaders';
import { Redactor } from '../../../src/core/http/redact';
import { createInferenceClient } from '../../../src/core/inference';
import { GatewaySecrets } from '../../../src/platform/gatewaySecrets';
import { SecretStore } from '../../../src/platform/secrets';
import { captureLogger, Fixtures, json } from '../console/helpers';
import { errorTexts, SecretSet } from './secrets';

const GATEWAY_KEY = 'gw-sweep-fixture-7f3a9c1e5b';

/** SecretStorage in memory (the OS keychain in VS Code). */
function memoryStorage(): vscode.SecretStorage {
  const values = new Map<string, string>();
  return {
    get: async (key: string) => values.get(key),
    store: async (key: string, value: string) => void values.set(key, value),
    delete: async (key: string) => void values.delete(key),
    keys: async () => [...values.keys()],
    onDidChange: () => ({ dispose: () => undefined }),
  } as unknown as vscode.SecretStorage;
}

describe('secrets sweep: a gateway header secret echoed back', () => {
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  for (const status of [400, 401, 403, 502]) {
    it(`a ${status} echoing the request headers leaks nothing of it`, async () => {
      const stub = await fx.stub((req, res) => json(res, status, { error: { message: `denied for ${JSON.stringify(req.headers)} ${Buffer.from(String(req.headers['x-gateway-key'])).toString('base64')}`, type: 'gateway_error' } }));
      // A fresh process: the value is only in secret storage until the first request reads it.
      const keychain = memoryStorage();
      await new GatewaySecrets(new SecretStore(keychain, new Redactor()), new Redactor()).set('inference', 'X-Gateway-Key', GATEWAY_KEY);
      const redactor = new Redactor();
      const secrets = new GatewaySecrets(new SecretStore(keychain, redactor), redactor);
      const logger = captureLogger();
      const client = createInferenceClient({
        baseUrl: `${stub.url}/v1`,
        apiKey: async () => 'sk-sweep-gateway-0123456789',
        logger,
        redactor,
        retry: { attempts: 1 },
        gatewayHeaders: async () => mergeGatewayHeaders({ 'X-Tenant': 'acme' }, await secrets.get('inference')),
      });
      try {
        const error = await client.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }).then(() => assert.fail('expected a failure'), (e: unknown) => e);
        assert.equal(stub.requests[0]?.headers['x-gateway-key'], GATEWAY_KEY, 'the header was sent');
        const set = new SecretSet();
        set.add('gateway key', GATEWAY_KEY);
        const leaks = [...errorTexts(error), ...logger.lines.map((l) => l.message)].flatMap((text) => set.find(text).map((name) => `${name}: ${text.slice(0, 200)}`));
        assert.deepEqual(leaks, []);
      } finally {
        await client.close();
      }
    });
  }

  it('stores one value per header name, case-insensitively, and removes it', async () => {
    const secrets = new GatewaySecrets(new SecretStore(memoryStorage(), new Redactor()), new Redactor());
    await secrets.set('console', 'X-Gateway-Key', 'first-value');
    await secrets.set('console', 'x-gateway-key', 'second-value');
    assert.deepEqual(await secrets.get('console'), { 'x-gateway-key': 'second-value' });
    assert.deepEqual(await secrets.get('inference'), {});
    await secrets.set('console', 'X-GATEWAY-KEY', undefined);
    assert.deepEqual(await secrets.names('console'), []);
  });
});

