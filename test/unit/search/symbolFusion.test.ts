// Workspace symbols fused with the index (issue 34): for an identifier, a language server's exact
// definitions come first; the index's order otherwise, and whenever no definition matches.
import * as assert from 'node:assert/strict';
import { exactDefinitions, fuseSymbolDefinitions, isIdentifierQuery, MAX_LIFTED_DEFINITIONS, symbolOwnName, type SymbolDefinition } from '../../../src/core/search';

interface Place {
  path: string;
  startLine: number;
  endLine: number;
  from: 'index' | 'symbol';
}

const hit = (path: string, startLine: number, endLine: number): Place => ({ path, startLine, endLine, from: 'index' });
const place = (d: SymbolDefinition): Place => ({ path: d.path, startLine: d.startLine, endLine: d.endLine, from: 'symbol' });
const def = (name: string, path: string, line: number): SymbolDefinition => ({ name, path, startLine: line, endLine: line + 3 });
const order = (places: readonly Place[]): string[] => places.map((p) => `${p.path}:${p.startLine}:${p.from}`);

const INDEX = [hit('src/uses.ts', 1, 30), hit('test/fixtures/thing.ts', 1, 20), hit('src/thing.ts', 40, 80), hit('src/thing.ts', 1, 39)];

describe('search: workspace symbols fused with the index', () => {
  it('knows an identifier-like query: one word with a capital, _, $ or a digit', () => {
    for (const q of ['mergeMap', 'NewThing', 'arr_remove', '$digest', 'Parser', 'utf8Decode', ' BehaviorSubject ']) assert.equal(isIdentifierQuery(q), true, q);
    for (const q of ['parser', 'where is the parser', 'a.b', 'foo-bar', 'Xy', '', 'new thing']) assert.equal(isIdentifierQuery(q), false, q);
  });

  it("lifts the index's chunk that holds the exact definition to the top, in any spelling of the name", () => {
    const fused = fuseSymbolDefinitions('newThing', INDEX, [def('NewThing', 'src/thing.ts', 52)], place, 10);
    assert.deepEqual(order(fused), ['src/thing.ts:40:index', 'src/uses.ts:1:index', 'test/fixtures/thing.ts:1:index', 'src/thing.ts:1:index']);
  });

  it('adds a place for a definition in a chunk the index did not return, and cuts at the limit', () => {
    const fused = fuseSymbolDefinitions('NewThing', INDEX, [def('NewThing', 'src/uses.ts', 70)], place, 3);
    assert.deepEqual(order(fused), ['src/uses.ts:70:symbol', 'src/uses.ts:1:index', 'test/fixtures/thing.ts:1:index']);
  });

  it('never brings back a file the index did not answer with (ignored, excluded, over the size cap)', () => {
    assert.deepEqual(fuseSymbolDefinitions('NewThing', INDEX, [def('NewThing', 'dist/thing.js', 7)], place, 10), INDEX);
  });

  it('keeps the index order when no provider answered, the names differ, or the query is not an identifier', () => {
    assert.deepEqual(fuseSymbolDefinitions('NewThing', INDEX, [], place, 10), INDEX);
    assert.deepEqual(fuseSymbolDefinitions('NewThing', INDEX, [def('NewThingFactory', 'src/thing.ts', 52), def('Thing', 'src/thing.ts', 2)], place, 10), INDEX);
    assert.deepEqual(fuseSymbolDefinitions('where is the new thing', INDEX, [def('NewThing', 'src/thing.ts', 52)], place, 10), INDEX);
  });

  it('does not lift a definition in a test fixture, vendored copy or generated path', () => {
    // Each of these files is among the index's hits, so only its path keeps it down.
    const index = [...INDEX, hit('vendor/x/thing.go', 1, 20), hit('api/thing.pb.go', 1, 20)];
    for (const path of ['test/fixtures/thing.ts', 'vendor/x/thing.go', 'api/thing.pb.go']) {
      assert.deepEqual(fuseSymbolDefinitions('NewThing', index, [def('NewThing', path, 3)], place, 10), index, path);
    }
    assert.equal(fuseSymbolDefinitions('NewThing', index, [def('NewThing', 'src/uses.ts', 3)], place, 10)[0]?.path, 'src/uses.ts', 'an ordinary file is lifted');
  });

  it("does not lift a definition in a file the index demotes beyond its path (the user's globs, a generated header)", () => {
    const demoted = (path: string): boolean => path === 'src/thing.ts';
    assert.deepEqual(fuseSymbolDefinitions('NewThing', INDEX, [def('NewThing', 'src/thing.ts', 52)], place, 10, demoted), INDEX);
  });

  it("knows a method by its own name when the provider qualifies it or lists its parameters", () => {
    assert.equal(symbolOwnName('Client.Do'), 'Do');
    assert.equal(symbolOwnName('parse(String, int)'), 'parse');
    assert.equal(symbolOwnName('pkg.Outer.inner(a.b.C)'), 'inner');
    for (const name of ['Thing.NewThing', 'NewThing(int)', 'NewThing<T>(x: T)'.replace('<T>', '')]) {
      assert.deepEqual(order(fuseSymbolDefinitions('NewThing', INDEX, [def(name, 'src/thing.ts', 52)], place, 10)).slice(0, 1), ['src/thing.ts:40:index'], name);
    }
    assert.deepEqual(exactDefinitions('NewThing', [def('NewThingFactory', 'a.ts', 1), def('Other.NewThing', 'b.ts', 1)]).map((d) => d.path), ['b.ts']);
  });

  it('lifts a chunk once for two definitions in it, and at most a few definitions', () => {
    const twice = fuseSymbolDefinitions('NewThing', INDEX, [def('NewThing', 'src/thing.ts', 45), def('NewThing', 'src/thing.ts', 60)], place, 10);
    assert.deepEqual(order(twice).slice(0, 2), ['src/thing.ts:40:index', 'src/uses.ts:1:index']);
    assert.equal(twice.length, INDEX.length);
    const many = Array.from({ length: 9 }, (_, i) => def('NewThing', 'src/uses.ts', 100 + 10 * i));
    const fused = fuseSymbolDefinitions('NewThing', INDEX, many, place, 50);
    assert.equal(fused.filter((p) => p.from === 'symbol').length, MAX_LIFTED_DEFINITIONS);
    assert.deepEqual(order(fused.slice(MAX_LIFTED_DEFINITIONS)), order(INDEX));
  });
});
