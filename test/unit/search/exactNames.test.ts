// Exact names (issue 34): a whole identifier is a term beside its parts, where it is declared
// (`=name`) and where a file bears its name (`@name`), so asking for `mergeMap` finds its
// definition first rather than any chunk full of `merge` and `map`.
import * as assert from 'node:assert/strict';
import { chunkText, LexicalIndex } from '../../../src/core/search';
import { declarationsIn, declarationTerm, exactName, exactQueryTerms, EXACT_WEIGHT_COMPOUND, EXACT_WEIGHT_WORD, fileNameTerm, fileNameTermOf, NAME_BUCKETS, nameBucket } from '../../../src/core/search/text/declarations';
import { isStopWord } from '../../../src/core/search/text/identifiers';

const stat = { mtime: 1, size: 1 };
const names = (text: string): string[] => declarationsIn(text).map(([, n]) => n);

function indexOf(files: Record<string, string>): LexicalIndex {
  const index = new LexicalIndex();
  for (const [path, text] of Object.entries(files)) index.setFile(path, stat, chunkText(path, text));
  return index;
}

describe('search: exact names, declarations found', () => {
  it('finds functions, classes, types, methods, top-level variables and exports, in every language shape the chunker knows', () => {
    const text = [
      'export async function refreshAuthToken(session) {',
      '  const localValue = 1;',
      '  if (session) {',
      '  }',
      '}',
      'export default class TokenStore {',
      '  static fromJson(raw: string): TokenStore {',
      '  }',
      '  get size() {',
      '  }',
      '}',
      'interface CartItem {}',
      'export const mergeMap = (a) => a;',
      'module.exports = class LintResultCache {',
      'exports.translateOptions = translate;',
      '  onError: function (e) {',
      'func (s *Server) NewThing() {}',
      'def parse_args(argv):',
      'pub fn spawn_worker() {}',
    ].join('\n');
    assert.deepEqual(names(text), ['refreshAuthToken', 'TokenStore', 'fromJson', 'size', 'CartItem', 'mergeMap', 'LintResultCache', 'translateOptions', 'onError', 'NewThing', 'parse_args', 'spawn_worker']);
  });

  it('finds them on the first line and after \\n, \\r\\n or a lone \\r, at the offset of their line', () => {
    for (const br of ['\n', '\r\n', '\r']) {
      const text = ['function firstOne() {', '  return 1;', '}', 'const topLevel = 2;', 'class Holder {', '  method(a) {', '  }', '}'].join(br);
      const found = declarationsIn(text);
      assert.deepEqual(found.map(([, n]) => n), ['firstOne', 'topLevel', 'Holder', 'method'], JSON.stringify(br));
      for (const [at, name] of found) assert.ok(at === 0 || text[at - 1] === '\n' || text[at - 1] === '\r', `${name} at a line start`);
    }
    assert.deepEqual(names('  const indented = 1;\n\tlet tabbed = 2;\n'), [], 'a variable below column 0 is a local');
    assert.deepEqual(names('x\n    \n  helper() {\n'), ['helper'], 'after a line of blanks');
  });

  it('hashes a name to the bucket of its normalised form, without making the string', () => {
    const fnv = (s: string): number => {
      let h = 0x811c9dc5;
      for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
      return (h >>> 0) % NAME_BUCKETS;
    };
    for (const name of ['mergeMap', 'NewThing', 'new_thing', '$digest', 'no-shadow', 'Ünïcödé_Name', 'İstanbul', 'x']) assert.equal(nameBucket(name), fnv(exactName(name)), name);
    assert.equal(declarationTerm('NewThing'), `=${fnv('newthing').toString(36)}`, 'the stored term is unchanged (index format)');
  });

  it('leaves out locals, calls and control statements', () => {
    assert.deepEqual(names('function f() {\n  const inner = 2;\n  let other = 3;\n  while (x) {\n  }\n  doThing(a);\n}\n'), []);
  });

  it('compares names in one form: lower case without _, $ and -', () => {
    assert.equal(exactName('NewThing'), 'newthing');
    assert.equal(exactName('new_thing'), 'newthing');
    assert.equal(fileNameTermOf('lib/linter/source-code-fixer.js'), fileNameTerm('SourceCodeFixer'));
    assert.equal(fileNameTermOf('src/internal/operators/mergeMap.ts'), fileNameTerm('merge_map'));
    assert.equal(declarationTerm('NewThing'), declarationTerm('new_thing'));
    assert.notEqual(declarationTerm('NewThing'), fileNameTerm('NewThing'), 'a declaration and a file name are two terms');
    assert.equal(fileNameTermOf('src/a.ts'), undefined, 'a one-letter name marks nothing');
  });

  it('weighs a compound identifier of a query above a plain word, and skips filler', () => {
    const terms = new Map(exactQueryTerms('where is mergeMap and the no-shadow rule', isStopWord));
    assert.equal(terms.get(declarationTerm('mergeMap')), EXACT_WEIGHT_COMPOUND);
    assert.equal(terms.get(fileNameTerm('no-shadow')), EXACT_WEIGHT_COMPOUND);
    assert.equal(terms.get(declarationTerm('rule')), EXACT_WEIGHT_WORD);
    assert.ok(EXACT_WEIGHT_COMPOUND > EXACT_WEIGHT_WORD);
    assert.equal(terms.has(declarationTerm('where')), false);
    assert.equal(terms.size, 6, 'mergeMap, no-shadow and rule, each as a declaration and a file name');
  });
});

