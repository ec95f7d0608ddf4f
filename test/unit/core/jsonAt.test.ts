import { strict as assert } from 'node:assert';
import { at } from '../../../src/core/json';

describe('json at()', () => {
  it('reads dotted paths, and undefined where the shape does not fit', () => {
    const record = { operatingSystem: { name: 'Ubuntu', version: { major: 24 } }, tags: ['a'], n: null };
    assert.equal(at(record, 'operatingSystem.name'), 'Ubuntu');
    assert.equal(at(record, 'operatingSystem.version.major'), 24);
    assert.equal(at(record, 'operatingSystem.missing.deeper'), undefined);
    assert.equal(at(record, 'tags.0'), undefined);
    assert.equal(at(record, 'n.x'), undefined);
    assert.equal(at('text', 'length'), undefined);
    assert.deepEqual(at(record, 'tags'), ['a']);
  });

  it('splits a path once, not for every record it reads (a compact list reads a few paths for each of its items)', () => {
    const path = `jsonAtTest${Math.random().toString(36).slice(2)}.inner`;
    const records = Array.from({ length: 50 }, (_, i) => ({ [path.split('.')[0] as string]: { inner: i } }));
    const split = String.prototype.split;
    let splits = 0;
    String.prototype.split = function (this: string, ...args: Parameters<typeof split>) {
      if (String(this) === path) splits++;
      return split.apply(this, args);
    } as typeof split;
    try {
      records.forEach((r, i) => assert.equal(at(r, path), i));
    } finally {
      String.prototype.split = split;
    }
    assert.ok(splits <= 1, `the path was split ${splits} times for ${records.length} records`);
  });
});
