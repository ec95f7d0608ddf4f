// The declared-part marks (issue 41, lexical/declaredParts.ts) as the indexer adds them: read by
// the term counter's scanner from the declared name's characters in the text, each part's mark id
// kept per term id (no string, no map lookup for a part seen before). Whatever the names (filler
// and one-letter parts, acronyms, digits, `_` and `$`, non-ASCII letters, names past the longest
// word, names repeated across chunks), every chunk holds exactly the marks the definition gives:
// `addDeclaredParts` over the names `declarationsIn` finds in its span, once each.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { chunkRanges, chunkText, LexicalIndex } from '../../../src/core/search';
import { expectedMarks, marksByChunk } from '../search/declaredMarks';
import { check } from './harness';

const part = fc.constantFrom('cart', 'Cart', 'HTTP', 'Server', 'servers', 'get', 'the', 'a', 'x', 'is', 'Token', 'tokens', 'parcel', 'Watcher', '2', 'v8', 'é', 'Ünïcode', 'ß', 'ID', 'retries', 'z'.repeat(70));
const sep = fc.constantFrom('', '', '', '_', '$', '__');
const name = fc.tuple(fc.constantFrom('a', 'b', 'get', 'Do', 'make', 'x'), fc.array(fc.tuple(sep, part), { minLength: 0, maxLength: 5 })).map(([head, rest]) => head + rest.map(([s, p]) => s + p).join(''));
const line = fc.tuple(
  fc.constantFrom(
    (n: string) => `export function ${n}(input) {`,
    (n: string) => `class ${n} extends Base {`,
    (n: string) => `const ${n} = 1;`,
    (n: string) => `  ${n}(value: string): void {`,
    (n: string) => `exports.${n} = ${n};`,
    (n: string) => `def ${n}(self):`,
    (n: string) => `func (s *Server) ${n}() error {`,
    (n: string) => `  // the ${n} is used here`,
    (n: string) => `  return ${n}(cart, token);`,
  ),
  name,
).map(([shape, n]) => shape(n));
const file = fc.array(line, { minLength: 1, maxLength: 120 }).map((lines) => `${lines.join('\n')}\n`);


describe('properties: the declared-part marks the indexer adds', () => {
  it('gives every chunk the marks of its declared names\' parts, once each, read from a file\'s text or from its chunks', () => {
    check(
      fc.property(fc.array(file, { minLength: 1, maxLength: 4 }), fc.integer({ min: 3, max: 40 }), (texts, maxLines) => {
        const fromText = new LexicalIndex();
        const fromChunks = new LexicalIndex();
        const want: string[][] = [];
        const wantChunks: string[][] = [];
        texts.forEach((text, i) => {
          const path = `src/m${i}/file${i}.ts`;
          const spans = chunkRanges(path, text, { maxLines });
          fromText.setFileText(path, { mtime: 1, size: text.length }, text, spans);
          for (const s of spans) want.push(expectedMarks(text, s.start, s.end));
          const chunks = chunkText(path, text, { maxLines });
          fromChunks.setFile(path, { mtime: 1, size: text.length }, chunks);
          for (const c of chunks) wantChunks.push(expectedMarks(c.text, 0, c.text.length));
        });
        assert.deepEqual(marksByChunk(fromText), want);
        assert.deepEqual(marksByChunk(fromChunks), wantChunks);
      }),
      150,
    );
  });
});
