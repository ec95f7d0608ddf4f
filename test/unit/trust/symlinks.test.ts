// Issue 22, trust: workspace confinement with symbolic links, on a real disk. Random trees of
// files, folders and links (to files and folders inside, to another root, outside, dangling, in a
// loop, relative with ..) in two roots: the confined reader never hands out a byte of a file whose
// real path is outside every root, however the path asking for it is spelled.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { ConfinedReader, isWithin } from '../../../src/core/workspace/confinedReader';
import { check } from '../properties/harness';

const SECRET = 'fake-outside-secret-never-read';

type Entry = { kind: 'file' } | { kind: 'dir' } | { kind: 'link'; target: string };

const name = fc.constantFrom('a', 'b', 'c', 'd');
const linkTarget = fc.constantFrom('/OUTSIDE/secret.txt', '/OUTSIDE', '/ROOT1/a', '../outside/secret.txt', '../outside', '/OUTSIDE/secret.txt', '/OUTSIDE', '../ws2/a', 'a', 'b/a', '.', '..', 'missing', 'c', '/ROOT1/b', '../../outside/secret.txt');
const entry: fc.Arbitrary<[string, Entry]> = fc.tuple(
  fc.array(name, { minLength: 1, maxLength: 2 }).map((p) => p.join('/')),
  fc.oneof({ arbitrary: fc.constant<Entry>({ kind: 'file' }), weight: 3 }, { arbitrary: fc.constant<Entry>({ kind: 'dir' }), weight: 1 }, { arbitrary: linkTarget.map((target): Entry => ({ kind: 'link', target })), weight: 4 }),
);
const suffix = fc.constantFrom('', '', '', '/secret.txt', '/a', '/b/a', '/../outside/secret.txt', '/./a');
const askedPath = fc.tuple(fc.constantFrom('ws1', 'ws2'), fc.array(fc.constantFrom('a', 'b', 'c', 'd', '..', '.', 'secret.txt', 'outside'), { minLength: 1, maxLength: 5 })).map(([root, parts]) => ({ root, rel: parts.join('/') }));

describe('trust: workspace confinement through symbolic links (real disk)', function () {
  this.timeout(60_000);
  let base = '';
  before(() => {
    base = mkdtempSync(join(tmpdir(), 'stratus-trust-links-'));
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it('property: whatever the links and the path, a read either is refused or returns a file whose real path is inside a root', () => {
    let run = 0;
    check(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 10 }), fc.array(askedPath, { maxLength: 3 }), fc.array(fc.tuple(fc.nat(), suffix), { minLength: 1, maxLength: 6 }), (entries, randomAsks, picks) => {
        // Mostly paths through the entries just made (a link and what lies behind it), some random.
        const asks = [...randomAsks, ...picks.map(([n, end]) => ({ root: 'ws1', rel: `${entries[n % entries.length]?.[0] ?? 'a'}${end}` }))];
        const dir = join(base, String(run++));
        const roots = [join(dir, 'ws1'), join(dir, 'ws2')];
        const outside = join(dir, 'outside');
        for (const d of [...roots, outside]) mkdirSync(d, { recursive: true });
        writeFileSync(join(outside, 'secret.txt'), SECRET);
        for (const [rel, e] of entries) {
          const at = join(roots[0] as string, rel);
          try {
            mkdirSync(join(at, '..'), { recursive: true });
            if (e.kind === 'file') writeFileSync(at, `inside ${rel}`);
            else if (e.kind === 'dir') mkdirSync(at, { recursive: true });
            else symlinkSync(e.target.replace('/OUTSIDE', outside).replace('/ROOT1', roots[0] as string), at);
          } catch {
            // A path already taken by another entry (or under a file): keep the first.
          }
        }
        const reader = new ConfinedReader(roots);
        const realRoots = roots.map((r) => realpathSync(r));
        for (const { root, rel } of asks) {
          const absolute = join(dir, root, rel);
          const r = reader.read(absolute, { maxBytes: 10_000, overCap: 'truncate' });
          if (!r.ok) continue;
          assert.ok(!Buffer.from(r.bytes).toString('utf8').includes(SECRET), `${root}/${rel} read the outside secret`);
          const real = realpathSync(absolute);
          assert.ok(realRoots.some((rr) => isWithin(rr, real)), `${root}/${rel} -> ${real} is outside the roots`);
        }
      }),
      80,
    );
  });
});
