// The declared-part marks (issue 41) of arbitrary hostile text: declaration keywords, names and
// their fragments, receivers, `extends`, `$`, `_`, digits, non-ASCII letters, emoji, lone
// surrogates, CR, LF and CRLF, in any order. Every chunk holds exactly the marks the definition
// gives it (`addDeclaredParts` over the names `declarationsIn` finds in its span), once each,
// whether the file is indexed from its text or from its chunks.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { chunkRanges, chunkText, LexicalIndex } from '../../../src/core/search';
import { expectedMarks, marksByChunk } from '../search/declaredMarks';
import { check } from './harness';

const noise = fc.constantFrom(
  '\n', '\n', '\r', '\r\n', ' ', ' ', '  ', '\t', '(', ')', '{', '*', ':', '=', '.', ',', 'extends ', 'export ', 'async ', 'static ',
  'Parcel', 'Watcher', 'watch', 'HTTP', 'Server', 'servers', 'get', 'the', 'Token', 'tokens', 'ID', 'x', '2', 'v8', '$', '_', '__',
  'é', 'Ünï', 'ß', '😀', '\uD800', '\uDC00', '\u2028', '\uFEFF', 'z'.repeat(66), 'ParcelWatch', 'ParcelWatcher',
);
const part = fc.constantFrom('Parcel', 'Watcher', 'watch', 'HTTP', 'Server', 'servers', 'get', 'the', 'Token', 'ID', 'x', '2', 'v8', '$', '_', 'é', '😀', '\uD800', 'z'.repeat(66));
const name = fc.tuple(fc.constantFrom('a', 'Do', 'make', 'problem', 'Parcel', '$', '_'), fc.array(part, { maxLength: 5 })).map(([head, rest]) => head + rest.join(''));
const keyword = fc.constantFrom('\nexport class ', '\nclass ', '\nfunction ', '\nfunc (w *', '\n) ', '\ndef ', '\nconst ', '\r\nexport const ', '\rlet ', '\n  static ', '\n  async ', '\n  ', '\nmodule.exports = class ', '\nexports.', '\nexport default abstract class ');
const declaration = fc.tuple(keyword, name, fc.constantFrom('(x) {', ' {', ' = 1;', ' extends ', ') ', '', '(a, b): void {')).map((t) => t.join(''));
const token = fc.oneof({ weight: 3, arbitrary: noise }, { weight: 2, arbitrary: declaration });
const text = fc.array(token, { minLength: 1, maxLength: 300 }).map((ts) => ts.join(''));


describe('properties: the declared-part marks of arbitrary hostile text', () => {
  it('gives every chunk its declared names\' parts, once each, from a file\'s text or its chunks', () => {
    check(
      fc.property(fc.array(text, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 12 }), (texts, maxLines) => {
        const fromText = new LexicalIndex();
        const fromChunks = new LexicalIndex();
        const want: string[][] = [];
        const wantChunks: string[][] = [];
        texts.forEach((t, i) => {
          const path = `src/h${i}.ts`;
          const spans = chunkRanges(path, t, { maxLines });
          fromText.setFileText(path, { mtime: 1, size: t.length }, t, spans);
          for (const s of spans) want.push(expectedMarks(t, s.start, s.end));
          const chunks = chunkText(path, t, { maxLines });
          fromChunks.setFile(path, { mtime: 1, size: t.length }, chunks);
          for (const c of chunks) wantChunks.push(expectedMarks(c.text, 0, c.text.length));
        });
        assert.deepEqual(marksByChunk(fromText), want);
        assert.deepEqual(marksByChunk(fromChunks), wantChunks);
      }),
      300,
    );
  });
});
