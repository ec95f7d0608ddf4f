// Files at the edges of what the index reads (issue 34): long prose lines, line endings other
// than `\n`, UTF-16 with a byte-order mark, file names that are not valid UTF-8.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chunkRanges, chunkText, LexicalIndex, type IndexStats } from '../../../src/core/search';
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

  it('reads a large file of \\r breaks in one pass (each break searched for once, not once per line)', () => {
    // 60,000 lines of `\r`: a search for the next `\n` per line read the rest of the file each time.
    const lines = Array.from({ length: 60_000 }, (_, i) => `export const value${i} = ${i}; // settles ledger row ${i}`);
    const text = lines.join('\r');
    const chunks = chunkText('big/mac.ts', text);
    assert.equal(chunks.at(-1)?.endLine, 60_000);
    const index = new LexicalIndex();
    index.setFileText('big/mac.ts', { mtime: 1, size: text.length }, text, chunkRanges('big/mac.ts', text));
    const hit = index.search('value59999', 1)[0];
    assert.ok(hit && hit.startLine <= 60_000 && hit.endLine === 60_000, JSON.stringify(hit));
  });
});

async function openEngine(ws: TempWorkspace): Promise<ReturnType<typeof engineFor> & { stats: IndexStats }> {
  const rig = engineFor(ws.root);
  const stats = await rig.engine.open();
  return { ...rig, stats };
}

describe('search: file names and encodings (issue 34)', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = new TempWorkspace();
    ws.write('src/ok.ts', 'export function settleInvoice() {}\n');
  });
  afterEach(() => ws.dispose());

  it('decodes UTF-16 files with a byte-order mark (little and big endian) instead of calling them binary', async () => {
    const text = 'export function reconcileLedger(entries) {\n  return entries.length;\n}\n';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le);
    be.swap16();
    be[0] = 0xfe;
    be[1] = 0xff;
    ws.write('src/little.ts', le);
    ws.write('src/big.ts', be);
    const { engine, stats } = await openEngine(ws);
    assert.equal(stats.skipped.binary, 0);
    assert.deepEqual(paths(engine.lexical('reconcile ledger')).sort(), ['src/big.ts', 'src/little.ts']);
    assert.match(engine.lexical('reconcile ledger')[0]?.preview ?? '', /^export function reconcileLedger/);
  });

  it('counts a file whose name is not valid UTF-8 among the unreadable, and logs it', async function () {
    if (process.platform !== 'linux') this.skip();
    const name = Buffer.concat([Buffer.from(join(ws.root, 'src/')), Buffer.from([0x62, 0xff, 0x61, 0x64, 0x2e, 0x74, 0x73])]);
    writeFileSync(name, 'export function settleInvoice() {}\n');
    const { stats, logs } = await openEngine(ws);
    assert.equal(stats.skipped.unreadable, 1);
    assert.equal(stats.files, 1);
    assert.ok(logs.some((l) => /not valid UTF-8/.test(l)), logs.join('\n'));
  });
});
