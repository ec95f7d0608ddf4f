import * as assert from 'node:assert/strict';
import { LruCache, typeAhead } from '../../../src/core/inlineCompletion/cache';

describe('core/inlineCompletion cache and type-ahead', () => {
  it('evicts the least recently used entry beyond its bound', () => {
    const cache = new LruCache<string>(2);
    cache.set('a', 'A');
    cache.set('b', 'B');
    assert.equal(cache.get('a'), 'A');
    cache.set('c', 'C');
    assert.equal(cache.get('b'), undefined);
    assert.equal(cache.get('a'), 'A');
    assert.equal(cache.get('c'), 'C');
    assert.equal(cache.size, 2);
    assert.throws(() => new LruCache(0), RangeError);
  });

  it('returns the rest of the ghost text while the user types what it shows', () => {
    const shown = { documentId: 'file:///a.ts', prefix: 'const x = ', text: 'compute(a, b);' };
    assert.equal(typeAhead(shown, 'file:///a.ts', 'const x = '), 'compute(a, b);');
    assert.equal(typeAhead(shown, 'file:///a.ts', 'const x = comp'), 'ute(a, b);');
    assert.equal(typeAhead(shown, 'file:///a.ts', 'const x = compX'), undefined, 'typed something else');
    assert.equal(typeAhead(shown, 'file:///a.ts', 'const x = compute(a, b);'), undefined, 'typed it all');
    assert.equal(typeAhead(shown, 'file:///b.ts', 'const x = comp'), undefined, 'another document');
    assert.equal(typeAhead(shown, 'file:///a.ts', 'const y = '), undefined, 'moved elsewhere');
    assert.equal(typeAhead(undefined, 'file:///a.ts', 'x'), undefined);
  });
});
