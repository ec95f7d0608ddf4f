// `npm start`: the demo. Packages the extension, starts the sandbox server and a real VS Code
// (code-server) with the .vsix installed and settings pointing at the sandbox, then prints the
// address to open. Ctrl+C stops everything.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CodeServerNotInstalledError, codeServerInstall, installVsix, repoRoot, startCodeServer } from '../test/harness/codeServer.mjs';
import { freePort } from '../test/harness/processes.mjs';
import { startSandboxProcess } from '../test/harness/sandbox.mjs';

const { name, version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
const stateDir = join(repoRoot, '.stratus-demo');
const host = process.env.STRATUS_HOST ?? '127.0.0.1';

/**
 * The preferred port if it is free on `host`, else a free one.
 * @param {number} preferred
 * @returns {Promise<number>}
 */
async function portOr(preferred) {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const probe = createServer().once('error', () => resolve(freePort())).once('listening', () => probe.close(() => resolve(preferred)));
    probe.listen(preferred, host);
  });
}

// code-server lives in test/compat/vscode-1.139 (not in the root install): say how to install it.
/** @type {ReturnType<typeof codeServerInstall>} */
let install;
try {
  install = codeServerInstall();
} catch (error) {
  if (!(error instanceof CodeServerNotInstalledError)) throw error;
  console.error(error.message);
  process.exit(1);
}

execFileSync('node', ['scripts/package.mjs'], { cwd: repoRoot, stdio: 'inherit' });
const sandbox = await startSandboxProcess({ port: await portOr(Number(process.env.STRATUS_SANDBOX_PORT ?? 8787)), profile: process.env.STRATUS_PROFILE ?? 'contract' });
const port = await portOr(Number(process.env.STRATUS_PORT ?? 8080));
// Credentials reach the extension host through its environment (never settings or files);
// the extension reads STRATUS_* only when nothing is stored in SecretStorage.
const env = { STRATUS_API_KEY: sandbox.info.apiKey, STRATUS_PAT_ID: sandbox.info.patId, STRATUS_PAT_SECRET: sandbox.info.patSecret };
// The walkthrough opens on the demo's first start, as on a first install (test workbenches turn it off).
const settings = { 'stratus.inference.baseUrl': sandbox.info.inference, 'stratus.console.baseUrl': sandbox.info.console, 'workbench.welcomePage.walkthroughs.openOnInstall': true };

const server = await startCodeServer({ install, port, stateDir, settings, env, beforeStart: installVsix(join(repoRoot, `${name}-${version}.vsix`)) });

console.log(`
Stratus is running.
  VS Code (code-server):  ${server.url}/?folder=${encodeURIComponent(server.dirs.workspace)}
  Sandbox inference API:  ${sandbox.info.inference}
  Sandbox console API:    ${sandbox.info.console}
Open the first address in a browser: the Stratus walkthrough opens on the first start; the Stratus icon is in the activity bar, and "@stratus" in the Chat view.
Press Ctrl+C to stop.`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await server.stop();
  await sandbox.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
void server.exited.then(() => { console.error('code-server exited'); void stop(); });
