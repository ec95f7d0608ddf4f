// Issue 32, section 3: a gateway's headers come from the user's settings and secret storage only;
// a workspace's .vscode/settings.json cannot set them.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { stratus } from './extension';
import { control, eventually, requests, sandbox, type RecordedRequest } from './sandbox';

const G = vscode.ConfigurationTarget.Global;
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('stratus');
type WithHeaders = RecordedRequest & { headers?: Record<string, string> };

/** The headers of the /v1/models requests Stratus sends for one refresh from now on. */
async function headersOfNextListing(): Promise<Record<string, string>> {
  const before = Math.max(0, ...(await requests('/v1/models')).map((r) => r.seq));
  await vscode.commands.executeCommand('stratus.refreshModels');
  const after = (await requests('/v1/models')) as WithHeaders[];
  const fresh = after.filter((r) => r.seq > before);
  assert.ok(fresh.length > 0, 'the refresh listed the models');
  return fresh[fresh.length - 1]?.headers ?? {};
}

describe('Gateway headers', function () {
  this.timeout(60_000);
  let settingsFile = '';
  let previousSettings: string | undefined;

  before(async () => {
    await stratus();
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
  });
  after(async () => {
    await config().update('inference.headers', undefined, G);
    await vscode.commands.executeCommand('stratus.setGatewayHeaderSecret', { scope: 'inference', name: 'X-Gateway-Key', value: undefined });
    await control('/gateway', { off: true });
    if (settingsFile) {
      if (previousSettings === undefined) rmSync(settingsFile, { force: true });
      else writeFileSync(settingsFile, previousSettings);
      await eventually(async () => (config().get('chat.model') === 'gateway-marker' ? undefined : true), 'the workspace settings to be gone');
    }
  });

  it('a workspace settings.json cannot set a header; the user-level setting and the secret header are sent', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the test window has a workspace folder');
    const dir = join(folder.uri.fsPath, '.vscode');
    settingsFile = join(dir, 'settings.json');
    previousSettings = existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : undefined;
    mkdirSync(dir, { recursive: true });
    writeFileSync(settingsFile, JSON.stringify({
      'stratus.inference.headers': { 'X-Workspace-Header': 'from-the-repository' },
      // A window-scoped setting a workspace may set: tells us VS Code has read the file.
      'stratus.chat.model': 'gateway-marker',
    }));
    await eventually(async () => (config().get('chat.model') === 'gateway-marker' ? true : undefined), 'VS Code to read the workspace settings');
    assert.equal((await headersOfNextListing())['x-workspace-header'], undefined, 'the workspace header was not sent');

    // Through the API too: an update to the Workspace target is refused for an application setting.
    await config().update('inference.headers', { 'X-Workspace-Header': 'api' }, vscode.ConfigurationTarget.Workspace).then(() => undefined, () => undefined);
    assert.equal((await headersOfNextListing())['x-workspace-header'], undefined, 'a Workspace-target update is not sent');

    await config().update('inference.headers', { 'X-Tenant': 'acme', Authorization: 'Bearer not-this' }, G);
    const sent = await headersOfNextListing();
    assert.equal(sent['x-tenant'], 'acme');
    assert.match(sent.authorization ?? '', /^Bearer /, 'the credential is still Stratus\' own');

    // Gateway mode on: without the secret header the listing is refused; with it, it passes.
    await control('/gateway', { header: 'X-Gateway-Key', value: 'gw-host-test-value' });
    assert.equal(await vscode.commands.executeCommand('stratus.setGatewayHeaderSecret', { scope: 'inference', name: 'X-Gateway-Key', value: 'gw-host-test-value' }), true);
    const withSecret = (await headersOfNextListing());
    assert.equal(withSecret['x-gateway-key'], 'gw-host-test-value');
    const last = (await requests('/v1/models')).at(-1);
    assert.equal(last?.status, 200);
    assert.equal(await vscode.commands.executeCommand('stratus.setGatewayHeaderSecret', { scope: 'inference', name: 'Authorization', value: 'x' }), false, 'a reserved name is refused');
  });
});
