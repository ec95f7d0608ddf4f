// Pure argument building for the desktop tier (scripts/test-desktop.mjs): which VS Code to use and
// how to launch it with @vscode/test-electron so it runs the same host suite entry
// (out/test/host/index.js, its `run()`) in throwaway state. No I/O here: unit-tested in
// test/unit/harness/desktop.test.ts.
import { isAbsolute, join, resolve } from 'node:path';
import { baseSettings } from './settings.mjs';

/** VS Code versions @vscode/test-electron can download: a channel or an exact x.y.z. */
const VERSION = /^(stable|insiders|\d+\.\d+\.\d+(-insider)?)$/;

/**
 * Reads the desktop tier's configuration from the environment.
 * VSCODE_EXECUTABLE: an installed VS Code to use (no download); VSCODE_VERSION: the version to
 * download otherwise (`stable` by default; `1.104.0` is the oldest Stratus supports);
 * STRATUS_HOST_GREP: run only the matching host tests; STRATUS_VSCODE_CACHE: where downloads are
 * kept (default .vscode-test/ in the repository).
 * @param {Record<string, string | undefined>} env
 * @param {{ cwd: string, repoRoot: string }} where relative paths are resolved from, and the repository
 * @returns {{ ok: true, executable?: string, version: string, grep: string, cachePath: string } | { ok: false, message: string }}
 */
export function desktopConfig(env, { cwd, repoRoot }) {
  const grep = env.STRATUS_HOST_GREP ?? '';
  const cache = env.STRATUS_VSCODE_CACHE?.trim();
  const cachePath = cache ? resolve(cwd, cache) : join(repoRoot, '.vscode-test');
  const executable = env.VSCODE_EXECUTABLE?.trim();
  if (executable) {
    return { ok: true, executable: isAbsolute(executable) ? executable : resolve(cwd, executable), version: 'given', grep, cachePath };
  }
  const version = env.VSCODE_VERSION?.trim() || 'stable';
  if (!VERSION.test(version)) {
    return { ok: false, message: `VSCODE_VERSION=${JSON.stringify(version)} is not a VS Code version: use stable, insiders or an exact version such as 1.104.0.` };
  }
  return { ok: true, version, grep, cachePath };
}

/**
 * The @vscode/test-electron `runTests` options and the user settings to write before launching.
 * @param {object} input
 * @param {string} input.repoRoot the extension (extensionDevelopmentPath)
 * @param {string} input.stateDir a fresh throwaway directory (user data, extensions, workspace)
 * @param {string} input.vscodeExecutablePath the VS Code binary (given or downloaded)
 * @param {{ inference: string, console: string }} input.sandbox the sandbox's addresses (its first-line JSON)
 * @param {string} input.resultsFile where the suite writes its results
 * @param {string} [input.grep] STRATUS_HOST_GREP
 * @param {string} [input.order] STRATUS_HOST_ORDER (reverse, shuffle[:seed]; '' = as written)
 * @param {boolean} [input.root] running as root (Chromium then needs --no-sandbox)
 */
export function desktopLaunch({ repoRoot, stateDir, vscodeExecutablePath, sandbox, resultsFile, grep = '', order = '', root = false }) {
  const dirs = {
    userData: join(stateDir, 'user-data'),
    extensions: join(stateDir, 'extensions'),
    workspace: join(stateDir, 'workspace'),
  };
  const settings = {
    ...baseSettings,
    'stratus.inference.baseUrl': sandbox.inference,
    'stratus.console.baseUrl': sandbox.console,
  };
  return {
    dirs,
    settingsFile: join(dirs.userData, 'User', 'settings.json'),
    settings,
    runTests: {
      vscodeExecutablePath,
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: join(repoRoot, 'out', 'test', 'host', 'index.js'),
      launchArgs: [
        dirs.workspace,
        '--user-data-dir', dirs.userData,
        '--extensions-dir', dirs.extensions,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--disable-telemetry',
        '--skip-welcome',
        '--skip-release-notes',
        // Secrets in the throwaway profile, never in the machine's keyring (and no keyring prompt).
        '--password-store=basic',
        ...(root ? ['--no-sandbox'] : []),
      ],
      extensionTestsEnv: {
        STRATUS_HOST_RESULTS: resultsFile,
        STRATUS_SANDBOX: JSON.stringify(sandbox),
        STRATUS_HOST_GREP: grep,
        STRATUS_HOST_ORDER: order,
      },
    },
  };
}

/**
 * One paragraph for a failed download of desktop VS Code (no stack trace).
 * @param {string} version
 * @param {unknown} error
 */
export function downloadFailureMessage(version, error) {
  const reason = error instanceof Error ? error.message : String(error);
  const firstLine = (reason.split('\n').find((l) => l.trim()) ?? 'unknown error').trim()
    // A proxy address may carry credentials: never print them.
    .replace(/\/\/[^\s/@]+@/g, '//***@')
    .slice(0, 300)
    .replace(/\.$/, '');
  return `Could not download desktop VS Code (${version}) from update.code.visualstudio.com: ${firstLine}. `
    + 'This machine probably cannot reach Microsoft\'s download servers (only the npm registry is reachable here, which is why `npm test` runs the host tier in code-server instead). '
    + 'Run `npm run test:host:desktop` where the download works, or point VSCODE_EXECUTABLE at an installed VS Code binary (e.g. VSCODE_EXECUTABLE=/usr/share/code/code; on a headless Linux, wrap the command in xvfb-run -a).';
}

/**
 * One paragraph for a VSCODE_EXECUTABLE that cannot be run.
 * @param {string} executable
 * @param {'missing' | 'directory' | 'not-executable'} problem
 */
export function executableProblemMessage(executable, problem) {
  const what = { missing: 'does not exist', directory: 'is a directory, not the VS Code binary', 'not-executable': 'is not executable' }[problem];
  return `VSCODE_EXECUTABLE=${executable} ${what}. Point it at the VS Code binary itself (e.g. /usr/share/code/code on Linux, "/Applications/Visual Studio Code.app/Contents/MacOS/Electron" on macOS, Code.exe on Windows), or unset it to download VS Code.`;
}
