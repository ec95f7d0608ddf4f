import assert from 'node:assert/strict';
import { applyOrder, groupTogether, orderSuites, parseOrder, stableKey, type OrderableSuite } from '../../shared/order';

describe('test order (host and UI tiers)', () => {
  const items = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];

  it('forward by default, reverse on request; the input is not changed', () => {
    assert.deepEqual(applyOrder(items, parseOrder(undefined)), items);
    assert.deepEqual(applyOrder(items, parseOrder('')), items);
    assert.deepEqual(applyOrder(items, parseOrder('reverse')), [...items].reverse());
    assert.deepEqual(items, ['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  });

  it('a seeded shuffle is a permutation, the same for the same seed, different for another', () => {
    const one = applyOrder(items, parseOrder('shuffle:42'));
    assert.deepEqual([...one].sort(), items);
    assert.notDeepEqual(one, items);
    assert.deepEqual(applyOrder(items, parseOrder('shuffle:42')), one);
    assert.notDeepEqual(applyOrder(items, parseOrder('shuffle:7')), one);
  });

  it('a shuffle without a seed draws one and reports it, so the order can be replayed', () => {
    const order = parseOrder('shuffle', () => 1234);
    assert.deepEqual(order, { kind: 'shuffle', seed: 1234, withinSuites: false, spec: 'shuffle:1234' });
    assert.deepEqual(applyOrder(items, order), applyOrder(items, parseOrder(order.spec)));
  });

  it('refuses anything else with a message that lists the choices', () => {
    for (const bad of ['random', 'shuffle:', 'shuffle:-1', 'shuffle:abc', 'reversed', '+tests', 'reverse+test']) {
      assert.throws(() => parseOrder(bad), /forward, reverse, shuffle or shuffle:<seed>, optionally followed by \+tests/, bad);
    }
  });

  interface Node extends OrderableSuite<Node> {
    title: string;
  }
  const tree = (): Node => ({
    title: 'root',
    tests: [],
    suites: [
      { title: 'A', tests: ['a1', 'a2', 'a3'], suites: [{ title: 'A.x', tests: ['x1', 'x2'], suites: [] }] },
      { title: 'B', tests: ['b1', 'b2'], suites: [] },
    ],
  });

  it('moves the top-level suites only, unless +tests asks for the tests inside them too (recursively)', () => {
    const files = tree();
    orderSuites(files, parseOrder('reverse'));
    assert.deepEqual(files.suites.map((s) => s.title), ['B', 'A']);
    assert.deepEqual(files.suites[1]?.tests, ['a1', 'a2', 'a3']);
    const all = tree();
    orderSuites(all, parseOrder('reverse+tests'));
    assert.deepEqual(all.suites.map((s) => [s.title, s.tests]), [['B', ['b2', 'b1']], ['A', ['a3', 'a2', 'a1']]]);
    assert.deepEqual(all.suites[1]?.suites[0]?.tests, ['x2', 'x1']);
    assert.equal(parseOrder('shuffle:9+tests').spec, 'shuffle:9+tests');
  });

  // The UI tier: suites that ask for the same workbench run one after the other (one workbench open at a time).
  it('groups the items of one key together, each group where its first item was, in any order given', () => {
    const suites = ['chat', 'agent', 'docs', 'cloud', 'search', 'plan', 'tools'];
    const profile: Record<string, string> = { chat: 'key', docs: 'key', search: 'key', plan: 'key+model', tools: 'key+model' };
    const keyOf = (s: string, i: number): string => profile[s] ?? `own:${i}`;
    assert.deepEqual(groupTogether(suites, keyOf), ['chat', 'docs', 'search', 'agent', 'cloud', 'plan', 'tools']);
    for (const spec of ['reverse', 'shuffle:3', 'shuffle:11']) {
      const ordered = applyOrder(suites, parseOrder(spec));
      const grouped = groupTogether(ordered, keyOf);
      assert.deepEqual([...grouped].sort(), [...suites].sort(), spec);
      // Each key's items are adjacent, in the order the given order put them.
      for (const key of new Set(Object.values(profile))) {
        const at = grouped.flatMap((s, i) => (profile[s] === key ? [i] : []));
        assert.equal(at.at(-1)! - at[0]!, at.length - 1, `${spec}: ${key} at ${at.join(',')} in ${grouped.join(' ')}`);
        assert.deepEqual(at.map((i) => grouped[i]), ordered.filter((s) => profile[s] === key), spec);
      }
    }
    assert.deepEqual(suites, ['chat', 'agent', 'docs', 'cloud', 'search', 'plan', 'tools'], 'the input is not changed');
  });

  it('gives options that differ only in the order of their keys the same key, and different options different keys', () => {
    const a = { env: { STRATUS_API_KEY: 'from-sandbox' }, settings: { 'stratus.chat.model': 'm', 'git.enabled': true } };
    const b = { settings: { 'git.enabled': true, 'stratus.chat.model': 'm' }, env: { STRATUS_API_KEY: 'from-sandbox' } };
    assert.equal(stableKey(a), stableKey(b));
    assert.notEqual(stableKey(a), stableKey({ ...a, settings: { ...a.settings, 'git.enabled': false } }));
    assert.notEqual(stableKey({ sandboxArgs: ['--a', '1'] }), stableKey({ sandboxArgs: ['1', '--a'] }), 'arrays keep their order');
    assert.equal(stableKey({}), '{}');
  });
});
