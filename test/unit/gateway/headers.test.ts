import assert from 'node:assert/strict';
import { mergeGatewayHeaders, parseGatewayHeaders, refusalKey, RESERVED_HEADERS } from '../../../src/core/http/gatewayHeaders';
import { createInferenceClient } from '../../../src/core/inference';
import { Fixtures, json } from '../console/helpers';

describe('gateway headers: validation', () => {
  it('keeps fixed headers a gateway needs, names as written', () => {
    const parsed = parseGatewayHeaders({ 'X-Tenant': 'acme', 'api-version': '2024-10-01' });
    assert.deepEqual(parsed.headers, { 'X-Tenant': 'acme', 'api-version': '2024-10-01' });
    assert.deepEqual(parsed.refused, []);
  });

  for (const name of ['Authorization', 'content-type', 'HOST', 'Content-Length', 'Connection', 'Transfer-Encoding', 'Proxy-Authorization', 'Upgrade', 'TE', 'Keep-Alive']) {
    it(`refuses the reserved header ${name}, whatever its case`, () => {
      const parsed = parseGatewayHeaders({ [name]: 'x', 'X-Tenant': 'acme' });
      assert.deepEqual(parsed.headers, { 'X-Tenant': 'acme' });
      assert.deepEqual(parsed.refused, [{ name, reason: 'reserved' }]);
    });
  }

  it('refuses malformed names and values (spaces, line breaks, non-strings)', () => {
    const parsed = parseGatewayHeaders({ 'X Bad': 'a', 'X-Inject': 'a\r\nHost: evil', 'X-Number': 42, 'X-Ok': '' });
    assert.deepEqual(parsed.headers, { 'X-Ok': '' });
    assert.deepEqual(parsed.refused, [
      { name: 'X Bad', reason: 'badName' },
      { name: 'X-Inject', reason: 'badValue' },
      { name: 'X-Number', reason: 'badValue' },
    ]);
  });

  it('a setting that is not an object gives no headers', () => {
    for (const raw of [undefined, null, 'X-Tenant: a', ['X-Tenant']]) assert.deepEqual(parseGatewayHeaders(raw), { headers: {}, refused: [] });
  });

  it('a secret header replaces a setting of the same name, whatever the case', () => {
    assert.deepEqual(mergeGatewayHeaders({ 'X-Tenant': 'acme', 'x-gateway-key': 'plain' }, { 'X-Gateway-Key': 's3cret-value' }), { 'X-Tenant': 'acme', 'X-Gateway-Key': 's3cret-value' });
  });

  it('the refusal key is the same for the same problems in any order, so the notice is shown once', () => {
    const a = parseGatewayHeaders({ Host: 'a', Authorization: 'b' }).refused;
    const b = parseGatewayHeaders({ authorization: 'b', host: 'a' }).refused;
    assert.equal(refusalKey(a), refusalKey(b));
    assert.equal(refusalKey([]), '');
  });

  it('hop-by-hop headers are reserved', () => {
    for (const name of ['connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'proxy-authenticate', 'proxy-authorization']) assert.ok(RESERVED_HEADERS.has(name), name);
  });
});

describe('gateway headers: on the wire', () => {
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  it('are sent with every request, read again each time, never replacing the credential or the content type', async () => {
    const stub = await fx.stub((_req, res) => json(res, 200, { object: 'list', data: [{ id: 'm', object: 'model', max_model_len: 4096 }] }));
    let tenant = 'first';
    const client = createInferenceClient({
      baseUrl: `${stub.url}/v1`,
      apiKey: async () => 'sk-gateway-test-key',
      gatewayHeaders: async () => ({ 'X-Tenant': tenant, Authorization: 'Bearer stolen', 'Content-Type': 'text/plain' }),
    });
    try {
      await client.models.refresh();
      tenant = 'second';
      client.models.invalidate();
      await client.models.refresh();
      assert.deepEqual(stub.requests.map((r) => r.headers['x-tenant']), ['first', 'second']);
      for (const r of stub.requests) assert.equal(r.headers.authorization, 'Bearer sk-gateway-test-key');
    } finally {
      await client.close();
    }
  });
});
