// Starts a real VS Code (code-server) on a free loopback port in throwaway directories.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeLanguagePack } from './languagePack.mjs';
import { freePort, spawnGroup, waitFor } from './processes.mjs';

export const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** code-server needs Node 24; the `node` devDependency provides it. */
function nodeBinary() {
  const local = join(repoRoot, 'node_modules', '.bin', 'node');
  return existsSync(local) ? local : process.execPath;
}

/** Settings that keep the workbench quiet and deterministic for tests and demos. */
const baseSettings = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'security.workspace.trust.enabled': false,
  'chat.commandCenter.enabled': true,
  'window.commandCenter': true,
  'git.enabled': false,
};

/**
 * @param {object} options
 * @param {Record<string, unknown>} [options.settings] user settings merged over the base ones
 * @param {Record<string, string>} [options.env] extra environment for the server and its extension host
 * @param {string[]} [options.vscodeOptions] `--vscode-option` values
 * @param {number} [options.port] fixed port (demo); a free one otherwise
 * @param {string} [options.stateDir] keep state here (demo) instead of a throwaway directory
 * @param {string} [options.locale] display language (`--locale`), e.g. `fr`; English when absent
 * @param {(dirs: { root: string, userData: string, extensions: string, config: string, tmp: string, workspace: string }) => void} [options.beforeStart] e.g. install a .vsix into dirs.extensions
 */
export async function startCodeServer(options = {}) {
  const root = options.stateDir ?? mkdtempSync(join(tmpdir(), 'stratus-cs-'));
  const dirs = {
    root,
    userData: join(root, 'user-data'),
    extensions: join(root, 'extensions'),
    config: join(root, 'config'),
    tmp: join(root, 'tmp'),
    workspace: join(root, 'workspace'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  mkdirSync(join(dirs.userData, 'User'), { recursive: true });
  writeFileSync(join(dirs.userData, 'User', 'settings.json'), JSON.stringify({ ...baseSettings, ...options.settings }, null, 2));
  if (!existsSync(join(dirs.workspace, 'README.md'))) {
    writeFileSync(join(dirs.workspace, 'README.md'), '# Stratus workspace\n\nA throwaway folder opened by code-server.\n');
  }

  if (options.locale) writeLanguagePack(dirs, options.locale);
  options.beforeStart?.(dirs);
  const port = options.port ?? (await freePort());
  const args = [
    join(repoRoot, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    ...(options.locale ? ['--locale', options.locale] : []),
    '--user-data-dir', dirs.userData,
    '--extensions-dir', dirs.extensions,
    ...(options.vscodeOptions ?? []).flatMap((o) => ['--vscode-option', o]),
    dirs.workspace,
  ];
  const env = { ...serverEnv(dirs), ...options.env };
  const proc = spawnGroup(nodeBinary(), args, { cwd: dirs.root, env });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(async () => (await fetch(`${url}/healthz`)).ok, { timeoutMs: 60_000, what: `code-server on ${url}` });
  } catch (error) {
    await proc.stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- code-server output ---\n${proc.output()}`);
  }
  return {
    url,
    port,
    dirs,
    output: proc.output,
    exited: proc.exited,
    async stop() {
      await proc.stop();
      if (!options.stateDir) rmSync(root, { recursive: true, force: true });
    },
  };
}

/** code-server's environment: nothing may land in the real $HOME (it writes logs and config there by default). */
/** @param {{ root: string, config: string, tmp: string }} dirs */
function serverEnv(dirs) {
  return {
    ...process.env,
    HOME: dirs.root,
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: join(dirs.config, 'data'),
    XDG_CACHE_HOME: join(dirs.config, 'cache'),
    TMPDIR: dirs.tmp,
    EXTENSIONS_GALLERY: '{}',
  };
}

/**
 * Installs a .vsix into a code-server state (the way a user installs it); use as `beforeStart`.
 * @param {string} vsix
 * @returns {(dirs: { root: string, userData: string, extensions: string, config: string, tmp: string, workspace: string }) => void}
 */
export function installVsix(vsix) {
  return (dirs) => {
    execFileSync(nodeBinary(), [join(repoRoot, 'node_modules', 'code-server', 'out', 'node', 'entry.js'), '--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions, '--install-extension', vsix, '--force'], { stdio: 'ignore', env: serverEnv(dirs) });
  };
}

/**
 * The workbench URL that loads `extensionPath` in development mode, optionally running host tests.
 * @param {{ port: number, url: string, dirs: { workspace: string } }} server
 * @param {{ extensionPath: string, testsPath?: string }} target
 */
export function workbenchUrl(server, { extensionPath, testsPath }) {
  const remote = (/** @type {string} */ path) => `vscode-remote://127.0.0.1:${server.port}${path}`;
  const payload = [['extensionDevelopmentPath', remote(extensionPath)]];
  if (testsPath) payload.push(['extensionTestsPath', remote(testsPath)]);
  const folder = encodeURIComponent(server.dirs.workspace);
  return `${server.url}/?folder=${folder}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}
