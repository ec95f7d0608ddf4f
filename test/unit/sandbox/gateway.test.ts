import assert from 'node:assert/strict';
import { createConsoleClient } from '../../../src/core/console/index';
import { isStratusError } from '../../../src/core/errors';
import { createInferenceClient } from '../../../src/core/inference';
import { startSandbox, type Sandbox } from '../../sandbox/index';
import { call } from './helpers';

const GATEWAY = { header: 'X-Gateway-Key', value: 'gw-sandbox-value-42' };

describe('sandbox: gateway mode', () => {
  let sb: Sandbox;
  beforeEach(async () => {
    sb = await startSandbox({ gateway: GATEWAY, consoleRateLimits: false });
  });
  afterEach(() => sb.close());

  const models = (headers: Record<string, string>): ReturnType<typeof call> =>
    call(`${sb.inferenceUrl}/models`, { headers: { authorization: `Bearer ${sb.credentials.apiKey}`, ...headers } });

  it('refuses a request without the header with 401 and the error envelope, a wrong value with 403', async () => {
    const missing = await models({});
    assert.equal(missing.status, 401);
    assert.match(JSON.stringify(missing.json), /X-Gateway-Key/);
    const wrong = await models({ 'x-gateway-key': 'nope' });
    assert.equal(wrong.status, 403);
    assert.equal((await models({ 'X-Gateway-Key': GATEWAY.value })).status, 200);
  });

  it('is switched off and on by the control surface, and reset restores the start option', async () => {
    const off = await call(`${sb.controlUrl}/gateway`, { body: { off: true } });
    assert.equal(off.status, 200);
    assert.equal((await models({})).status, 200);
    await call(`${sb.controlUrl}/gateway`, { body: { header: 'X-Other', value: 'v' } });
    assert.equal((await models({ 'x-other': 'v' })).status, 200);
    assert.equal((await models({ 'X-Gateway-Key': GATEWAY.value })).status, 401);
    sb.control.reset();
    assert.deepEqual(sb.control.snapshot().gateway, GATEWAY);
    assert.throws(() => sb.control.setGateway({ header: 'bad header', value: 'v' }));
  });

  it('Stratus clients get through with gateway headers; the log records what they sent', async () => {
    const gatewayHeaders = async (): Promise<Record<string, string>> => ({ 'X-Gateway-Key': GATEWAY.value, 'X-Tenant': 'acme' });
    const inference = createInferenceClient({ baseUrl: sb.inferenceUrl, apiKey: async () => sb.credentials.apiKey, gatewayHeaders, extraBody: () => [{ top_k: 20 }] });
    const consoleClient = createConsoleClient({ baseUrl: sb.consoleUrl, pat: { id: async () => sb.credentials.patId, secret: async () => sb.credentials.patSecret }, gatewayHeaders });
    try {
      const listed = await inference.models.refresh();
      const chatModel = listed.find((m) => m.kind === 'chat')?.id ?? assert.fail('a chat model');
      await inference.chat({ model: chatModel, messages: [{ role: 'user', content: 'hello gateway' }] });
      await consoleClient.list('roles');
      const records = sb.control.requests();
      assert.ok(records.length >= 4, 'models, chat, the PAT exchange and a list');
      for (const record of records) {
        assert.equal(record.headers['x-gateway-key'], GATEWAY.value, record.path);
        assert.equal(record.headers['x-tenant'], 'acme', record.path);
        assert.notEqual(record.status, 401, record.path);
      }
      const chat = records.find((r) => r.path === '/v1/chat/completions');
      assert.equal((chat?.body?.json as { top_k?: unknown } | undefined)?.top_k, 20);
    } finally {
      await inference.close();
      await consoleClient.close();
    }
  });

  it('a client without the header fails with a typed error saying why', async () => {
    const inference = createInferenceClient({ baseUrl: sb.inferenceUrl, apiKey: async () => sb.credentials.apiKey, retry: { attempts: 1 } });
    try {
      const error = await inference.models.refresh().then(() => assert.fail('expected a refusal'), (e: unknown) => e);
      assert.ok(isStratusError(error));
      assert.match(String((error as Error).message), /X-Gateway-Key/);
    } finally {
      await inference.close();
    }
  });
});
