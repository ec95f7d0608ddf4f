import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { desktopConfig, desktopLaunch, downloadFailureMessage, executableProblemMessage } from '../../harness/desktop.mjs';
import { baseSettings } from '../../harness/settings.mjs';

const ROOT = resolve(__dirname, '../../..');
const where = { cwd: '/home/dev/stratus', repoRoot: '/repo' };
const sandbox = { inference: 'http://127.0.0.1:4100/v1', console: 'http://127.0.0.1:4100' };

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  assert.ok(address && typeof address === 'object');
  await new Promise<void>((done) => server.close(() => done()));
  return address.port;
}

/** Runs scripts/test-desktop.mjs with the given environment (nothing inherited that selects VS Code). */
async function runScript(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const base = { ...process.env };
  for (const key of ['VSCODE_EXECUTABLE', 'VSCODE_VERSION', 'STRATUS_VSCODE_CACHE', 'npm_config_proxy', 'npm_config_https_proxy']) delete base[key];
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'test-desktop.mjs')], { cwd: ROOT, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

/** One paragraph: no stack frame, no line break inside the message. */
function assertOneParagraph(text: string): void {
  const message = text.trim();
  assert.ok(message.length > 0, 'a message is printed');
  assert.doesNotMatch(message, /\n/);
  assert.doesNotMatch(message, /^\s+at /m);
}

describe('desktop tier: configuration from the environment', () => {
  it('downloads stable into .vscode-test/ by default', () => {
    assert.deepEqual(desktopConfig({}, where), { ok: true, version: 'stable', grep: '', cachePath: '/repo/.vscode-test' });
  });

  it('takes an exact version, insiders, a grep and a cache folder', () => {
    const config = desktopConfig({ VSCODE_VERSION: ' 1.104.0 ', STRATUS_HOST_GREP: 'chat', STRATUS_VSCODE_CACHE: 'cache' }, where);
    assert.deepEqual(config, { ok: true, version: '1.104.0', grep: 'chat', cachePath: '/home/dev/stratus/cache' });
    assert.equal(desktopConfig({ VSCODE_VERSION: 'insiders' }, where).ok, true);
  });

  it('prefers VSCODE_EXECUTABLE (no download) and resolves a relative one from the current folder', () => {
    assert.deepEqual(desktopConfig({ VSCODE_EXECUTABLE: 'bin/code', VSCODE_VERSION: 'stable' }, where), { ok: true, executable: '/home/dev/stratus/bin/code', version: 'given', grep: '', cachePath: '/repo/.vscode-test' });
    const absolute = desktopConfig({ VSCODE_EXECUTABLE: '/usr/share/code/code' }, where);
    assert.ok(absolute.ok);
    assert.equal(absolute.executable, '/usr/share/code/code');
  });

  it('refuses a version that is not one, naming it and the accepted forms', () => {
    for (const version of ['latest', '1.104', '1.104.0; rm -rf /', 'v1.104.0']) {
      const config = desktopConfig({ VSCODE_VERSION: version }, where);
      assert.equal(config.ok, false, version);
      assert.ok(!config.ok);
      assert.ok(config.message.includes(JSON.stringify(version)));
      assert.match(config.message, /stable, insiders or an exact version such as 1\.104\.0/);
      assertOneParagraph(config.message);
    }
  });
});

describe('desktop tier: launch arguments', () => {
  const launch = desktopLaunch({ repoRoot: '/repo', stateDir: '/tmp/s', vscodeExecutablePath: '/opt/code/code', sandbox, resultsFile: '/repo/test-results/host-desktop/results.json', grep: 'account', order: 'shuffle:7' });

  it('runs the same host suite entry as the code-server tiers, with the repository as the extension', () => {
    assert.equal(launch.runTests.extensionDevelopmentPath, '/repo');
    assert.equal(launch.runTests.extensionTestsPath, '/repo/out/test/host/index.js');
    assert.equal(launch.runTests.vscodeExecutablePath, '/opt/code/code');
  });

  it('opens the throwaway workspace in throwaway user data and extensions folders', () => {
    const args = launch.runTests.launchArgs;
    assert.equal(args[0], '/tmp/s/workspace', 'the first argument is the folder VS Code opens');
    assert.equal(args[args.indexOf('--user-data-dir') + 1], '/tmp/s/user-data');
    assert.equal(args[args.indexOf('--extensions-dir') + 1], '/tmp/s/extensions');
    for (const flag of ['--disable-extensions', '--disable-workspace-trust', '--password-store=basic']) assert.ok(args.includes(flag), flag);
    assert.ok(!args.includes('--no-sandbox'), 'Chromium keeps its sandbox unless running as root');
    assert.deepEqual(launch.dirs, { userData: '/tmp/s/user-data', extensions: '/tmp/s/extensions', workspace: '/tmp/s/workspace' });
  });

  it('adds --no-sandbox only as root', () => {
    const asRoot = desktopLaunch({ repoRoot: '/repo', stateDir: '/tmp/s', vscodeExecutablePath: '/c', sandbox, resultsFile: '/r', root: true });
    assert.ok(asRoot.runTests.launchArgs.includes('--no-sandbox'));
  });

  it('points the extension at the sandbox through user settings and the suite through its env', () => {
    assert.equal(launch.settingsFile, '/tmp/s/user-data/User/settings.json');
    assert.deepEqual(launch.settings, { ...baseSettings, 'stratus.inference.baseUrl': sandbox.inference, 'stratus.console.baseUrl': sandbox.console });
    assert.deepEqual(launch.runTests.extensionTestsEnv, {
      STRATUS_HOST_RESULTS: '/repo/test-results/host-desktop/results.json',
      STRATUS_SANDBOX: JSON.stringify(sandbox),
      STRATUS_HOST_GREP: 'account',
      STRATUS_HOST_ORDER: 'shuffle:7',
    });
  });

  it('passes an empty grep and order when none is given (the whole suite, as written)', () => {
    const all = desktopLaunch({ repoRoot: '/repo', stateDir: '/tmp/s', vscodeExecutablePath: '/c', sandbox, resultsFile: '/r' });
    assert.equal(all.runTests.extensionTestsEnv.STRATUS_HOST_GREP, '');
    assert.equal(all.runTests.extensionTestsEnv.STRATUS_HOST_ORDER, '');
  });
});

describe('desktop tier: messages', () => {
  it('a failed download is one paragraph with the reason, the version and the way out', () => {
    const error = new Error('getaddrinfo ENOTFOUND update.code.visualstudio.com\n    at GetAddrInfoReqWrap.onlookupall (node:dns:120:26)');
    const message = downloadFailureMessage('1.104.0', error);
    assertOneParagraph(message);
    assert.match(message, /Could not download desktop VS Code \(1\.104\.0\)/);
    assert.match(message, /getaddrinfo ENOTFOUND update\.code\.visualstudio\.com\./);
    assert.match(message, /VSCODE_EXECUTABLE/);
  });

  it('never prints proxy credentials from the reason', () => {
    const message = downloadFailureMessage('stable', new Error('Failed to connect to proxy http://alice:s3cret-token@proxy.corp:3128'));
    assert.doesNotMatch(message, /alice|s3cret-token/);
    assert.match(message, /http:\/\/\*\*\*@proxy\.corp:3128/);
  });

  it('a thrown non-Error still gives a message', () => {
    assert.match(downloadFailureMessage('stable', 'timed out'), /: timed out\. /);
    assert.match(downloadFailureMessage('stable', ''), /: unknown error\. /);
  });

  it('a bad VSCODE_EXECUTABLE says what is wrong with it', () => {
    assert.match(executableProblemMessage('/x/code', 'missing'), /^VSCODE_EXECUTABLE=\/x\/code does not exist\./);
    assert.match(executableProblemMessage('/x', 'directory'), /is a directory, not the VS Code binary/);
    assert.match(executableProblemMessage('/x', 'not-executable'), /is not executable/);
  });
});

describe('desktop tier: test-desktop.mjs fails clearly instead of crashing', () => {
  let cache: string;
  beforeEach(() => {
    cache = mkdtempSync(join(tmpdir(), 'stratus-desktop-cache-'));
  });
  afterEach(() => rmSync(cache, { recursive: true, force: true }));

  it('cannot download (the proxy refuses): one paragraph on stderr, exit 2, no stack trace', async () => {
    const port = await closedPort();
    const proxy = `http://user:hunter2@127.0.0.1:${port}`;
    const { code, stderr } = await runScript({ VSCODE_VERSION: '1.104.0', STRATUS_VSCODE_CACHE: cache, npm_config_proxy: proxy, npm_config_https_proxy: proxy });
    assert.equal(code, 2);
    assertOneParagraph(stderr);
    assert.match(stderr, /Could not download desktop VS Code \(1\.104\.0\)/);
    assert.match(stderr, new RegExp(`ECONNREFUSED 127\\.0\\.0\\.1:${port}`));
    assert.doesNotMatch(stderr, /hunter2/);
  });

  it('a VSCODE_EXECUTABLE that does not exist: one paragraph, exit 2', async () => {
    const { code, stderr } = await runScript({ VSCODE_EXECUTABLE: join(cache, 'no-such-code') });
    assert.equal(code, 2);
    assertOneParagraph(stderr);
    assert.match(stderr, /no-such-code does not exist/);
  });

  it('a VSCODE_EXECUTABLE that is a folder: one paragraph, exit 2', async () => {
    const { code, stderr } = await runScript({ VSCODE_EXECUTABLE: cache });
    assert.equal(code, 2);
    assertOneParagraph(stderr);
    assert.match(stderr, /is a directory/);
  });

  it('a VSCODE_VERSION that is not one: one paragraph, exit 2', async () => {
    const { code, stderr } = await runScript({ VSCODE_VERSION: 'latest' });
    assert.equal(code, 2);
    assertOneParagraph(stderr);
    assert.match(stderr, /VSCODE_VERSION="latest" is not a VS Code version/);
  });
});
