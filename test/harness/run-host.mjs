// Runs test/host inside a real VS Code extension host (code-server + Chromium), with the
// standard extension-test protocol: the workbench calls codeAutomationExit(code) when done.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from './browser.mjs';
import { repoRoot, startCodeServer, workbenchUrl } from './codeServer.mjs';
import { startSandboxProcess } from './sandbox.mjs';

const DEADLINE_MS = Number(process.env.STRATUS_HOST_DEADLINE_MS ?? 240_000);
// `--locale fr`: the display language of the run (test:host:fr runs test/host/l10n.test.ts in French).
const localeArg = process.argv.indexOf('--locale');
const LOCALE = localeArg > 0 ? process.argv[localeArg + 1] ?? '' : '';
const resultsDir = join(repoRoot, 'test-results', 'host');
mkdirSync(resultsDir, { recursive: true });
const resultsFile = join(resultsDir, 'results.json');
rmSync(resultsFile, { force: true });

const cleanups = [];
let exitCode = 1;
try {
  const sandbox = process.env.STRATUS_NO_SANDBOX ? { info: { inference: '', console: '' }, stop: async () => undefined } : await startSandboxProcess({ extraArgs: ['--activity-step-ms', '150'] });
  cleanups.push(sandbox.stop);
  const server = await startCodeServer({
    vscodeOptions: ['enable-smoke-test-driver'],
    ...(LOCALE ? { locale: LOCALE } : {}),
    settings: { 'stratus.inference.baseUrl': sandbox.info.inference, 'stratus.console.baseUrl': sandbox.info.console },
    env: {
      STRATUS_HOST_RESULTS: resultsFile,
      STRATUS_SANDBOX: JSON.stringify(sandbox.info),
      STRATUS_HOST_GREP: process.env.STRATUS_HOST_GREP ?? (LOCALE ? '^l10n:' : ''),
      STRATUS_HOST_LOCALE: LOCALE,
      STRATUS_HOST_ORDER: process.env.STRATUS_HOST_ORDER ?? '',
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
    process.stdout.write(results.output);
    for (const [name, value] of Object.entries(results.metrics ?? {})) console.log(`metric host.${name} ${Number(value).toFixed(2)}`);
  }
  if (outcome === 'timeout') {
    await page.screenshot({ path: join(resultsDir, 'timeout.png') }).catch(() => undefined);
    console.error(`Host tests did not finish within ${DEADLINE_MS / 1000} s (the workbench or the extension host hung). Screenshot: test-results/host/timeout.png`);
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
    }
  }
} catch (error) {
  console.error(error instanceof Error ? error.stack : error);
  console.log('\n  0 passing\n  1 failing');
  exitCode = 1;
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
}
process.exit(exitCode);
