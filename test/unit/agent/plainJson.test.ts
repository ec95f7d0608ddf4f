import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkPlainJson, PLAIN_JSON_LIMITS } from '../../../src/core/agent/plainJson';

const FORBIDDEN = ['$mid', '__proto__', 'constructor', 'prototype', '$ref'];
const keyArb = fc.string({ maxLength: 8 }).filter((k) => !k.startsWith('$') && !FORBIDDEN.includes(k));
/** Plain JSON within the default limits, with ordinary keys. */
const plainArb = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', maxDepth: 5 }, fc.string({ maxLength: 20 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(keyArb, tie('value'), { maxKeys: 4 })),
})).value;

/** Puts `bad` somewhere inside `value` (replacing a leaf, or as an item or property). */
function plant(value: unknown, bad: unknown, path: number[]): unknown {
  const [step, ...rest] = path;
  if (step === undefined) return Array.isArray(value) ? [...value, bad] : bad;
  if (Array.isArray(value) && value.length > 0) {
    const i = step % value.length;
    return value.map((v, j) => (j === i ? plant(v, bad, rest) : v));
  }
  if (typeof value === 'object' && value !== null && Object.keys(value).length > 0) {
    const keys = Object.keys(value);
    const k = keys[step % keys.length] as string;
    return { ...(value as Record<string, unknown>), [k]: plant((value as Record<string, unknown>)[k], bad, rest) };
  }
  return [bad];
}

describe('agent: plain JSON arguments (run-command tool)', () => {
  it('accepts plain JSON values and the tool\'s own $uri / $position forms', () => {
    for (const value of [[], ['a', 1, -0.5, true, false, null], [{ a: [{ b: { c: 'd' } }] }], [{ $uri: 'src/a.ts' }, { $position: { line: 1, character: 2 } }], [Object.create(null)]]) {
      assert.deepEqual(checkPlainJson(value), { ok: true }, JSON.stringify(value));
    }
  });

  it('refuses $mid objects, prototype keys, other $ keys, non-finite numbers, non-plain objects and functions', () => {
    const cases: Array<[unknown, RegExp]> = [
      [[{ $mid: 1, path: '/etc/passwd', scheme: 'file' }], /"\$mid"/],
      [[{ deep: [{ $mid: 14, source: '.*' }] }], /"\$mid"/],
      [[JSON.parse('{"__proto__": {"polluted": true}}')], /"__proto__"/],
      [[{ constructor: { prototype: {} } }], /"constructor"/],
      [[{ $ref: '#' }], /"\$ref"/],
      [[Number.POSITIVE_INFINITY], /not a finite number/],
      [[Number.NaN], /not a finite number/],
      [[undefined], /undefined/],
      [[() => 1], /function/],
      [[10n], /bigint/],
      [[new Date(0)], /not a plain object/],
      [[new Map()], /not a plain object/],
      [[/x/], /not a plain object/],
      [[new Uint8Array(2)], /not a plain object/],
      [[{ [Symbol('s')]: 1 }], /symbol keys/],
      [[Object.defineProperty({}, 'x', { get: () => 1, enumerable: true })], /accessor/],
      // eslint-disable-next-line no-sparse-arrays
      [[[1, , 3]], /holes/],
    ];
    for (const [value, why] of cases) {
      const r = checkPlainJson(value);
      assert.ok(!r.ok && why.test(r.reason), `${String(value)}: ${JSON.stringify(r)}`);
    }
  });

  it('bounds depth, count and string length', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < PLAIN_JSON_LIMITS.maxDepth + 1; i++) deep = [deep];
    assert.match(String((checkPlainJson(deep) as { reason: string }).reason), /nested more than/);
    assert.match(String((checkPlainJson(new Array(PLAIN_JSON_LIMITS.maxValues).fill(0)) as { reason: string }).reason), /more than \d+ values/);
    assert.match(String((checkPlainJson(['x'.repeat(PLAIN_JSON_LIMITS.maxStringLength + 1)]) as { reason: string }).reason), /longer than/);
  });

  it('property: every plain JSON value within the limits is accepted', () => {
    fc.assert(fc.property(plainArb, (value) => checkPlainJson([value]).ok));
  });

  it('property: a $mid object, a __proto__ key or a non-finite number anywhere is refused', () => {
    const bad = fc.oneof(
      fc.constant({ $mid: 1, scheme: 'command', path: 'x' }),
      fc.constant(JSON.parse('{"__proto__": {"x": 1}}') as unknown),
      fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
      fc.constant(new Date(0)),
    );
    fc.assert(fc.property(plainArb, bad, fc.array(fc.nat(), { maxLength: 4 }), (value, b, path) => !checkPlainJson([plant(value, b, path)]).ok));
  });
});
