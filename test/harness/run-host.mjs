// Runs test/host inside a real VS Code extension host (code-server + Chromium), with the
// standard extension-test protocol: the workbench calls codeAutomationExit(code) when done.
// It runs in test/compat/vscode-1.139 (the newest VS Code); `--code-server <dir>` (or
// STRATUS_CODE_SERVER_DIR) runs it in another code-server install, e.g. test/compat/vscode-1.104
// (the oldest supported VS Code); results then go to test-results/host-1.104.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { launchBrowser } from './browser.mjs';
import { CodeServerNotInstalledError, codeServerInstall, repoRoot, startCodeServer, workbenchUrl } from './codeServer.mjs';
import { hostGrep } from './grep.mjs';
import { startSandboxProcess } from './sandbox.mjs';

// `--locale fr`: the display language of the run (test:host:fr runs test/host/l10n.test.ts in French).
const { values: cli } = parseArgs({ options: { 'code-server': { type: 'string' }, locale: { type: 'string' } } });
const LOCALE = cli.locale ?? '';
const codeServerDir = cli['code-server'] ?? process.env.STRATUS_CODE_SERVER_DIR;
// A hang detector, not a timing target: the suite is ~260 tests (about 4 minutes on a loaded 2-CPU machine).
const DEADLINE_MS = Number(process.env.STRATUS_HOST_DEADLINE_MS ?? 600_000);
const tier = `${codeServerDir ? `host-${basename(codeServerDir).replace(/^vscode-/, '')}` : 'host'}${LOCALE ? `-${LOCALE}` : ''}`;
const resultsDir = join(repoRoot, 'test-results', tier);
mkdirSync(resultsDir, { recursive: true });
const resultsFile = join(resultsDir, 'results.json');
rmSync(resultsFile, { force: true });

/**
 * A test CA and a server certificate it signed for 127.0.0.1 (test/host/tls.test.ts), the CA given
 * to the extension host the ways users give theirs: NODE_EXTRA_CA_CERTS, and the OS store as
 * OpenSSL reads it (SSL_CERT_FILE: the system bundle plus the CA, so nothing else loses trust).
 * The tests read the server's key and certificate from STRATUS_TEST_PKI; the CA's key is deleted.
 */
function testPki() {
  const dir = mkdtempSync(join(tmpdir(), 'stratus-host-pki-'));
  const run = (/** @type {string[]} */ ...args) => void execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Stratus host test CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  run('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'server.ext');
  rmSync(join(dir, 'ca.key'));
  const system = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/cert.pem'].find((f) => existsSync(f));
  writeFileSync(join(dir, 'os-store.pem'), `${system ? readFileSync(system, 'utf8') : ''}\n${readFileSync(join(dir, 'ca.pem'), 'utf8')}`);
  return { dir, env: { NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem'), SSL_CERT_FILE: join(dir, 'os-store.pem'), STRATUS_TEST_PKI: dir } };
}

const cleanups = [];
let exitCode = 1;
const harnessStart = Date.now();
try {
  const sandbox = process.env.STRATUS_NO_SANDBOX ? { info: { inference: '', console: '' }, stop: async () => undefined } : await startSandboxProcess({ extraArgs: ['--activity-step-ms', '150'] });
  cleanups.push(sandbox.stop);
  const install = codeServerInstall(codeServerDir);
  console.log(`${tier}: code-server ${install.version} (${relative(repoRoot, install.root) || 'root install'})`);
  if (install.excluded.tests.length > 0) {
    console.log(`${tier}: ${install.excluded.tests.length} host test(s) left out here: ${install.excluded.tests.map((t) => JSON.stringify(t)).join(', ')}. Why: ${install.excluded.why}`);
  }
  const pki = testPki();
  cleanups.push(async () => rmSync(pki.dir, { recursive: true, force: true }));
  const grep = hostGrep(process.env.STRATUS_HOST_GREP ?? (LOCALE ? '^l10n:' : ''), install.excluded.tests);
  const server = await startCodeServer({
    install,
    vscodeOptions: ['enable-smoke-test-driver'],
    ...(LOCALE ? { locale: LOCALE } : {}),
    settings: { 'stratus.inference.baseUrl': sandbox.info.inference, 'stratus.console.baseUrl': sandbox.info.console },
    env: {
      STRATUS_HOST_RESULTS: resultsFile,
      STRATUS_SANDBOX: JSON.stringify(sandbox.info),
      STRATUS_HOST_GREP: grep,
      STRATUS_HOST_LOCALE: LOCALE,
      STRATUS_HOST_ORDER: process.env.STRATUS_HOST_ORDER ?? '',
      ...pki.env,
    },
  });
  cleanups.push(server.stop);
  const browser = await launchBrowser();
  cleanups.push(browser.close);

  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  const done = new Promise((resolve) => {
    void page.exposeFunction('codeAutomationExit', (/** @type {unknown} */ code) => resolve(Number(code)));
  });
  const url = workbenchUrl(server, { extensionPath: repoRoot, testsPath: join(repoRoot, 'out', 'test', 'host', 'index.js') });
  await page.goto(url);
  let timer;
  const timeout = new Promise((resolve) => { timer = setTimeout(() => resolve('timeout'), DEADLINE_MS); });
  const outcome = await Promise.race([done, timeout]);
  clearTimeout(timer);

  if (existsSync(resultsFile)) {
    const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
    // The slowest suites with their hooks (before the spec output, whose last lines the summary reads).
    const slowest = Object.entries(results.suiteSeconds ?? {}).sort(([, a], [, b]) => Number(b) - Number(a)).slice(0, 12);
    if (typeof results.runSeconds === 'number') console.log(`${tier}: ${((Date.now() - harnessStart) / 1000 - results.runSeconds).toFixed(1)} s to start (sandbox, code-server, workbench, extension host), ${results.runSeconds.toFixed(1)} s of suites`);
    if (slowest.length > 0) console.log(`${tier}: the slowest suites, hooks included: ${slowest.map(([title, s]) => `${title} ${Number(s).toFixed(1)} s`).join('; ')}`);
    process.stdout.write(results.output);
    for (const [name, value] of Object.entries(results.metrics ?? {})) console.log(`metric host.${name} ${Number(value).toFixed(2)}`);
  }
  if (outcome === 'timeout') {
    await page.screenshot({ path: join(resultsDir, 'timeout.png') }).catch(() => undefined);
    console.error(`Host tests did not finish within ${DEADLINE_MS / 1000} s (the workbench or the extension host hung). Screenshot: test-results/${tier}/timeout.png`);
    console.error(`--- code-server output (tail) ---\n${server.output().slice(-4000)}`);
    console.log('\n  0 passing\n  1 failing');
    exitCode = 1;
  } else {
    if (!existsSync(resultsFile)) {
      console.error(`The extension host exited with ${outcome} but wrote no results: did the test entry load?\n${server.output().slice(-4000)}`);
      console.log('\n  0 passing\n  1 failing');
      exitCode = 1;
    } else {
      exitCode = outcome;
      if (exitCode !== 0) {
        await page.screenshot({ path: join(resultsDir, 'failure.png') }).catch(() => undefined);
        console.error(`Screenshot of the workbench after the failing run: test-results/${tier}/failure.png`);
      }
    }
  }
} catch (error) {
  console.error(error instanceof CodeServerNotInstalledError ? error.message : error instanceof Error ? error.stack : error);
  console.log('\n  0 passing\n  1 failing');
  exitCode = 1;
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
}
process.exit(exitCode);
