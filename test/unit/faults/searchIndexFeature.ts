// The search index's storage in the matrix: the index is local (its only requests are the rerank
// and embeddings rows), so the faults that apply are the storage ones. The index is written by
// the real engine (src/core/search/engine/engine.ts) through an IndexStorage: NodeIndexStorage on disk,
// behind a switch that makes writes fail with ENOSPC (a full disk) or over a folder that cannot
// be created (a file in the way: unwritable even for root, which ignores permission bits).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SEARCH_SETTINGS, INDEX_FILE, LexicalIndex, loadStoredIndex, NodeFileSystem, NodeIndexStorage, SearchEngine, type IndexStorage, type RandomAccessFile } from '../../../src/core/search';
import { logged, type Feature, type Outcome } from './features';

/** NodeIndexStorage whose writes fail like a full disk while `full` is set. */
class FullDiskStorage implements IndexStorage {
  full = false;
  constructor(private readonly disk: NodeIndexStorage) {}
  read(name: string): Promise<Uint8Array | undefined> {
    return this.disk.read(name);
  }
  write(name: string, data: Uint8Array | readonly Uint8Array[]): Promise<void> {
    if (!this.full) return this.disk.write(name, data);
    return Promise.reject(Object.assign(new Error(`ENOSPC: no space left on device, write '${name}'`), { code: 'ENOSPC', errno: -28, syscall: 'write' }));
  }
  delete(name: string): Promise<void> {
    if (!this.full) return this.disk.delete(name);
    return Promise.reject(Object.assign(new Error(`ENOSPC: no space left on device, unlink '${name}'`), { code: 'ENOSPC', errno: -28, syscall: 'unlink' }));
  }
  open(name: string): Promise<RandomAccessFile | undefined> {
    return this.disk.open(name);
  }
}

const WORD = 'quokkaledger';

export const searchIndex: Feature = {
  id: 'search index',
  path: '(local)',
  body: 'json',
  boundMs: 0,
  run: async (ctx) => {
    const root = ctx.dir();
    const workspace = join(root, 'ws');
    mkdirSync(join(workspace, 'src'), { recursive: true });
    writeFileSync(join(workspace, 'src', 'cart.ts'), 'export function cartTotal(items: number[]) {\n  return items.reduce((a, b) => a + b, 0);\n}\n');
    writeFileSync(join(workspace, 'src', 'user.ts'), 'export interface User {\n  name: string;\n}\n');
    const settings = { ...DEFAULT_SEARCH_SETTINGS };
    const pending: Array<() => void> = [];
    const setTimer = (_ms: number, fire: () => void): (() => void) => {
      pending.push(fire);
      return () => pending.splice(pending.indexOf(fire) >>> 0, 1);
    };
    const folder = ctx.disk === 'unwritable' ? join(root, 'blocker', 'index') : join(root, 'index');
    const storage = new FullDiskStorage(new NodeIndexStorage(folder));
    const engine = new SearchEngine({ fs: new NodeFileSystem(workspace), storage, logger: ctx.logger, settings: () => settings, setTimer });
    const violations: string[] = [];
    // A good index is on disk first (the unwritable folder never had one: a file is in its way).
    if (ctx.disk === 'unwritable') writeFileSync(join(root, 'blocker'), '');
    await engine.open();
    await engine.persisted();
    const before = existsSync(join(folder, INDEX_FILE)) ? readFileSync(join(folder, INDEX_FILE)) : undefined;
    if (ctx.disk !== 'unwritable' && !before) violations.push('no index written while the storage worked');
    const listing = (): string[] => (existsSync(folder) ? readdirSync(folder).sort() : []);
    const filesBefore = listing();

    // The storage breaks; a file changes; the debounced update and two saves run.
    storage.full = ctx.disk === 'full';
    writeFileSync(join(workspace, 'src', 'ledger.ts'), `export const ${WORD} = new Map<string, number>();\n`);
    engine.notifyChanged('src/ledger.ts');
    for (let round = 0; round < 3 && pending.length > 0; round++) for (const fire of pending.splice(0)) fire();
    await engine.flush();
    await engine.save();
    await engine.save();
    await engine.persisted();
    const answered = engine.lexical(WORD).map((h) => h.path);
    if (!answered.includes('src/ledger.ts')) violations.push(`the in-memory index does not answer with the new file (${JSON.stringify(answered)})`);
    const warnings = (ctx.logger as { lines?: Array<{ level: string; message: string }> }).lines?.filter((l) => l.level === 'warn' && /Search index not saved/.test(l.message)) ?? [];
    if (warnings.length !== 1) violations.push(`${warnings.length} warnings for the failed writes (one expected)`);
    const after = existsSync(join(folder, INDEX_FILE)) ? readFileSync(join(folder, INDEX_FILE)) : undefined;
    if (before && (!after || !after.equals(before))) violations.push('the index file on disk changed while writes failed');
    if (listing().join() !== filesBefore.join()) violations.push(`files left in the storage folder: ${JSON.stringify(listing())}`);
    if (before) {
      const loaded = LexicalIndex.deserialize(after ?? new Uint8Array(), engine.settingsKey());
      if (!(loaded instanceof LexicalIndex)) violations.push('the index on disk no longer loads');
    }

    // The storage comes back: the next save writes the up-to-date index.
    storage.full = false;
    if (ctx.disk === 'unwritable') rmSync(join(root, 'blocker'));
    await engine.save();
    // The stored index: the segment and the live file beside it (the changes since; format v6).
    const saved = (await loadStoredIndex(new NodeIndexStorage(folder), engine.settingsKey()))?.index;
    if (!(saved instanceof LexicalIndex) || !saved.paths().includes('src/ledger.ts')) violations.push('the index saved once storage came back lacks the new file');
    if (!logged(ctx.logger, /Search index not saved/)) violations.push('no warning logged');
    engine.dispose();
    const outcome: Outcome = { kind: 'ok', detail: `answers from memory; ${warnings.length} warning` };
    return { outcome, elapsedMs: 0, requests: 0, shown: [warnings.map((w) => w.message).join('\n')], violations };
  },
};
