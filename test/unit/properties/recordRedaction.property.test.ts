import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { briefJson, resourceBrief } from '../../../src/core/console/itemBrief';
import { redactFields, redactSecretText } from '../../../src/core/console/recordRedaction';
import { check } from './harness';

// The redactor of console records sent to a model (issue 40 item 14): a secret placed in any shape
// the console may hold it in, at any depth, under any wrapping (objects, lists, JSON in strings,
// name/value pairs of harmless names) never reaches the block; and its scans stay linear on hostile text.

const identity = (text: string): string => text;
const secretName = fc.constantFrom('password', 'DB_PASSWORD', 'apiKey', 'client_secret', 'GITHUB_TOKEN', 'auth', 'jwt', 'AccountKey', 'db-pwd', 'privateKey');
const param = fc.constantFrom('X-Amz-Signature', 'X-Goog-Signature', 'sig', 'access_token', 'X-Amz-Security-Token', 'X-Amz-Credential', 'api_key');
// Long enough that it appears nowhere by chance, from the characters every shape carries as is.
const secret = fc.stringMatching(/^[A-Za-z0-9]{12,32}$/).map((s) => `Zq${s}`);

type Shape = (name: string, param: string, s: string) => unknown;
const SHAPES: readonly Shape[] = [
  (name, _p, s) => ({ [name]: s }),
  (name, _p, s) => ({ name, value: s }),
  (name, _p, s) => [name, s],
  (name, _p, s) => `${name}=${s}`,
  (name, _p, s) => `export ${name}="${s} tail"`,
  (name, _p, s) => `{"${name}": "${s}", "x": 1`,
  (name, _p, s) => `note: ${name}: ${s} end`,
  (_n, _p, s) => `redis://:${s}@cache:6379/0`,
  (_n, _p, s) => `postgres://app:${s}@db/app`,
  (_n, p, s) => `https://h.example/o?a=1&${p}=${s}&b=2`,
  (_n, _p, s) => `key:\n-----BEGIN RSA PRIVATE KEY-----\nMII${s}\n${s}==\n-----END RSA PRIVATE KEY-----\nok`,
  (_n, _p, s) => `token eyJ${s}.eyJ${s}.${s} used`,
  (name, _p, s) => JSON.stringify({ outer: { [name]: s } }),
  (name, _p, s) => `Authorization: Bearer ${s}${name === 'auth' ? '' : ''}`,
];
const shape = fc.integer({ min: 0, max: SHAPES.length - 1 });

type Wrap = (v: unknown) => unknown;
const WRAPS: readonly Wrap[] = [
  (v) => ({ meta: v }),
  (v) => [v],
  (v) => [1, 'x', v],
  (v) => JSON.stringify({ data: v }),
  (v) => ({ name: 'LOG_LEVEL', value: v }),
  (v) => ({ labels: { region: 'eu' }, spec: v }),
];

describe('properties: the console record redactor', function () {
  this.timeout(60_000);

  it('a secret in any value shape, at any depth and wrapping, never reaches the block', () => {
    check(
      fc.property(secretName, param, secret, shape, fc.array(fc.integer({ min: 0, max: WRAPS.length - 1 }), { maxLength: 6 }), (name, p, s, k, wraps) => {
        let value = (SHAPES[k] as Shape)(name, p, s);
        for (const w of wraps) value = (WRAPS[w] as Wrap)(value);
        const json = briefJson(resourceBrief({ id: 'apps', label: 'App' }, { id: 'a1', name: 'api', raw: { spec: value } }), identity);
        assert.ok(!json.includes(s), json);
        assert.ok(!JSON.stringify(redactFields(value)).includes(s));
      }),
      600,
    );
  });

  it('is linear on hostile text: the work at 8n stays within a generous bound of 8x the work at n', () => {
    const hostile: ReadonlyArray<(n: number) => string> = [
      (n) => 'a='.repeat(n),
      (n) => '"a":'.repeat(n),
      (n) => 'password="'.repeat(n),
      (n) => `password="${'a'.repeat(n)}`,
      (n) => '-----BEGIN '.repeat(n),
      (n) => `-----BEGIN ${'A'.repeat(n)}`,
      (n) => 'eyJa'.repeat(n),
      (n) => `eyJ${'a'.repeat(n)}.`,
      (n) => 'a://:'.repeat(n),
      (n) => `a://${'b'.repeat(n)}`,
      (n) => `x://${':'.repeat(n)}`,
      (n) => '\\"'.repeat(n),
      (n) => 'Bearer '.repeat(n),
      (n) => 'a.'.repeat(n),
      (n) => `{"a":${'['.repeat(n)}`,
      (n) => JSON.stringify({ a: 'x'.repeat(n) }),
    ];
    const cost = (text: string, f: (t: string) => unknown): number => {
      let best = Number.POSITIVE_INFINITY;
      for (let run = 0; run < 3; run++) {
        // CPU time, not wall time: on a loaded machine a long run waits for the CPU more often than a short one.
        const start = process.cpuUsage();
        f(text);
        const used = process.cpuUsage(start);
        best = Math.min(best, used.user + used.system);
      }
      return best;
    };
    // Large enough that both sizes pay the same garbage collection per character (below ~30 KB the
    // young generation hides it and a linear scan reads up to ~20x).
    const n = 6_000;
    const walk = (t: string): unknown => redactFields({ v: t, list: [t] });
    for (const make of hostile) {
      for (const f of [redactSecretText, walk]) {
        // Warm up, then the best of three at n and at 8n: quadratic work would be ~64x, linear ~8x.
        f(make(n));
        const small = cost(make(n), f);
        const large = cost(make(8 * n), f);
        assert.ok(large / small < 24, `${make(3).slice(0, 20)}…: ${large}/${small} µs of CPU`);
      }
    }
  });
});
