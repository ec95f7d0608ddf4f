// Issue 8, items 1 and 2: a workspace cannot redirect secrets, and every request goes through the
// network the user configured in VS Code (http.proxy, http.noProxy), via the extension host's fetch.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { stratus } from './extension';
import { startForwardProxy, startPortForwarder, type ForwardProxy, type PortForwarder } from './forwardProxy';
import { eventually, requests, sandbox } from './sandbox';

const G = vscode.ConfigurationTarget.Global;

/** Asks the extension for its models afresh: one GET /v1/models through its own client. */
async function listModelsThroughStratus(): Promise<void> {
  await vscode.commands.executeCommand('stratus.refreshModels');
  await vscode.lm.selectChatModels({ vendor: 'stratus' });
}

async function modelRequests(): Promise<number> {
  return (await requests('/v1/models')).length;
}

describe('Trust: a workspace cannot send the secrets elsewhere', function () {
  this.timeout(60_000);
  let decoy: Server;
  let decoyHits = 0;
  let settingsDir = '';

  before(async () => {
    await stratus();
    // Each suite sets up what it needs: the sandbox's fake API key.
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
    decoy = createServer((_q, res) => {
      decoyHits++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[]}');
    });
    await new Promise<void>((r) => decoy.listen(0, '127.0.0.1', r));
  });
  after(async () => {
    if (settingsDir) rmSync(settingsDir, { recursive: true, force: true });
    await eventually(async () => (vscode.workspace.getConfiguration('stratus').get('chat.model') === 'trust-marker' ? undefined : true), 'the workspace settings to be gone');
    await new Promise<void>((r) => decoy.close(() => r()));
  });

  it('ignores a workspace settings.json that points the base URLs and paths at another host', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the test window has a workspace folder');
    const decoyUrl = `http://127.0.0.1:${(decoy.address() as AddressInfo).port}`;
    settingsDir = join(folder.uri.fsPath, '.vscode');
    const inspectedBefore = JSON.stringify(vscode.workspace.getConfiguration('stratus').inspect('inference.baseUrl'));
    mkdirSync(settingsDir, { recursive: true });
    writeFileSync(join(settingsDir, 'settings.json'), JSON.stringify({
      'stratus.inference.baseUrl': `${decoyUrl}/v1`,
      'stratus.console.baseUrl': decoyUrl,
      'stratus.console.resourcePaths': { virtualMachines: '/steal' },
      // A window-scoped setting that workspaces may set: tells us VS Code has read the file.
      'stratus.chat.model': 'trust-marker',
    }));
    await eventually(async () => (vscode.workspace.getConfiguration('stratus').get('chat.model') === 'trust-marker' ? true : undefined), 'VS Code to read the workspace settings');

    const before = await modelRequests();
    const ids = await vscode.commands.executeCommand('stratus.refreshModels');
    const inspected = JSON.stringify(vscode.workspace.getConfiguration('stratus').inspect('inference.baseUrl'));
    assert.ok(Array.isArray(ids) && ids.length > 0, `the models were listed (${JSON.stringify(ids)}; decoy hits ${decoyHits}; before ${inspectedBefore}; after ${inspected}; get ${String(vscode.workspace.getConfiguration('stratus').get('inference.baseUrl'))})`);
    // At least this refresh's request (a refresh the settings change started may add one).
    assert.ok((await modelRequests()) > before, 'the models request went to the user-level URL');
    const authBefore = (await requests('/api/iam/v2/auth')).length;
    assert.equal(await vscode.commands.executeCommand('stratus.signIn', { id: sandbox().patId, secret: sandbox().patSecret }), true);
    assert.ok((await requests('/api/iam/v2/auth')).length > authBefore, 'the PAT went to the user-level console URL');
    assert.equal(decoyHits, 0, 'the workspace URL received nothing');
  });
});

describe('Network: requests go through VS Code\'s proxy settings', function () {
  this.timeout(90_000);
  let proxy: ForwardProxy;
  let inferenceHost: PortForwarder;
  let consoleHost: PortForwarder;
  const http = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('http');
  const stratusConfig = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('stratus');

  before(async () => {
    await stratus();
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
    proxy = await startForwardProxy();
    // VS Code sends localhost and 127.0.0.1 direct whatever the settings; the sandbox is reached
    // through 127.0.0.2 (one port per API, so each has its own connection pool and tunnel).
    const port = Number(new URL(sandbox().inference).port);
    inferenceHost = await startPortForwarder(port);
    consoleHost = await startPortForwarder(port);
    await stratusConfig().update('inference.baseUrl', `${inferenceHost.url}/v1`, G);
    await stratusConfig().update('console.baseUrl', consoleHost.url, G);
  });
  after(async () => {
    await http().update('proxy', undefined, G);
    await http().update('proxySupport', undefined, G);
    await http().update('noProxy', undefined, G);
    await stratusConfig().update('inference.baseUrl', sandbox().inference, G);
    await stratusConfig().update('console.baseUrl', sandbox().console, G);
    await proxy.close();
    await inferenceHost.close();
    await consoleHost.close();
  });

  it('sends chat-model and console requests through http.proxy (proxySupport override), no secret in the proxy log', async () => {
    await http().update('noProxy', [], G);
    await http().update('proxySupport', 'override', G);
    await http().update('proxy', proxy.url, G);
    await eventually(async () => {
      await listModelsThroughStratus();
      return proxy.targets().includes(inferenceHost.host) ? true : undefined;
    }, `the models request to ${inferenceHost.host} through the proxy (proxy saw: ${proxy.targets().join(', ') || 'nothing'})`, 30_000);
    assert.equal(await vscode.commands.executeCommand('stratus.signIn', { id: sandbox().patId, secret: sandbox().patSecret }), true);
    assert.ok(proxy.targets().includes(consoleHost.host), `the console sign-in went through the proxy (proxy saw: ${proxy.targets().join(', ')})`);
    const { apiKey, patSecret } = sandbox();
    for (const line of proxy.log) {
      assert.ok(!line.includes(apiKey) && !line.includes(patSecret), `the proxy log holds a secret: ${line.slice(0, 80)}`);
    }
  });

  it('bypasses the proxy for a host in http.noProxy', async () => {
    // A host this window never resolved (a fresh port): no cached proxy decision or pooled tunnel.
    const fresh = await startPortForwarder(Number(new URL(sandbox().inference).port));
    try {
      await http().update('proxySupport', 'override', G);
      await http().update('proxy', proxy.url, G);
      await http().update('noProxy', ['127.0.0.2'], G);
      await eventually(async () => (http().get<string[]>('noProxy')?.includes('127.0.0.2') ? true : undefined), 'the noProxy setting');
      await stratusConfig().update('inference.baseUrl', `${fresh.url}/v1`, G);
      const before = await modelRequests();
      await listModelsThroughStratus();
      await eventually(async () => ((await modelRequests()) > before ? true : undefined), 'the models request');
      assert.ok(fresh.connections() >= 1, 'the request reached the host directly');
      assert.ok(!proxy.targets().includes(fresh.host), `the proxy saw ${fresh.host}: ${proxy.targets().join(', ')}`);
    } finally {
      await stratusConfig().update('inference.baseUrl', `${inferenceHost.url}/v1`, G);
      await fresh.close();
    }
  });
});
