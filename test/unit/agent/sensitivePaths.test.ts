import assert from 'node:assert/strict';
import { sensitivePathReason } from '../../../src/core/agent/sensitivePaths';
import { hiddenCharacters } from '../../../src/core/agent/hiddenText';

describe('agent: sensitive paths (edits always shown in full with a warning)', () => {
  for (const path of [
    '.vscode/settings.json', '.vscode/tasks.json', 'app/.vscode/launch.json', '.git/hooks/pre-commit', '.git/config', '.github/workflows/ci.yml',
    '.husky/pre-commit', '.githooks/pre-push', '.devcontainer/devcontainer.json', 'package.json', 'packages/web/package.json', '.npmrc', '.envrc',
    'Makefile', 'sub/GNUmakefile', 'rules.mk', '.gitattributes', '.pre-commit-config.yaml', 'lefthook.yml', 'my.code-workspace', '.gitlab-ci.yml',
    // Case, Windows separators, trailing dots and spaces, alternate streams, 8.3 names, absolute paths.
    '.VSCode/Settings.json', '.vscode\\tasks.json', '.git./hooks/pre-commit', '.vscode /settings.json', 'package.json:stream', 'VSCODE~1/settings.json',
    'C:\\work\\repo\\.git\\config', '/home/u/repo/.github/workflows/x.yml', './.vscode/settings.json', 'folder-a/.husky/commit-msg', '.vscode',
  ]) {
    it(`flags ${JSON.stringify(path)}`, () => assert.ok(sensitivePathReason(path), path));
  }

  for (const path of ['src/index.ts', 'README.md', 'docs/vscode.md', 'github/notes.txt', 'package.json.bak', 'src/makefile.ts', 'notes.txt', '.gitignore', '...', 'vscode/settings.json']) {
    it(`does not flag ${JSON.stringify(path)}`, () => assert.equal(sensitivePathReason(path), undefined));
  }

  it('says why, naming what runs', () => {
    assert.match(sensitivePathReason('.vscode/tasks.json') ?? '', /inside \.vscode\/: .*run programs/);
    assert.match(sensitivePathReason('package.json') ?? '', /npm scripts/);
  });
});

describe('agent: hidden characters in proposed text', () => {
  it('names bidi controls, zero-width and tag characters, once each, and nothing in plain text', () => {
    assert.deepEqual(hiddenCharacters('if (isAdmin) {\u202E } \u2066// check\u2069 \u200B\u200B \u{E0041}'), ['U+202E', 'U+2066', 'U+2069', 'U+200B', 'U+E0041']);
    assert.deepEqual(hiddenCharacters('plain text, accents é, emoji 🎉, CJK 漢字\n\ttabs'), []);
  });
});
