import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeServerInstall, repoRoot } from '../../harness/codeServer.mjs';

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
      assert.match(error.message, /code-server is not installed in .*: run `bash scripts\/setup.sh`/);
      return true;
    });
    assert.throws(() => codeServerInstall(join(root, 'nowhere')), /code-server is not installed in/);
  });

  it('a relative folder is taken from the repository root', () => {
    assert.throws(() => codeServerInstall('test/compat/no-such-version'), (error: Error) => error.message.includes(join(repoRoot, 'test', 'compat', 'no-such-version')));
  });
});