describe('search: exact names, ranking', () => {
  const mentions = (n: number): string => Array.from({ length: n }, (_, i) => `  const newValue${i} = thing.next(new Thing(${i})); // new thing`).join('\n');

  it('ranks the chunk that declares a queried identifier above chunks full of its parts and its uses', () => {
    const index = indexOf({
      'pkg/server/server.go': 'package server\n\n// NewThing builds a Thing.\nfunc NewThing() *Thing {\n  return &Thing{}\n}\n',
      'pkg/a/uses.go': `package a\n\nfunc run() {\n${mentions(12)}\n  x := server.NewThing()\n  y := server.NewThing()\n}\n`,
      'pkg/b/parts.go': `package b\n\nfunc other() {\n${mentions(20)}\n}\n`,
    });
    assert.equal(index.search('NewThing', 5)[0]?.path, 'pkg/server/server.go');
    assert.equal(index.search('new_thing', 5)[0]?.path, 'pkg/server/server.go', 'the snake-case spelling meets it too');
  });

  it('ranks a file whose name is the queried identifier first, in any spelling of its name', () => {
    const index = indexOf({
      'lib/linter/source-code-fixer.js': 'const BOM = "\\uFEFF";\nfunction compareFixes(a, b) {\n  return a.range[0] - b.range[0];\n}\n',
      'lib/other.js': 'function apply(source, code) {\n  // fix the source code, the fixer says\n  return fixer.fix(source, code, source.code);\n}\n',
    });
    assert.equal(index.search('SourceCodeFixer', 5)[0]?.path, 'lib/linter/source-code-fixer.js');
    assert.equal(index.search('source-code-fixer', 5)[0]?.path, 'lib/linter/source-code-fixer.js');
  });

  it('never answers with a chunk that only shares the bucket of a queried name (no word of the query in it)', () => {
    // Two names whose FNV-1a hashes are equal, so their exact-name terms are one bucket.
    assert.equal(declarationTerm('tzddktm'), declarationTerm('fdgjfxa'));
    const index = indexOf({ 'src/a.ts': 'export function fdgjfxa() {}\n', 'src/b.ts': 'const tzddktm = 1;\n' });
    assert.deepEqual(index.search('tzddktm', 5).map((h) => h.path), ['src/b.ts']);
  });

  it('keeps the order through a save and a load (the terms are in the segment)', () => {
    const index = indexOf({
      'src/defines.ts': 'export function addItemToCart(cart, item) {\n  cart.items.push(item);\n}\n',
      'src/uses.ts': `function checkout() {\n${Array.from({ length: 10 }, () => '  add(item); cart.items.push(item); // add the item to the cart').join('\n')}\n}\n`,
    });
    const loaded = LexicalIndex.deserialize(index.serialize('k'), 'k');
    assert.ok(loaded instanceof LexicalIndex);
    assert.deepEqual(loaded.search('addItemToCart', 5).map((h) => h.path), index.search('addItemToCart', 5).map((h) => h.path));
    assert.equal(loaded.search('addItemToCart', 5)[0]?.path, 'src/defines.ts');
  });
});
