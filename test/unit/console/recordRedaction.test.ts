import assert from 'node:assert/strict';
import { briefJson, redactFields, resourceBrief } from '../../../src/core/console/itemBrief';

const identity = (text: string): string => text;
const sent = (raw: Record<string, unknown>): string => briefJson(resourceBrief({ id: 'apps', label: 'App' }, { id: 'a1', name: 'api', raw }), identity);

const PEM = ['-----BEGIN OPENSSH PRIVATE KEY-----', 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ', 'QyNTUxOQAAACBGx3vXrd5Jd8p0pemSECRETPEMBODY', '-----END OPENSSH PRIVATE KEY-----'].join('\n');
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbm4ifQ.c2lnbmF0dXJlSECRETJWT';

/** The shapes issue 40 item 14 found reaching the model, each with the secret it must not send. */
const SHAPES: ReadonlyArray<{ what: string; raw: Record<string, unknown>; secret: string; kept?: string }> = [
  { what: 'env as K=V strings', raw: { env: ['LOG_LEVEL=debug', 'DB_PASSWORD=hunter2secret'] }, secret: 'hunter2secret', kept: 'LOG_LEVEL=debug' },
  { what: '[name, value] tuples', raw: { env: [['LOG_LEVEL', 'debug'], ['STRIPE_API_KEY', 'sk_live_tuplesecret']] }, secret: 'sk_live_tuplesecret', kept: 'debug' },
  { what: 'redis://:pw@', raw: { cacheUrl: 'redis://:redispwsecret@cache.internal:6379/0' }, secret: 'redispwsecret', kept: 'cache.internal:6379' },
  { what: 'scheme://user:pw@', raw: { endpoint: 'postgres://app:pgpwsecret@db.internal/app' }, secret: 'pgpwsecret', kept: 'postgres://app:' },
  { what: 'an S3 presigned URL', raw: { link: 'https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAEXAMPLE%2F20261201&X-Amz-Signature=ab12amzsigsecret&X-Amz-Expires=900' }, secret: 'ab12amzsigsecret', kept: 'X-Amz-Expires=900' },
  { what: 'a GCS signed URL', raw: { link: 'https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Signature=9f8egoogsigsecret' }, secret: '9f8egoogsigsecret' },
  { what: 'an Azure SAS', raw: { blob: 'https://acct.blob.core.windows.net/c/f?sv=2022-11-02&sp=r&sig=AzSasSigSecret%3D' }, secret: 'AzSasSigSecret', kept: 'sp=r' },
  { what: 'docker auth', raw: { auths: { 'registry.example': { auth: 'dXNlcjpkb2NrZXJzZWNyZXQ=' } } }, secret: 'dXNlcjpkb2NrZXJzZWNyZXQ=' },
  { what: 'a jwt field', raw: { jwt: 'opaque-jwt-secret-value' }, secret: 'opaque-jwt-secret-value' },
  { what: 'a JWT in a value', raw: { note: `session ${JWT} for ann` }, secret: 'SECRETJWT', kept: 'for ann' },
  { what: 'a PEM private key in a description', raw: { description: `deploy key:\n${PEM}\nrotate monthly` }, secret: 'SECRETPEMBODY', kept: 'rotate monthly' },
  { what: 'a password inside a JSON string', raw: { config: JSON.stringify({ db: { host: 'db', password: 'jsonpwsecret' } }) }, secret: 'jsonpwsecret', kept: '\\"host\\":\\"db\\"' },
  { what: 'JSON inside a JSON string', raw: { config: JSON.stringify({ inner: JSON.stringify({ token: 'doublejsonsecret' }) }) }, secret: 'doublejsonsecret' },
  { what: 'a quoted K=V in prose', raw: { description: 'run with API_TOKEN="quoted secret value" then' }, secret: 'secret value', kept: 'then' },
  { what: 'an Azure connection string', raw: { conn: 'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=AcctKeySecret==;EndpointSuffix=core.windows.net' }, secret: 'AcctKeySecret', kept: 'EndpointSuffix' },
  { what: 'an Authorization header in text', raw: { curl: "curl -H 'Authorization: Bearer hdrbearersecret' https://x" }, secret: 'hdrbearersecret', kept: 'Authorization: Bearer' },
];

describe('Ask @stratus: secrets held in values are redacted (issue 40 item 14)', () => {
  for (const shape of SHAPES) {
    it(`redacts ${shape.what}`, () => {
      const json = sent(shape.raw);
      assert.ok(!json.includes(shape.secret), json);
      assert.ok(json.includes('[REDACTED]'), json);
      if (shape.kept) assert.ok(json.includes(shape.kept), `${shape.kept} kept: ${json}`);
    });
  }

  it('keeps what is no secret: plain settings, a URL without credentials, a certificate, a key name', () => {
    const raw = { env: ['LOG_LEVEL=debug', 'REGION=eu-west'], url: 'https://git@example.com/repo?ref=main', cert: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----', keyName: 'deploy', pair: ['region', 'eu'] };
    assert.deepEqual(redactFields(raw), raw);
  });

  it('a cut PEM block (no END line) is redacted to the end of the text', () => {
    const out = redactFields({ description: `k: -----BEGIN RSA PRIVATE KEY-----\nMIIEcutshortsecret` }) as Record<string, unknown>;
    assert.equal(out.description, 'k: [REDACTED]');
  });

  it('redacts before it cuts a long string (a key past the cut point is not half kept)', () => {
    const out = JSON.stringify(redactFields({ description: `${'x'.repeat(390)} password=longcutsecret` }));
    assert.ok(!out.includes('longcut'), out);
  });
});
