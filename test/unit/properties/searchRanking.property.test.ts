// The search index's order for an exact identifier (issue 34): whatever the identifier and however
// often other files repeat its parts, the file that declares it comes before every file that only
// mentions the parts.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { chunkText, LexicalIndex } from '../../../src/core/search';
import { check } from './harness';

const part = fc.constantFrom('cart', 'parcel', 'token', 'refresh', 'ledger', 'invoice', 'queue', 'worker', 'cache', 'route', 'render', 'stream');
const capital = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);
const identifier = fc.array(part, { minLength: 2, maxLength: 3 }).map((ps) => ps[0] + ps.slice(1).map(capital).join(''));
const partsOf = (id: string): string[] => id.split(/(?=[A-Z])/).map((p) => p.toLowerCase());
const shape = fc.constantFrom(
  (id: string) => `export function ${id}(input) {\n  return input;\n}\n`,
  (id: string) => `export class ${capital(id)} {\n  run() {}\n}\n`,
  (id: string) => `func ${capital(id)}() error {\n  return nil\n}\n`,
  (id: string) => `def ${id}(value):\n    return value\n`,
);

describe('properties: the search order for an exact identifier', () => {
  it('ranks a file declaring the identifier above files that only mention its parts', () => {
    check(
      fc.property(identifier, shape, fc.array(fc.integer({ min: 1, max: 25 }), { minLength: 1, maxLength: 5 }), fc.boolean(), (id, declare, repeats, saved) => {
        const declaration = declare(id);
        const declared = /(?:function|class|func|def)\s+(\w+)/.exec(declaration)?.[1] ?? id;
        const index = new LexicalIndex();
        index.setFile('src/impl/module.ts', { mtime: 1, size: 1 }, chunkText('src/impl/module.ts', `// helpers\n${declaration}`));
        repeats.forEach((n, i) => {
          const path = `src/other${i}/file.ts`;
          const line = `  const x = ${partsOf(id).join('(')}${')'.repeat(partsOf(id).length - 1)}; // ${partsOf(id).join(' ')}`;
          index.setFile(path, { mtime: 1, size: 1 }, chunkText(path, `function f${i}() {\n${Array.from({ length: n }, () => line).join('\n')}\n}\n`));
        });
        const searched = saved ? LexicalIndex.deserialize(index.serialize('k'), 'k') : index;
        assert.ok(searched instanceof LexicalIndex);
        const hits = searched.search(declared, 50).map((h) => h.path);
        assert.equal(hits[0], 'src/impl/module.ts', `${declared}: ${hits.join(', ')}`);
      }),
      200,
    );
  });
});
