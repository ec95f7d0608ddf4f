// The search order for a plain question (issue 41): whatever the words and however often other
// files mention them, a file declaring a name made of the question's words (`refreshToken` for
// "where do we refresh the token") comes before every file that only mentions the words.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { chunkText, LexicalIndex } from '../../../src/core/search';
import { check } from './harness';

const word = fc.constantFrom('cart', 'parcel', 'token', 'refresh', 'ledger', 'invoice', 'queue', 'worker', 'cache', 'route', 'render', 'stream', 'attribute', 'import');
const capital = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);
const words = fc.uniqueArray(word, { minLength: 2, maxLength: 4 });
const shape = fc.constantFrom(
  (ws: string[]) => `export function ${ws[0]}${ws.slice(1).map(capital).join('')}(input) {\n  return input;\n}\n`,
  (ws: string[]) => `export class ${ws.map(capital).join('')} {\n  run() {}\n}\n`,
  (ws: string[]) => `func (s *Server) ${ws.map(capital).join('')}() error {\n  return nil\n}\n`,
  (ws: string[]) => `def ${ws.join('_')}(value):\n    return value\n`,
  (ws: string[]) => `  ${ws[0]}${ws.slice(1).map(capital).join('')}(input: string): void {\n    this.input = input;\n  }\n`,
);
/** A question around the words: filler before, between and after them; the last word sometimes plural. */
const question = (ws: string[], fillers: string[], plural: boolean): string => {
  const asked = ws.map((w, i) => (plural && i === ws.length - 1 ? `${w}s` : w));
  return [fillers[0] ?? 'where', ...asked.flatMap((w, i) => (i === 0 ? [w] : [fillers[i] ?? 'the', w])), fillers[ws.length] ?? ''].join(' ').trim();
};
const filler = fc.constantFrom('where', 'the', 'a', 'of', 'is', 'how', 'do', 'we', '');

describe('properties: the search order for a question whose words make a declared name', () => {
  it('ranks a file declaring a name made of the question\'s words above files that only mention them', () => {
    check(
      fc.property(words, shape, fc.array(filler, { minLength: 5, maxLength: 5 }), fc.boolean(), fc.array(fc.integer({ min: 1, max: 25 }), { minLength: 1, maxLength: 5 }), fc.boolean(), (ws, declare, fillers, plural, repeats, saved) => {
        const index = new LexicalIndex();
        index.setFile('src/impl/module.ts', { mtime: 1, size: 1 }, chunkText('src/impl/module.ts', `// helpers\n${declare(ws)}`));
        repeats.forEach((n, i) => {
          const path = `src/other${i}/file.ts`;
          const line = `  const x = ${ws.join('(')}${')'.repeat(ws.length - 1)}; // ${ws.join(' ')} ${[...ws].reverse().join(' ')}`;
          index.setFile(path, { mtime: 1, size: 1 }, chunkText(path, `function f${i}() {\n${Array.from({ length: n }, () => line).join('\n')}\n}\n`));
        });
        const searched = saved ? LexicalIndex.deserialize(index.serialize('k'), 'k') : index;
        assert.ok(searched instanceof LexicalIndex);
        const q = question(ws, fillers, plural);
        const hits = searched.search(q, 50).map((h) => h.path);
        assert.equal(hits[0], 'src/impl/module.ts', `${q}: ${hits.join(', ')}`);
      }),
      200,
    );
  });
});
