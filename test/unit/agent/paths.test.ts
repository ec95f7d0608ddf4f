import assert from 'node:assert/strict';
import { confineGlob, confinePath, isInside, type WorkspaceRoot } from '../../../src/core/agent/paths';

const ws: WorkspaceRoot = { name: 'app', fsPath: '/home/u/app' };
const lib: WorkspaceRoot = { name: 'lib', fsPath: '/home/u/lib' };

describe('agent: workspace path confinement', () => {
  it('accepts relative paths, ./ and absolute paths inside a folder', () => {
    assert.deepEqual(confinePath([ws], 'src/a.ts'), { ok: true, root: ws, fsPath: '/home/u/app/src/a.ts', relative: 'src/a.ts' });
    assert.equal((confinePath([ws], './src//b.ts') as { fsPath: string }).fsPath, '/home/u/app/src/b.ts');
    assert.equal((confinePath([ws], '/home/u/app/x.md') as { relative: string }).relative, 'x.md');
    assert.equal((confinePath([ws], '.') as { fsPath: string }).fsPath, '/home/u/app');
  });

  it('picks the named folder in a multi-root workspace', () => {
    const r = confinePath([ws, lib], 'lib/index.ts');
    assert.ok(r.ok);
    assert.equal(r.root, lib);
    assert.equal(r.fsPath, '/home/u/lib/index.ts');
    assert.ok(confinePath([ws, lib], '/home/u/lib/z').ok);
  });

  for (const bad of ['../secrets.txt', 'src/../../etc/passwd', '..\\x', 'a/..', '/etc/passwd', '/home/u/application/x', '~/x', 'file:///etc/passwd', '', '   ', 'a\0b']) {
    it(`refuses ${JSON.stringify(bad)} with a sentence`, () => {
      const r = confinePath([ws], bad);
      assert.equal(r.ok, false);
      assert.ok(!r.ok && r.reason.length > 10 && /\.$/.test(r.reason));
    });
  }

  it('refuses everything when no folder is open', () => {
    const r = confinePath([], 'a.txt');
    assert.ok(!r.ok && /No workspace folder/.test(r.reason));
  });

  it('windows paths', () => {
    const win: WorkspaceRoot = { name: 'w', fsPath: 'C:\\work\\w' };
    assert.equal((confinePath([win], 'src\\a.ts') as { fsPath: string }).fsPath, 'C:\\work\\w\\src\\a.ts');
    assert.equal(confinePath([win], 'D:\\other\\a.ts').ok, false);
    assert.ok(isInside('C:\\work\\w', 'C:\\work\\w\\a'));
    assert.ok(!isInside('C:\\work\\w', 'C:\\work\\wx'));
  });

  it('globs: relative only, no ..', () => {
    assert.deepEqual(confineGlob('src\\**\\*.ts'), { ok: true, glob: 'src/**/*.ts' });
    for (const bad of ['../**', '/etc/*', 'C:\\x\\*', '', '~/x']) assert.equal(confineGlob(bad).ok, false, bad);
  });
});

describe('confineGlob: backslash-led globs (found by the property suite, issue 22)', () => {
  it('refuses a glob that is absolute once its backslashes are slashes', () => {
    assert.equal(confineGlob('\\etc\\*').ok, false);
    assert.equal(confineGlob('\\\\server\\share\\**').ok, false);
    assert.equal(confineGlob('C:\\Users\\*').ok, false);
    assert.deepEqual(confineGlob('src\\**\\*.ts'), { ok: true, glob: 'src/**/*.ts' });
  });
});
