import assert from 'node:assert/strict';
import { parseOptions } from '../../../src/mcp/options';
import { resolveCatalog, ResourceCatalog } from '../../../src/core/console/catalog/resourceCatalog';
import { detailedResource, redactRecord } from '../../../src/mcp/records';
import { jsonResult, type ToolKit } from '../../../src/mcp/toolKit';
import { redactSecretText } from '../../../src/core/console/recordRedaction';
import { isRedactedByLook, markRedactedByLook } from '../../../src/mcp/records';
import fc from 'fast-check';
import { check } from '../properties/harness';

describe('mcp options and records (pure)', () => {
  it('is read-only, confirming and https-only by default', () => {
    const o = parseOptions([], {});
    assert.deepEqual([o.allowWrites, o.allowDestructiveWithoutConfirmation, o.allowPlainHttp, o.tier, o.problems.length], [false, false, false, 'tier1', 0]);
  });

  it('reads the flags, the environment and a gateway headers object', () => {
    const o = parseOptions(['--allow-writes', '--poll-ms=50', '--follow-timeout-minutes', '2', '--timeout-seconds', '5'], {
      STRATUS_CONSOLE_BASE_URL: ' https://console.example.eu ',
      STRATUS_PAT_ID: 'id',
      STRATUS_PAT_SECRET: 'secret',
      STRATUS_CONSOLE_HEADERS: '{"X-Tenant":"acme","Authorization":"x"}',
      STRATUS_USAGE_TIER: 'tier3',
    });
    assert.equal(o.allowWrites, true);
    assert.equal(o.pollMs, 50);
    assert.equal(o.followTimeoutMs, 120_000);
    assert.equal(o.timeoutMs, 5_000);
    assert.equal(o.baseUrl, 'https://console.example.eu');
    assert.deepEqual(o.headers, { 'X-Tenant': 'acme' });
    assert.equal(o.tier, 'tier3');
    assert.deepEqual(o.problems, ['STRATUS_CONSOLE_HEADERS: header "Authorization" is refused (reserved).']);
  });

  it('reports unknown flags and bad values without echoing a value', () => {
    const o = parseOptions(['--pat-secret=sk-live-0123456789abcdef0123456789', 'sk-live-1123456789abcdef0123456789', '--poll-ms', 'soon'], { STRATUS_CONSOLE_SECRET_HEADERS: '{not json sk-9876543210' });
    assert.equal(o.problems.length, 4);
    assert.doesNotMatch(o.problems.join(' '), /sk-live|sk-98/);
  });

  it('redactRecord: by key (fields and name/value pairs) and by look', () => {
    const out = redactRecord({ name: 'a', apiToken: 'x1', tags: [{ Key: 'ssh_private_key', Value: 'k' }], note: 'env DB_PASSWORD=hunter22 set' });
    assert.deepEqual(out, { name: 'a', apiToken: '[REDACTED]', tags: [{ Key: 'ssh_private_key', Value: '[REDACTED]' }], note: 'env DB_PASSWORD=[REDACTED] set' });
  });

  it('jsonResult: a whole record is redacted of the known secrets once, with the answer it is printed in', () => {
    const texts: string[] = [];
    const kit: ToolKit = { client: undefined, setupProblem: undefined, options: parseOptions([], {}), now: Date.now, redact: (t) => (texts.push(t), t.split('s3cr3t-value').join('[REDACTED]')) };
    const item = { id: 'vm-1', name: 'web s3cr3t-value', raw: { id: 'vm-1', name: 'web s3cr3t-value', note: 'has s3cr3t-value inside', userData: 'x', nested: { env: 'DB_PASSWORD=hunter22' } } };
    const result = jsonResult(kit, detailedResource(new ResourceCatalog(resolveCatalog()), 'virtualMachines', item, true));
    const text = (result.content[0] as { text: string }).text;
    assert.equal(texts.length, 1, 'the known secrets are searched for once, in the printed text');
    assert.doesNotMatch(text, /s3cr3t-value|hunter22/);
    const record = (JSON.parse(text) as { record: Record<string, unknown> }).record;
    assert.deepEqual(record, { id: 'vm-1', name: 'web [REDACTED]', note: 'has [REDACTED] inside', userData: '[REDACTED]', nested: { env: 'DB_PASSWORD=[REDACTED]' } });
  });

  it('jsonResult: an answer with no secret-shaped string is printed plain, and every answer as the per-value redaction prints it', () => {
    const kit: ToolKit = { client: undefined, setupProblem: undefined, options: parseOptions([], {}), now: Date.now, redact: (t) => t };
    // The reference: every string value passed through the look redaction (a redacted record's own strings left as they are).
    const reference = (value: unknown): string =>
      JSON.stringify(value, function byLook(this: unknown, _key: string, v: unknown): unknown {
        if (isRedactedByLook(this)) return markRedactedByLook(v);
        return typeof v === 'string' ? redactSecretText(v) : v;
      });
    const secretish = fc.constantFrom('DB_PASSWORD=hunter22', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln', 'https://u:pw@host/x', 'a:b', 'x=1', '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----');
    const leaf = fc.oneof(fc.string(), secretish, fc.integer(), fc.boolean(), fc.constant(null));
    const tree = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 6 }), tie('node'), { maxKeys: 4 })),
    })).node;
    check(
      fc.property(tree, fc.boolean(), (value, marked) => {
        const v = marked && typeof value === 'object' && value !== null ? { record: redactRecord(value), note: 'x' } : value;
        const text = (jsonResult(kit, v).content[0] as { text: string }).text;
        assert.equal(text, reference(v));
      }),
      300,
    );
  });
});

