// Issue 31: the one judge of a write target decides from where a path lands (symbolic links
// resolved on a real disk), never from the path as typed.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALWAYS_IGNORED, judgeTarget, locateWriteTarget } from '../../../src/core/agent/writeTarget';
import { filterForPath } from '../../../src/core/workspace/ignoreRules';

describe('trust: the judge of a write target (real disk, symbolic links)', () => {
  let base = '';
  let ws = '';
  let ws2 = '';
  let outside = '';

  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'stratus-write-target-'));
    ws = join(base, 'ws');
    ws2 = join(base, 'ws2');
    outside = join(base, 'outside');
    for (const d of [join(ws, '.github', 'workflows'), join(ws, '.git', 'hooks'), join(ws, 'docs'), ws2, outside]) mkdirSync(d, { recursive: true });
    writeFileSync(join(ws, 'docs', 'readme.md'), 'hello\n');
    symlinkSync('../.github/workflows', join(ws, 'docs', 'ci'));
    symlinkSync('.git/hooks', join(ws, 'tools'));
    symlinkSync(outside, join(ws, 'escape'));
    symlinkSync(join(outside, 'not-yet.sh'), join(ws, 'dangling.sh'));
    symlinkSync(ws2, join(ws, 'other'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  const roots = (): string[] => [ws, ws2];

  it('a new file through a link lands where the link points, relative to the real folder', async () => {
    const ci = await locateWriteTarget(join(ws, 'docs', 'ci', 'deploy.yml'), roots());
    assert.deepEqual(ci, { ok: true, real: join(realpathSync(ws), '.github', 'workflows', 'deploy.yml'), rootIndex: 0, relative: '.github/workflows/deploy.yml', exists: false });
    const deep = await locateWriteTarget(join(ws, 'tools', 'sub', 'pre-commit'), roots());
    assert.ok(deep.ok);
    assert.equal(deep.relative, '.git/hooks/sub/pre-commit');
    const existing = await locateWriteTarget(join(ws, 'docs', 'readme.md'), roots());
    assert.ok(existing.ok && existing.exists && existing.relative === 'docs/readme.md');
  });

  it('a link into another workspace folder lands in that folder', async () => {
    const other = await locateWriteTarget(join(ws, 'other', 'a.txt'), roots());
    assert.ok(other.ok);
    assert.equal(other.rootIndex, 1);
    assert.equal(other.relative, 'a.txt');
  });

  it('refuses a target that leaves the workspace folders, and a dangling link', async () => {
    assert.deepEqual(await locateWriteTarget(join(ws, 'escape', 'x.txt'), roots()), { ok: false, reason: 'outside' });
    assert.deepEqual(await locateWriteTarget(join(ws, 'escape'), roots()), { ok: false, reason: 'outside' });
    assert.deepEqual(await locateWriteTarget(join(ws, 'dangling.sh'), roots()), { ok: false, reason: 'dangling' });
    assert.deepEqual(await locateWriteTarget(join(base, 'elsewhere.txt'), roots()), { ok: false, reason: 'outside' });
  });

  it('judges sensitivity and ignore status where the path lands, not as typed', async () => {
    const judge = async (typed: string): Promise<ReturnType<typeof judgeTarget>> => {
      const at = await locateWriteTarget(join(ws, ...typed.split('/')), roots());
      assert.ok(at.ok, typed);
      const filter = await filterForPath(ALWAYS_IGNORED, at.relative, async () => undefined);
      return judgeTarget(typed, at.relative, filter);
    };
    const ci = await judge('docs/ci/deploy.yml');
    assert.match(ci.sensitive ?? '', /inside \.github\//);
    assert.equal(ci.ignored, undefined);
    const hook = await judge('tools/pre-commit');
    assert.match(hook.sensitive ?? '', /inside \.git\//);
    assert.match(hook.ignored ?? '', /inside \.git\/ .*\(\.git\)/);
    assert.deepEqual(await judge('docs/notes.md'), { sensitive: undefined, ignored: undefined });
  });

  it('reads the .gitignore files on the way of the real path, once each', async () => {
    mkdirSync(join(ws, 'pkg', 'build'), { recursive: true });
    symlinkSync('pkg/build', join(ws, 'out'));
    const asked: string[] = [];
    const at = await locateWriteTarget(join(ws, 'out', 'x.js'), roots());
    assert.ok(at.ok);
    const filter = await filterForPath([], at.relative, async (dir) => {
      asked.push(dir);
      return dir === 'pkg' ? 'build/\n' : undefined;
    });
    assert.deepEqual(asked.sort(), ['', 'pkg', 'pkg/build']);
    assert.match(judgeTarget('out/x.js', at.relative, filter).ignored ?? '', /ignored by a \.gitignore \(pkg\/build\)/);
  });
});
