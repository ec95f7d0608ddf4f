import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileNotReadError, NodeFileSystem } from '../../../src/core/search';
import { ConfinedReader, nodeReaderFs, type ReaderFs } from '../../../src/core/workspace/confinedReader';

/** node:fs, counting the bytes the reader asks to read (and reads). */
function countingFs(): ReaderFs & { requested: number; read: number } {
  const fs = {
    ...nodeReaderFs,
    requested: 0,
    read: 0,
    readSync(fd: number, buffer: Buffer, offset: number, length: number, position: number): number {
      fs.requested += length;
      const n = nodeReaderFs.readSync(fd, buffer, offset, length, position);
      fs.read += n;
      return n;
    },
  };
  return fs;
}

const SECRET = 'fake-outside-secret-do-not-index';
const BIG = 3 * 1024 * 1024 * 1024; // sparse: no disk used

describe('confined workspace reader (src/core/workspace)', () => {
  let base: string;
  let root: string;
  let outside: string;

  before(() => {
    base = mkdtempSync(join(tmpdir(), 'stratus-confine-'));
    root = join(base, 'ws');
    outside = join(base, 'outside');
    mkdirSync(join(root, 'src'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.txt'), `${SECRET}\n`);
    writeFileSync(join(root, 'src', 'real.ts'), 'export const inside = 1;\n');
    writeFileSync(join(root, 'bin.dat'), Buffer.from([1, 2, 0, 3]));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'escape.txt'));
    symlinkSync(outside, join(root, 'escape-dir'));
    symlinkSync(join(root, 'src', 'real.ts'), join(root, 'inside-link.ts'));
    symlinkSync('../escape-dir/secret.txt', join(root, 'src', 'chained.txt'));
    execFileSync('mkfifo', [join(root, 'pipe')]);
    writeFileSync(join(root, 'huge.log'), '');
    truncateSync(join(root, 'huge.log'), BIG);
  });

  after(() => rmSync(base, { recursive: true, force: true }));

  it('refuses a link to a file outside, a file under a linked folder outside, and a chain that ends outside', () => {
    const fs = countingFs();
    const reader = new ConfinedReader([root], fs);
    for (const rel of ['escape.txt', 'escape-dir/secret.txt', 'src/chained.txt']) {
      const r = reader.read(join(root, rel), { maxBytes: 1_000_000, overCap: 'truncate' });
      assert.deepEqual(r, { ok: false, reason: 'outside' }, rel);
      assert.equal(reader.stat(join(root, rel)).ok, false, rel);
    }
    assert.deepEqual(reader.list(join(root, 'escape-dir')), { ok: false, reason: 'outside' });
    assert.equal(fs.read, 0, 'not a byte read');
  });

  it('follows a link that stays inside, and works when the root itself is reached through a link', () => {
    const r = new ConfinedReader([root]).read(join(root, 'inside-link.ts'), { maxBytes: 1000, overCap: 'refuse' });
    assert.ok(r.ok);
    assert.equal(Buffer.from(r.bytes).toString(), 'export const inside = 1;\n');
    const alias = join(base, 'alias');
    symlinkSync(root, alias);
    const viaAlias = new ConfinedReader([alias]);
    assert.ok(viaAlias.read(join(alias, 'src', 'real.ts'), { maxBytes: 1000, overCap: 'refuse' }).ok);
    assert.equal(viaAlias.read(join(alias, 'escape.txt'), { maxBytes: 1000, overCap: 'refuse' }).ok, false);
  });

  it('refuses a FIFO without blocking, and a folder, as not files', () => {
    const fs = countingFs();
    const reader = new ConfinedReader([root], fs);
    const pipe = reader.read(join(root, 'pipe'), { maxBytes: 1000, overCap: 'truncate' });
    assert.equal(pipe.ok || pipe.reason, 'not_file');
    const dir = reader.read(join(root, 'src'), { maxBytes: 1000, overCap: 'truncate' });
    assert.deepEqual(dir, { ok: false, reason: 'not_file', detail: 'directory' });
    assert.equal(fs.read, 0);
  });

  it('checks the size before reading: a 3 GB file over the cap is refused with nothing read, or read only up to the cap', () => {
    const fs = countingFs();
    const reader = new ConfinedReader([root], fs);
    const refused = reader.read(join(root, 'huge.log'), { maxBytes: 1024 * 1024, overCap: 'refuse' });
    assert.equal(refused.ok, false);
    assert.equal(!refused.ok && refused.reason, 'too_large');
    assert.equal(!refused.ok && refused.stamp?.size, BIG);
    assert.equal(fs.requested, 0, 'nothing asked of the file');
    const cut = reader.read(join(root, 'huge.log'), { maxBytes: 4096, overCap: 'truncate' });
    assert.ok(cut.ok);
    assert.equal(cut.bytes.length, 4096);
    assert.equal(cut.truncated, true);
    assert.equal(cut.stamp.size, BIG);
    assert.equal(fs.requested, 4096, 'only the capped bytes were asked for');
  });

  it('says gone for a missing file, unchanged without reading, and binary for a NUL byte', () => {
    const fs = countingFs();
    const reader = new ConfinedReader([root], fs);
    assert.deepEqual(reader.read(join(root, 'nope.ts'), { maxBytes: 10, overCap: 'refuse' }), { ok: false, reason: 'gone' });
    const first = reader.read(join(root, 'src', 'real.ts'), { maxBytes: 1000, overCap: 'refuse' });
    assert.ok(first.ok && !first.binary);
    const before = fs.requested;
    const again = reader.read(join(root, 'src', 'real.ts'), { maxBytes: 1000, overCap: 'refuse', unless: first.stamp });
    assert.equal(!again.ok && again.reason, 'unchanged');
    assert.equal(fs.requested, before);
    const bin = reader.read(join(root, 'bin.dat'), { maxBytes: 1000, overCap: 'refuse' });
    assert.ok(bin.ok && bin.binary);
  });

  // Only Linux has /proc/self/fd, so only there does the reader ask where a descriptor really is;
  // elsewhere it takes the real path first, which the next test checks on every system.
  if (process.platform === 'linux') {
    it('decides on where the open descriptor really is (a folder swapped for a link after any check is refused)', () => {
      const fs = { ...countingFs(), readlinkSync: (p: string) => (p.startsWith('/proc/self/fd/') ? join(outside, 'secret.txt') : nodeReaderFs.readlinkSync(p)) };
      const r = new ConfinedReader([root], fs).read(join(root, 'src', 'real.ts'), { maxBytes: 1000, overCap: 'truncate' });
      assert.deepEqual(r, { ok: false, reason: 'outside' });
      assert.equal(fs.read, 0);
    });
  }

  it('without /proc (other systems) checks the real path before opening, with the same answers', () => {
    const noProc = { ...nodeReaderFs, readlinkSync: (p: string): string => {
      if (p.startsWith('/proc/')) throw Object.assign(new Error('no /proc'), { code: 'ENOENT' });
      return nodeReaderFs.readlinkSync(p);
    } };
    const reader = new ConfinedReader([root], noProc);
    assert.ok(reader.read(join(root, 'src', 'real.ts'), { maxBytes: 1000, overCap: 'refuse' }).ok, 'the first read finds /proc missing');
    for (const rel of ['escape.txt', 'escape-dir/secret.txt', 'src/chained.txt']) {
      assert.deepEqual(reader.read(join(root, rel), { maxBytes: 1000, overCap: 'refuse' }), { ok: false, reason: 'outside' }, rel);
    }
    assert.ok(reader.read(join(root, 'inside-link.ts'), { maxBytes: 1000, overCap: 'refuse' }).ok);
  });

  it('confines NodeFileSystem (the search index on a local disk): stat, read, loadSync and list', async () => {
    const fs = new NodeFileSystem(root);
    for (const rel of ['escape.txt', 'escape-dir/secret.txt']) {
      assert.equal(await fs.stat(rel), undefined, rel);
      assert.equal(fs.loadSync(rel, 1_000_000), undefined, rel);
      await assert.rejects(fs.read(rel, 1_000_000), (e: unknown) => e instanceof FileNotReadError && e.reason === 'outside');
    }
    await assert.rejects(fs.list('escape-dir'), (e: unknown) => e instanceof FileNotReadError && e.reason === 'outside');
    assert.equal(fs.loadSync('pipe', 1000), undefined);
    const huge = fs.loadSync('huge.log', 1024);
    assert.deepEqual(huge, { stat: huge?.stat, bytes: undefined });
    await assert.rejects(fs.read('huge.log', 1024), (e: unknown) => e instanceof FileNotReadError && e.reason === 'too_large');
    const names = (await fs.list('')).map((e) => `${e.name}:${e.kind}`).sort();
    assert.ok(names.includes('escape.txt:other') && names.includes('escape-dir:other'), 'links are not crawled');
  });
});
