// Starts a real VS Code (code-server) on a free loopback port in throwaway directories.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeLanguagePack } from './languagePack.mjs';
import { freePort, spawnGroup, waitFor } from './processes.mjs';
import { baseSettings } from './settings.mjs';

/** Machine-scoped settings Stratus reads (its first-run walkthrough honours this one). */
const MACHINE_SCOPED = ['workbench.welcomePage.walkthroughs.openOnInstall'];

export const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** The README every test workspace starts with (some tests read or edit its text). */
export const workspaceReadme = '# Stratus workspace\n\nA throwaway folder opened by code-server.\n';

/** A compat folder without its code-server: the message (one sentence) says how to install it; show it without a stack. */
export class CodeServerNotInstalledError extends Error {
  /** @override */
  name = 'CodeServerNotInstalledError';
}

/** The default install: the newest VS Code Stratus is tested on (code-server 4.139.1 = VS Code 1.139.1). */
export const newestCompatDir = 'test/compat/vscode-1.139';

/**
 * Where code-server is installed: a compat folder with its own package.json, package-lock.json and
 * node_modules, so the root install stays lean: test/compat/vscode-1.139 (the default, the newest
 * VS Code, code-server 4.139.1) or test/compat/vscode-1.104 (code-server 4.104.0, the oldest VS Code
 * `engines.vscode` claims), given as `dir` or STRATUS_CODE_SERVER_DIR.
 * Each install brings the Node its code-server needs as the `node` devDependency.
 * @param {string} [dir] relative to the repository root, or absolute
 */
export function codeServerInstall(dir = process.env.STRATUS_CODE_SERVER_DIR || newestCompatDir) {
  const root = resolve(repoRoot, dir);
  const pkg = join(root, 'node_modules', 'code-server', 'package.json');
  const entry = join(root, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  if (!existsSync(pkg) || !existsSync(entry)) {
    throw new CodeServerNotInstalledError(`code-server is not installed in ${root}: run \`bash scripts/setup.sh\` (it installs the root and every test/compat/* folder).`);
  }
  const local = join(root, 'node_modules', '.bin', 'node');
  const version = JSON.parse(readFileSync(pkg, 'utf8')).version;
  // Host tests this install cannot run, with the reason (the compat folder's package.json).
  const own = join(root, 'package.json');
  const tier = root !== repoRoot && existsSync(own) ? JSON.parse(readFileSync(own, 'utf8')).stratusHostTier : undefined;
  /** @type {{ tests: string[], why: string }} */
  const excluded = { tests: (tier?.exclude ?? []).map((/** @type {{ test: string }} */ e) => e.test), why: tier?.why ?? '' };
  // `--vscode-option` (pass a flag straight to the VS Code server) is newer than code-server 4.104.
  const cli = join(root, 'node_modules', 'code-server', 'out', 'node', 'cli.js');
  const vscodeOptions = existsSync(cli) && readFileSync(cli, 'utf8').includes('"vscode-option"');
  return { root, entry, version, vscodeOptions, excluded, node: existsSync(local) ? local : process.execPath };
}

/**
 * @param {object} options
 * @param {Record<string, unknown>} [options.settings] user settings merged over the base ones
 * @param {Record<string, string>} [options.env] extra environment for the server and its extension host
 * @param {string[]} [options.vscodeOptions] `--vscode-option` values
 * @param {number} [options.port] fixed port (demo); a free one otherwise
 * @param {string} [options.stateDir] keep state here (demo) instead of a throwaway directory
 * @param {(dirs: { root: string, userData: string, extensions: string, config: string, tmp: string, workspace: string }, install: ReturnType<typeof codeServerInstall>) => void} [options.beforeStart] e.g. install a .vsix into dirs.extensions (with the same code-server)
 * @param {ReturnType<typeof codeServerInstall>} [options.install] which code-server (default: codeServerInstall())
 * @param {string} [options.locale] display language (`--locale`), e.g. `fr`; English when absent
 */
export async function startCodeServer(options = {}) {
  const install = options.install ?? codeServerInstall();
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
  const settings = { ...baseSettings, ...options.settings };
  mkdirSync(join(dirs.userData, 'User'), { recursive: true });
  writeFileSync(join(dirs.userData, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  // code-server's extension host is a remote one: it reads `machine`-scoped settings only from the
  // server's Machine/settings.json (as on Remote-SSH). Only the one Stratus reads goes there (the
  // whole set there stops the server's file watcher from reporting new files).
  const machine = Object.fromEntries(Object.entries(settings).filter(([key]) => MACHINE_SCOPED.includes(key)));
  mkdirSync(join(dirs.userData, 'Machine'), { recursive: true });
  writeFileSync(join(dirs.userData, 'Machine', 'settings.json'), JSON.stringify(machine, null, 2));
  if (!existsSync(join(dirs.workspace, 'README.md'))) {
    writeFileSync(join(dirs.workspace, 'README.md'), workspaceReadme);
  }

  if (options.locale) writeLanguagePack(dirs, options.locale);
  options.beforeStart?.(dirs, install);
  const port = options.port ?? (await freePort());
  const args = [
    install.entry,
    '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    ...(options.locale ? ['--locale', options.locale] : []),
    '--user-data-dir', dirs.userData,
    '--extensions-dir', dirs.extensions,
    // Without `--vscode-option` (code-server 4.104) the options are left out: the standard test
    // protocol (codeAutomationExit) works without enable-smoke-test-driver.
    ...(install.vscodeOptions ? (options.vscodeOptions ?? []).flatMap((o) => ['--vscode-option', o]) : []),
    dirs.workspace,
  ];
  const env = { ...serverEnv(dirs), ...options.env };
  const proc = spawnGroup(install.node, args, { cwd: dirs.root, env });
  const url = `http://127.0.0.1:${port}`;
  /** @type {{ code: number | null, signal: string | null } | undefined} */
  let exit;
  void proc.exited.then((e) => { exit = e; });
  try {
    await waitFor(async () => (await fetch(`${url}/healthz`)).ok, {
      timeoutMs: 60_000,
      what: `code-server ${install.version} on ${url}`,
      gaveUp: () => exit && `it exited (code ${exit.code}, signal ${exit.signal})`,
    });
  } catch (error) {
    await proc.stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- code-server output ---\n${proc.output()}`);
  }
  return {
    url,
    port,
    dirs,
    install,
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
 * @returns {(dirs: { root: string, userData: string, extensions: string, config: string, tmp: string, workspace: string }, install?: ReturnType<typeof codeServerInstall>) => void}
 */
export function installVsix(vsix) {
  return (dirs, install = codeServerInstall()) => {
    execFileSync(install.node, [install.entry, '--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions, '--install-extension', vsix, '--force'], { stdio: 'ignore', env: serverEnv(dirs) });
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
