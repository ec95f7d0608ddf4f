// `npm run test:host:desktop`: the host suite (out/test/host/index.js, the same `run()` as the
// code-server tiers) in desktop VS Code through @vscode/test-electron. Uses VSCODE_EXECUTABLE when
// set, otherwise downloads VSCODE_VERSION (default stable) into .vscode-test/. Not part of
// `npm test`: these machines cannot download VS Code. A failure to download or a bad
// VSCODE_EXECUTABLE ends with one clear paragraph and exit code 2, never a stack trace.
import { downloadAndUnzipVSCode, runTests, SilentReporter, TestRunFailedError } from '@vscode/test-electron';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, accessSync, constants } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../test/harness/codeServer.mjs';
import { desktopConfig, desktopLaunch, downloadFailureMessage, executableProblemMessage } from '../test/harness/desktop.mjs';
import { startSandboxProcess } from '../test/harness/sandbox.mjs';

/**
 * @param {string} message
 * @returns {never}
 */
function fail(message) {
  console.error(`\n${message}\n`);
  process.exit(2);
}

/**
 * @param {string} path
 * @returns {'missing' | 'directory' | 'not-executable' | undefined}
 */
function executableProblem(path) {
  if (!existsSync(path)) return 'missing';
  if (statSync(path).isDirectory()) return 'directory';
  try {
    accessSync(path, constants.X_OK);
  } catch {
    return 'not-executable';
  }
  return undefined;
}

const parsed = desktopConfig(process.env, { cwd: process.cwd(), repoRoot });
if (!parsed.ok) fail(parsed.message);
const config = /** @type {Extract<typeof parsed, { ok: true }>} */ (parsed);

let vscodeExecutablePath = config.executable;
if (vscodeExecutablePath) {
  const problem = executableProblem(vscodeExecutablePath);
  if (problem) fail(executableProblemMessage(vscodeExecutablePath, problem));
} else {
  console.log(`Downloading desktop VS Code (${config.version}) into ${config.cachePath} ...`);
  try {
    vscodeExecutablePath = await downloadAndUnzipVSCode({
      version: config.version,
      cachePath: config.cachePath,
      timeout: Number(process.env.STRATUS_DOWNLOAD_TIMEOUT_MS ?? 20_000),
      reporter: new SilentReporter(),
    });
  } catch (error) {
    fail(downloadFailureMessage(config.version, error));
  }
}

const resultsDir = join(repoRoot, 'test-results', 'host-desktop');
mkdirSync(resultsDir, { recursive: true });
const resultsFile = join(resultsDir, 'results.json');
rmSync(resultsFile, { force: true });
const stateDir = mkdtempSync(join(tmpdir(), 'stratus-desktop-'));

let exitCode = 1;
let sandbox;
try {
  sandbox = await startSandboxProcess({ extraArgs: ['--activity-step-ms', '150'] });
  const launch = desktopLaunch({
    repoRoot,
    stateDir,
    vscodeExecutablePath,
    sandbox: sandbox.info,
    resultsFile,
    grep: config.grep,
    order: process.env.STRATUS_HOST_ORDER ?? '',
    root: process.getuid?.() === 0,
  });
  for (const dir of Object.values(launch.dirs)) mkdirSync(dir, { recursive: true });
  mkdirSync(join(launch.dirs.userData, 'User'), { recursive: true });
  writeFileSync(launch.settingsFile, JSON.stringify(launch.settings, null, 2));
  writeFileSync(join(launch.dirs.workspace, 'README.md'), '# Stratus workspace\n\nA throwaway folder opened by desktop VS Code.\n');

  try {
    exitCode = await runTests(launch.runTests);
  } catch (error) {
    // TestRunFailedError: VS Code exited non-zero (a failing test, or it could not start).
    exitCode = error instanceof TestRunFailedError && error.code ? error.code : 1;
    if (!existsSync(resultsFile)) console.error(`Desktop VS Code failed before the host suite reported: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (existsSync(resultsFile)) {
    const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
    process.stdout.write(results.output);
    for (const [name, value] of Object.entries(results.metrics ?? {})) console.log(`metric host-desktop.${name} ${Number(value).toFixed(2)}`);
  } else {
    console.log('\n  0 passing\n  1 failing');
    exitCode = exitCode === 0 ? 1 : exitCode;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  console.log('\n  0 passing\n  1 failing');
  exitCode = 1;
} finally {
  await sandbox?.stop().catch(() => undefined);
  rmSync(stateDir, { recursive: true, force: true });
}
process.exit(exitCode);
