import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { stratus } from './extension';

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

describe('account: secrets', () => {
  afterEach(async () => {
    await vscode.commands.executeCommand('stratus.signOut');
  });

  it('stores the API key and the PAT, then signs out', async () => {
    const { api } = await stratus();
    assert.equal(await vscode.commands.executeCommand('stratus.setApiKey', FAKE_API_KEY), true);
    // The sandbox rejects this fake PAT: the command says so (false) but keeps it for "Sign In Again".
    assert.equal(await vscode.commands.executeCommand('stratus.signIn', FAKE_PAT), false);
    assert.deepEqual(await api.secretsStatus(), { apiKey: true, pat: true });
    assert.equal(api.views.consoleState(), 'rejected');
    assert.equal(await vscode.commands.executeCommand('stratus.signOut'), true);
    assert.deepEqual(await api.secretsStatus(), { apiKey: false, pat: false });
    assert.equal(api.views.consoleState(), 'signedOut');
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
    await vscode.commands.executeCommand('stratus.signOut');
    // The log channel flushes to disk asynchronously: wait for the sign-out line.
    const deadline = Date.now() + 5000;
    let text = '';
    while (Date.now() < deadline && !text.includes('Signed out')) {
      text = logText(api.logDirectory);
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(text.includes('Signed out'), 'the log was never flushed to disk');
    for (const secret of [FAKE_API_KEY, FAKE_PAT.secret, FAKE_PAT.id]) {
      assert.ok(!text.includes(secret), 'a secret reached the log file');
    }
  });
});
