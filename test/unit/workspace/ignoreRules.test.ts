import * as assert from 'node:assert/strict';
import { enabledGlobs, expandBraces, filterForPath, gitignoreFoldersOf, globToGitignore, ignoredAlongPath, ignoredReason, looksBinary, PathFilter } from '../../../src/core/workspace/ignoreRules';

describe('workspace: ignore rules', () => {
  it('expands braces and anchors root-only VS Code globs', () => {
    assert.deepEqual(expandBraces('**/*.{js,ts}'), ['**/*.js', '**/*.ts']);
    assert.deepEqual(expandBraces('{a,b{c,d}}'), ['a', 'bc', 'bd']);
    assert.deepEqual(globToGitignore('*.log'), ['/*.log']);
    assert.deepEqual(globToGitignore('**/dist'), ['**/dist']);
  });

  it('takes only enabled patterns of an exclude setting', () => {
    assert.deepEqual(enabledGlobs({ '**/.git': true, '**/out': false, '**/*.js': { when: '$(basename).ts' } }), ['**/.git']);
  });

  it('applies files.exclude / search.exclude globs', () => {
    const f = new PathFilter(['**/node_modules', '**/*.min.js', 'build', '**/.{git,svn}']);
    assert.equal(f.check('node_modules', true), 'excluded');
    assert.equal(f.check('pkg/node_modules', true), 'excluded');
    assert.equal(f.check('src/app.min.js', false), 'excluded');
    assert.equal(f.check('build', true), 'excluded');
    assert.equal(f.check('src/build', true), undefined, 'a root-only glob does not match deeper');
    assert.equal(f.check('.svn', true), 'excluded');
    assert.equal(f.check('src/app.js', false), undefined);
  });

  it('applies .gitignore files below their own folder, with negations', () => {
    const f = new PathFilter();
    f.addGitignore('', 'dist/\n*.log\n!keep.log\n');
    f.addGitignore('packages/a', 'generated\n');
    assert.equal(f.check('dist', true), 'gitignored');
    assert.equal(f.check('dist', false), undefined, 'dist/ only matches a folder');
    assert.equal(f.check('src/debug.log', false), 'gitignored');
    assert.equal(f.check('src/keep.log', false), undefined);
    assert.equal(f.check('packages/a/generated', false), 'gitignored');
    assert.equal(f.check('packages/b/generated', false), undefined);
    f.removeGitignore('packages/a');
    assert.equal(f.check('packages/a/generated', false), undefined);
  });

  it('lets a deeper .gitignore re-include with !pattern what a higher one ignores, as git does (issue 34)', () => {
    const f = new PathFilter();
    f.addGitignore('', '*.gen.ts\n*.log\n');
    f.addGitignore('pkg', '!api.gen.ts\n');
    f.addGitignore('pkg/deep', 'api.gen.ts\n');
    assert.equal(f.check('pkg/api.gen.ts', false), undefined, 'the deeper negation wins');
    assert.equal(f.check('pkg/other.gen.ts', false), 'gitignored');
    assert.equal(f.check('pkg/deep/api.gen.ts', false), 'gitignored', 'a still deeper rule ignores again');
    assert.equal(f.check('src/api.gen.ts', false), 'gitignored', 'the negation applies only below its folder');
    assert.equal(ignoredAlongPath(f, 'pkg/sub/api.gen.ts'), undefined);
  });

  it('recognises binaries by a NUL byte', () => {
    assert.equal(looksBinary(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1])), true);
    assert.equal(looksBinary(new TextEncoder().encode('plain text é')), false);
  });
});

describe('workspace: ignoredAlongPath', () => {
  it('covers a path under an ignored folder, as git does', () => {
    const filter = new PathFilter(['**/dist']);
    filter.addGitignore('', 'secrets/\n');
    assert.equal(ignoredAlongPath(filter, 'secrets/deep/key.pem'), 'gitignored');
    assert.equal(ignoredAlongPath(filter, 'app/dist/out.js'), 'excluded');
    assert.equal(ignoredAlongPath(filter, 'src/secrets.ts'), undefined);
    assert.equal(ignoredAlongPath(filter, ''), undefined);
  });
});

describe('workspace: filterForPath', () => {
  it('reads the .gitignore of the root and of each folder on the way, and applies each below its folder', async () => {
    assert.deepEqual(gitignoreFoldersOf('a/b/c.txt'), ['', 'a', 'a/b']);
    assert.deepEqual(gitignoreFoldersOf('top.txt'), ['']);
    const texts: Record<string, string> = { '': 'secret.txt\n', a: 'b/\n' };
    const filter = await filterForPath(['**/dist'], 'a/b/c.txt', async (dir) => texts[dir]);
    assert.equal(ignoredAlongPath(filter, 'a/b/c.txt'), 'gitignored');
    assert.equal(ignoredAlongPath(filter, 'x/dist/y.js'), 'excluded');
    assert.equal(ignoredAlongPath(await filterForPath([], 'a/c.txt', undefined), 'a/c.txt'), undefined);
  });
});

describe('workspace: ignoredReason', () => {
  it('says why a path is ignored with the part that matched (a .gitignore, files.exclude or .git/), the one text the write judge and prompt-file links show', async () => {
    const filter = await filterForPath(['**/.git', '**/dist'], 'notes/logs/build.log', async (dir) => (dir === 'notes' ? 'logs/\n' : undefined));
    assert.equal(ignoredReason(filter, 'notes/logs/build.log'), 'it is ignored by a .gitignore (notes/logs)');
    assert.equal(ignoredReason(filter, 'web/dist/app.js'), 'it is in a folder or matches a pattern excluded by files.exclude, or inside .git/ or node_modules/ (web/dist)');
    assert.match(ignoredReason(filter, '.git/hooks/pre-commit') ?? '', /inside \.git\/ .*\(\.git\)$/);
    assert.equal(ignoredReason(filter, '.github/prompts/notes.md'), undefined, '.github/ is sensitive to write, not ignored');
    assert.equal(ignoredReason(filter, 'notes/readme.md'), undefined);
  });
});
