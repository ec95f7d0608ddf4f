// Search at scale in the real host: the index lives in the index worker (dist/searchIndexWorker.js),
// so the extension host's heap stays about flat while a generated workspace of a few thousand
// files indexes; and a "window reload" (the service disposed and made again over the same storage
// folder: a real reload would restart this very test host) answers from disk without a rebuild.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as vscode from 'vscode';
import { SearchService } from '../../src/features/search/service';
import { stratus } from './extension';
import { testDeps } from './fakes';
import { sandbox } from './sandbox';

const FILES = 3000;
const WORDS = 'account ledger invoice payment refund token session cache queue worker retry budget quota schema report export import vault'.split(' ');

/** A seeded workspace of FILES TypeScript-like files (~8 KB each, ~24 MB): big enough that an index in the host's heap would show. */
function generate(root: string): void {
  let seed = 7;
  const rand = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const word = (): string => WORDS[Math.floor(rand() * WORDS.length)] ?? 'x';
  for (let f = 0; f < FILES; f++) {
    const lines: string[] = [];
    for (let i = 0; i < 60; i++) lines.push(`export function ${word()}${word()}${f}x${i}(${word()}Id: string) { return ${word()}Store.${word()}(${word()}Id, ${Math.floor(rand() * 1e6)}); } // ${word()} ${word()}`);
    if (f === 1234) lines.push('/** Reconciles the quarterly vendor escrow statement. */', 'export function reconcileVendorEscrow() {}');
    const path = join(root, `pkg${f % 40}`, `mod${f % 13}`, `file${f}.ts`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, lines.join('\n'));
  }
}

/** The host's heap after a full collection (gc exposed for this process for the measurement). */
function heapAfterGc(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('search at scale in the host (the index worker)', function () {
  this.timeout(240_000);
  let root: string;
  let storage: string;
  let workerDir: string;
  const disposables: vscode.Disposable[] = [];

  before(async () => {
    const { extension } = await stratus();
    workerDir = join(extension.extensionUri.fsPath, 'dist');
    root = mkdtempSync(join(tmpdir(), 'stratus-scale-ws-'));
    storage = mkdtempSync(join(tmpdir(), 'stratus-scale-storage-'));
    generate(root);
  });
  after(() => {
    for (const d of disposables.splice(0)) d.dispose();
    rmSync(root, { recursive: true, force: true });
    rmSync(storage, { recursive: true, force: true });
  });

  const service = (): SearchService => {
    const built = testDeps('Stratus search scale test', sandbox().apiKey);
    const s = new SearchService(built.deps, vscode.Uri.file(storage), { workerDir, folder: vscode.Uri.file(root) });
    disposables.push(...built.disposables, s);
    s.start();
    return s;
  };

  it('indexes a few thousand files with the host heap about flat, and answers', async () => {
    const s = service();
    const before = heapAfterGc();
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed - before);
    }, 20);
    try {
      await s.whenIndexed();
    } finally {
      clearInterval(sampler);
    }
    const after = heapAfterGc() - before;
    assert.ok(s.ready, 'the index is ready');
    const hits = await s.lexical('reconcile vendor escrow statement');
    assert.equal(hits[0]?.path, 'pkg34/mod12/file1234.ts');
    // The index of ~24 MB of source takes well over 100 MB where it lives; here only small answers.
    assert.ok(after < 30 * 1024 * 1024, `the host heap grew by ${(after / 1048576).toFixed(1)} MB after indexing`);
    assert.ok(peak < 80 * 1024 * 1024, `the host heap grew by up to ${(peak / 1048576).toFixed(1)} MB while indexing (garbage included)`);
  });

  it('after a reload (the service made again over the same storage) answers from disk without a rebuild', async () => {
    const first = service();
    await first.whenIndexed();
    first.dispose();
    const second = service();
    const stats = await second.index('open');
    assert.ok(stats, 'the index opened');
    assert.equal(stats.source, 'loaded');
    assert.equal(stats.indexed, 0, 'no file read again');
    assert.equal(stats.files, FILES);
    const result = await second.searchWorkspace('reconcile vendor escrow statement');
    assert.equal(result.hits[0]?.path, 'pkg34/mod12/file1234.ts');
  });

  it('never builds merely because the service started (first use builds)', async () => {
    const s = service();
    assert.equal(s.ready, false, 'nothing loaded or built before a search');
    const hits = await s.lexical('reconcile vendor escrow');
    // The first use started the load: what the index holds so far, then all of it.
    assert.ok(Array.isArray(hits));
    await s.whenIndexed();
    assert.equal(s.ready, true);
  });
});
