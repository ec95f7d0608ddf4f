import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { stratus } from './extension';
import { eventually, sandbox } from './sandbox';

// Obviously fake values: they must never be written to the log.
const FAKE_API_KEY = 'sk-host-test-FAKE-0123456789abcdef';
const FAKE_PAT = { id: 'pat-host-test-FAKE-id-42', secret: 'pat-host-test-FAKE-secret-9876543210' };

function logText(dir: string): string {
  let text = '';
  const walk = (path: string): void => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else text += readFileSync(full, 'utf8');
    }
  };
  walk(dir);
  return text;
}

/** No secret stored, not signed in: what every test here starts from and leaves behind. */
async function clean(): Promise<void> {
  await vscode.commands.executeCommand('stratus.signOutOfConsole');
  await vscode.commands.executeCommand('stratus.removeApiKey');
}

async function signInToSandbox(): Promise<void> {
  const { api } = await stratus();
  assert.equal(await vscode.commands.executeCommand('stratus.signIn', { id: sandbox().patId, secret: sandbox().patSecret }), true);
  assert.equal(api.views.consoleState(), 'signedIn');
}

describe('account: secrets', function () {
  this.timeout(30_000);
  beforeEach(clean);
  afterEach(clean);

  it('activate() returns the internals in ExtensionMode.Test (this host)', async () => {
    const { extension, api } = await stratus();
    assert.ok(extension.exports, 'the API is exported to the tests');
    assert.equal(typeof api.secretsStatus, 'function');
    assert.equal(typeof api.views.consoleState, 'function');
  });

  it('stores the API key and the PAT; a rejected PAT is kept for "Sign In Again"', async () => {
    const { api } = await stratus();
    assert.equal(await vscode.commands.executeCommand('stratus.setApiKey', FAKE_API_KEY), true);
    // The sandbox rejects this fake PAT: the command says so (false) but keeps it for "Sign In Again".
    assert.equal(await vscode.commands.executeCommand('stratus.signIn', FAKE_PAT), false);
    assert.deepEqual(await api.secretsStatus(), { apiKey: true, pat: true });
    assert.equal(api.views.consoleState(), 'rejected');
  });

  it('"Sign Out of Console" removes the PAT and forgets the access token, and keeps the inference API key', async () => {
    const { api } = await stratus();
    await vscode.commands.executeCommand('stratus.setApiKey', FAKE_API_KEY);
    await signInToSandbox();
    assert.deepEqual(await api.secretsStatus(), { apiKey: true, pat: true });
    assert.equal(await vscode.commands.executeCommand('stratus.signOutOfConsole'), true);
    assert.deepEqual(await api.secretsStatus(), { apiKey: true, pat: false }, 'the API key survives');
    assert.equal(api.views.consoleState(), 'signedOut');
    // The in-memory access token is gone too: the Cloud view lists nothing.
    assert.deepEqual(await api.views.resources.getChildren(undefined), []);
  });

  it('the former "stratus.signOut" id is the console sign-out only (menus and scripts that use it keep working)', async () => {
    const { api } = await stratus();
    await vscode.commands.executeCommand('stratus.setApiKey', FAKE_API_KEY);
    await signInToSandbox();
    assert.equal(await vscode.commands.executeCommand('stratus.signOut'), true);
    assert.deepEqual(await api.secretsStatus(), { apiKey: true, pat: false });
    assert.equal(api.views.consoleState(), 'signedOut');
  });

  it('"Remove Inference API Key" removes only the API key: the PAT and the console session survive', async () => {
    const { api } = await stratus();
    await signInToSandbox();
    await vscode.commands.executeCommand('stratus.setApiKey', FAKE_API_KEY);
    assert.equal(await vscode.commands.executeCommand('stratus.removeApiKey'), true);
    assert.deepEqual(await api.secretsStatus(), { apiKey: false, pat: true }, 'the PAT survives');
    assert.equal(api.views.consoleState(), 'signedIn', 'still signed in to the console');
    const kinds = (await api.views.resources.getChildren(undefined)) ?? [];
    assert.ok(kinds.length > 0, 'the Cloud view still lists resource kinds');
  });

  it('the manifest offers both commands and the Cloud view menu signs out of the console only', async () => {
    const { extension } = await stratus();
    const contributes = (extension.packageJSON as { contributes: { commands: { command: string; title: string }[]; menus: Record<string, { command: string }[]> } }).contributes;
    const titles = new Map(contributes.commands.map((c) => [c.command, c.title]));
    assert.equal(titles.get('stratus.signOutOfConsole'), 'Sign Out of Console');
    assert.equal(titles.get('stratus.removeApiKey'), 'Remove Inference API Key');
    const viewTitle = contributes.menus['view/title'] ?? [];
    assert.ok(viewTitle.some((m) => m.command === 'stratus.signOutOfConsole'));
    assert.ok(!viewTitle.some((m) => m.command === 'stratus.signOut'), 'no menu still points at the ambiguous id');
  });

  it('refuses a malformed API key with a specific reason and stores nothing', async () => {
    const { api } = await stratus();
    assert.equal(await vscode.commands.executeCommand('stratus.setApiKey', 'Bearer sk-xyz-123456'), false);
    assert.equal(await vscode.commands.executeCommand('stratus.setApiKey', 'two words here'), false);
    assert.deepEqual(await api.secretsStatus(), { apiKey: false, pat: false });
  });

  it('never writes a stored secret to the log', async () => {
    const { api } = await stratus();
    await vscode.commands.executeCommand('stratus.setApiKey', FAKE_API_KEY);
    await vscode.commands.executeCommand('stratus.signIn', FAKE_PAT);
    await vscode.commands.executeCommand('stratus.signOutOfConsole');
    await vscode.commands.executeCommand('stratus.removeApiKey');
    // The log channel flushes to disk asynchronously: wait for the removal line.
    const text = await eventually(async () => {
      const current = logText(api.logDirectory);
      return current.includes('Inference API key removed') ? current : undefined;
    }, 'the log to reach the disk');
    assert.ok(text.includes('Signed out of the console'));
    for (const secret of [FAKE_API_KEY, FAKE_PAT.secret, FAKE_PAT.id]) {
      assert.ok(!text.includes(secret), 'a secret reached the log file');
    }
  });
});
