import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CodeServerNotInstalledError, codeServerInstall, newestCompatDir, repoRoot } from '../../harness/codeServer.mjs';

/** A folder shaped like a code-server install (package.json, entry.js, cli.js), nothing runnable. */
function fakeInstall(options: { version: string; cli: string; own?: unknown; withEntry?: boolean }): string {
  const root = mkdtempSync(join(tmpdir(), 'stratus-cs-install-'));
  const cs = join(root, 'node_modules', 'code-server');
  mkdirSync(join(cs, 'out', 'node'), { recursive: true });
  writeFileSync(join(cs, 'package.json'), JSON.stringify({ name: 'code-server', version: options.version }));
  if (options.withEntry !== false) writeFileSync(join(cs, 'out', 'node', 'entry.js'), '');
  writeFileSync(join(cs, 'out', 'node', 'cli.js'), options.cli);
  if (options.own) writeFileSync(join(root, 'package.json'), JSON.stringify(options.own));
  return root;
}

describe('harness: which code-server a host run uses', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('an install without --vscode-option (4.104) is detected, with its version and its left-out tests', () => {
    const root = fakeInstall({
      version: '4.104.0',
      cli: 'const options = { "bind-addr": {} };',
      own: { stratusHostTier: { exclude: [{ test: 'needs the chat view', reason: 'x' }], why: 'no Chat view in 4.104' } },
    });
    made.push(root);
    const install = codeServerInstall(root);
    assert.equal(install.root, root);
    assert.equal(install.version, '4.104.0');
    assert.equal(install.vscodeOptions, false);
    assert.equal(install.entry, join(root, 'node_modules', 'code-server', 'out', 'node', 'entry.js'));
    assert.deepEqual(install.excluded, { tests: ['needs the chat view'], why: 'no Chat view in 4.104' });
    assert.equal(install.node, process.execPath, 'no node devDependency there: the running Node');
  });

  it('an install with --vscode-option and no exclusions runs everything', () => {
    const root = fakeInstall({ version: '4.139.1', cli: 'const options = { "vscode-option": { type: "string[]" } };' });
    made.push(root);
    const install = codeServerInstall(root);
    assert.equal(install.vscodeOptions, true);
    assert.deepEqual(install.excluded, { tests: [], why: '' });
  });

  it('a folder where code-server is not installed says how to install it', () => {
    const root = fakeInstall({ version: '4.104.0', cli: '', withEntry: false });
    made.push(root);
    assert.throws(() => codeServerInstall(root), (error: Error) => {
      assert.ok(error instanceof CodeServerNotInstalledError, 'a typed error the scripts print without a stack');
      assert.match(error.message, /^code-server is not installed in .*: run `bash scripts\/setup.sh` \([^.]*\)\.$/);
      return true;
    });
    assert.throws(() => codeServerInstall(join(root, 'nowhere')), /code-server is not installed in/);
  });

  it('a relative folder is taken from the repository root', () => {
    assert.throws(() => codeServerInstall('test/compat/no-such-version'), (error: Error) => error.message.includes(join(repoRoot, 'test', 'compat', 'no-such-version')));
  });

  describe('the default install (the newest VS Code), outside the root install', () => {
    let saved: string | undefined;
    beforeEach(() => {
      saved = process.env.STRATUS_CODE_SERVER_DIR;
      delete process.env.STRATUS_CODE_SERVER_DIR;
    });
    afterEach(() => {
      if (saved === undefined) delete process.env.STRATUS_CODE_SERVER_DIR;
      else process.env.STRATUS_CODE_SERVER_DIR = saved;
    });

    it('without a folder or STRATUS_CODE_SERVER_DIR it is test/compat/vscode-1.139', () => {
      const expected = join(repoRoot, 'test', 'compat', 'vscode-1.139');
      assert.equal(join(repoRoot, newestCompatDir), expected);
      if (existsSync(join(expected, 'node_modules', 'code-server', 'out', 'node', 'entry.js'))) {
        const install = codeServerInstall();
        assert.equal(install.root, expected);
        assert.equal(install.version, '4.139.1');
        assert.equal(install.node, join(expected, 'node_modules', '.bin', 'node'), 'the folder brings its own Node 24');
      } else {
        assert.throws(() => codeServerInstall(), (error: Error) => {
          assert.ok(error.message.startsWith(`code-server is not installed in ${expected}: run \`bash scripts/setup.sh\``), error.message);
          return true;
        });
      }
    });

    it('STRATUS_CODE_SERVER_DIR chooses the folder when none is given', () => {
      const root = fakeInstall({ version: '4.104.0', cli: '' });
      made.push(root);
      process.env.STRATUS_CODE_SERVER_DIR = root;
      assert.equal(codeServerInstall().root, root);
    });

    it('the root package does not install code-server; the vscode-1.139 package pins it with Node 24', () => {
      type Manifest = { devDependencies?: Record<string, string>; dependencies?: Record<string, string> };
      type Lock = { packages: Record<string, { version?: string; devDependencies?: Record<string, string> }> };
      const read = <T>(...parts: string[]): T => JSON.parse(readFileSync(join(repoRoot, ...parts), 'utf8')) as T;
      const rootManifest = read<Manifest>('package.json');
      assert.equal(rootManifest.devDependencies?.['code-server'], undefined);
      assert.equal(rootManifest.dependencies?.['code-server'], undefined);
      assert.equal(read<Lock>('package-lock.json').packages['node_modules/code-server'], undefined, 'the root lock still installs code-server');

      const compat = read<Manifest>(newestCompatDir, 'package.json');
      assert.deepEqual(compat.devDependencies, { 'code-server': '4.139.1', node: compat.devDependencies?.node });
      assert.match(compat.devDependencies?.node ?? '', /^24\.\d+\.\d+$/, 'code-server 4.139 needs Node 24, pinned');
      const lock = read<Lock>(newestCompatDir, 'package-lock.json');
      assert.deepEqual(lock.packages['']?.devDependencies, compat.devDependencies, 'package-lock.json is out of date');
      assert.equal(lock.packages['node_modules/code-server']?.version, '4.139.1');
      assert.equal(lock.packages['node_modules/node']?.version, compat.devDependencies?.node);
    });
  });
});
