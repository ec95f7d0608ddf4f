import assert from 'node:assert/strict';
import { redactSecretText } from '../../../src/core/console/recordRedaction';
import { cpuMicros } from '../properties/growth';

describe('console records: secrets redacted by their shape in text (redactSecretText, as the MCP server applies it to every string it prints)', () => {
  it('private keys (to END, or to the end when cut), JWTs, secret-named assignments; ordinary text stays', () => {
    const cases: Array<[string, string]> = [
      ['a\n-----BEGIN PRIVATE KEY-----\nMIIkey\n-----END PRIVATE KEY-----\nb', 'a\n[REDACTED]\nb'],
      ['x -----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIcut', 'x [REDACTED]'],
      ['-----BEGIN CERTIFICATE-----\nMIIpublic\n-----END CERTIFICATE-----', '-----BEGIN CERTIFICATE-----\nMIIpublic\n-----END CERTIFICATE-----'],
      ['t=eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.sig1 ok', 't=[REDACTED] ok'],
      ['DB_PASSWORD=hunter2x LOG_LEVEL=debug', 'DB_PASSWORD=[REDACTED] LOG_LEVEL=debug'],
      ['API_TOKEN="a b c" next', 'API_TOKEN="[REDACTED]" next'],
      ['Server=db;Password=p4ss;Port=1', 'Server=db;Password=[REDACTED];Port=1'],
      ['https://h/o?X-Amz-Signature=abc123&x=1', 'https://h/o?X-Amz-Signature=[REDACTED]&x=1'],
      ['https://h/c?sv=1&sig=abc%2F123', 'https://h/c?sv=1&sig=[REDACTED]'],
      ['password: hunter2x', 'password: [REDACTED]'],
      ['{"secret":"v"}', '{"secret":"[REDACTED]"}'],
      ['state: running, name=web-1', 'state: running, name=web-1'],
    ];
    for (const [input, expected] of cases) assert.equal(redactSecretText(input), expected, input);
    // Redacting twice (a record's fields, then the text the MCP server prints) changes nothing more.
    for (const [input] of cases) assert.equal(redactSecretText(redactSecretText(input)), redactSecretText(input), input);
  });

  it('runs in linear time on hostile text (work at 8n stays within 8x of n, times a generous 3)', () => {
    const hostile = (n: number): string[] => [
      '-----BEGIN '.repeat(n),
      `${'-----BEGIN PRIVATE KEY-----'.repeat(n)}`,
      'eyJ'.repeat(n),
      `eyJaaaa.${'a'.repeat(n)}`,
      'a.'.repeat(n),
      'password'.repeat(n),
      `${'a-'.repeat(n)}=`,
      `password="${'x'.repeat(n)}`,
      `${'pwd=x;'.repeat(n)}`,
    ];
    const work = (n: number): number => {
      // The CPU time (not wall time: a loaded machine's waits are not work) of one pass over the
      // texts, compared between sizes (no absolute bound).
      const texts = hostile(n);
      return cpuMicros(() => {
        for (const text of texts) redactSecretText(text);
      });
    };
    work(2_000); // warm up
    const small = Math.min(work(4_000), work(4_000), work(4_000));
    const large = Math.min(work(32_000), work(32_000), work(32_000));
    assert.ok(large < Math.max(small, 100) * 8 * 3, `4,000 -> 32,000 characters: ${small} -> ${large} µs of CPU`);
  });
});
