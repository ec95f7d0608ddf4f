import assert from 'node:assert/strict';
import { applyOrder, parseOrder } from '../../shared/order';

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
    assert.deepEqual(order, { kind: 'shuffle', seed: 1234, spec: 'shuffle:1234' });
    assert.deepEqual(applyOrder(items, order), applyOrder(items, parseOrder(order.spec)));
  });

  it('refuses anything else with a message that lists the choices', () => {
    for (const bad of ['random', 'shuffle:', 'shuffle:-1', 'shuffle:abc', 'reversed']) {
      assert.throws(() => parseOrder(bad), /forward, reverse, shuffle or shuffle:<seed>/, bad);
    }
  });
});
