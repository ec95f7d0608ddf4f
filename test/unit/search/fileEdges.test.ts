// Files at the edges of what the index reads (issue 34): long prose lines, line endings other
// than `\n`, UTF-16 with a byte-order mark, file names that are not valid UTF-8.
import * as assert from 'node:assert/strict';
import { chunkText } from '../../../src/core/search';
import { engineFor, paths, TempWorkspace } from './helpers';

const words = (n: number, seed: string): string => Array.from({ length: n }, (_, i) => `${seed}${i % 17} river`).join(' ');

describe('search: long lines and line endings (issue 34)', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = new TempWorkspace();
  });
  afterEach(() => ws.dispose());

  it('indexes a long Markdown paragraph (cut, not dropped) and still skips minified data', async () => {
    const paragraph = `The reconciliation ledger ${words(200, 'word')} explains the quarterly settlement.`;
    assert.ok(paragraph.length > 2000);
    ws.write('docs/guide.md', `# Guide\n\n${paragraph}\n`);
    const minified = `var a=${'[1,2,3],'.repeat(200)}zebraquokka=function(e,t){return e+t};`;
    ws.write('lib/bundle.min.js', `${minified}\n`);
    const { engine } = await openEngine(ws);
    assert.deepEqual(paths(engine.lexical('reconciliation ledger')), ['docs/guide.md']);
    assert.deepEqual(paths(engine.lexical('zebraquokka')), [], 'a minified line stays out');
  });

  it('treats \\r\\n, \\r and \\n alike as line breaks (a CR-only file is searchable, with its line numbers)', async () => {
    ws.write('old/mac.ts', 'const a = 1;\rexport function settleInvoice(invoice) {\r  return invoice.total;\r}\r');
    ws.write('win/dos.ts', 'const b = 2;\r\nexport function archiveReceipt(receipt) {\r\n  return receipt.id;\r\n}\r\n');
    const { engine } = await openEngine(ws);
    const mac = engine.lexical('settle invoice')[0];
    assert.equal(mac?.path, 'old/mac.ts');
    assert.deepEqual([mac?.startLine, mac?.endLine], [1, 4]);
    assert.equal(engine.lexical('archive receipt')[0]?.path, 'win/dos.ts');
    assert.deepEqual(chunkText('m.ts', 'a\rb\r\nc\nd').map((c) => [c.startLine, c.endLine, c.text]), [[1, 4, 'a\nb\nc\nd']]);
  });
});

async function openEngine(ws: TempWorkspace): Promise<ReturnType<typeof engineFor>> {
  const rig = engineFor(ws.root);
  await rig.engine.open();
  return rig;
}
