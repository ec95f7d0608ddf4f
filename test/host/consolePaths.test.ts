// Issue 32, 7: a console that serves only the production paths, found without configuration, in a
// real extension host: the Cloud view's tree lists VMs, and the stratus_cloudAction tool modifies
// one, creates a user and powers a VM off, each write at the path its collection's read proved.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Redactor } from '../../src/core/http/redact';
import { silentLogger } from '../../src/core/log';
import { CloudActionTool } from '../../src/features/tools/cloudTools';
import { toolsContext } from '../../src/services/toolsContext';
import { ChatCommandRegistry } from '../../src/platform/chatCommands';
import { SecretKeys, SecretStore } from '../../src/platform/secrets';
import { readSettings } from '../../src/platform/settings';
import { ConnectionStatus } from '../../src/services/connectionStatus';
import { ConsoleConnection } from '../../src/services/consoleConnection';
import { InferenceConnection } from '../../src/services/inferenceConnection';
import type { Deps } from '../../src/features/deps';
import { startSandbox, type Sandbox } from '../sandbox/index';
import { stratus } from './extension';
import { memorySecrets, trustServices } from './fakes';

interface Node { type: string; kind?: { id: string }; item?: { id: string; name: string; raw: Record<string, unknown> } }

const CONTRACT_VMS = '/api/compute/v1/virtual-machines';
const PRODUCTION_VMS = '/api/compute/v1/vcenters/virtual_machines';

const text = (result: vscode.LanguageModelToolResult | null | undefined): string =>
  (result?.content ?? []).map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');

describe('Cloud view and tools against a console serving only the production paths', function () {
  this.timeout(90_000);
  let production: Sandbox;
  let previousUrl: string | undefined;

  before(async () => {
    production = await startSandbox({ profile: 'production', consolePaths: 'production', activityStepMs: 50 });
    const config = vscode.workspace.getConfiguration('stratus');
    previousUrl = config.inspect<string>('console.baseUrl')?.globalValue;
    await config.update('console.baseUrl', production.consoleUrl, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await vscode.commands.executeCommand('stratus.signOutOfConsole');
    await vscode.workspace.getConfiguration('stratus').update('console.baseUrl', previousUrl, vscode.ConfigurationTarget.Global);
    await production.close();
  });

  it('the tree lists virtual machines: one 404 at the contract path, then the production path, remembered', async () => {
    const { api } = await stratus();
    assert.equal(await vscode.commands.executeCommand('stratus.signIn', { id: production.credentials.patId, secret: production.credentials.patSecret }), true, api.views.consoleState());
    production.control.clearRequests();
    const tree = api.views.resources as vscode.TreeDataProvider<Node>;
    const kind = ((await tree.getChildren()) ?? []).find((n) => n.kind?.id === 'virtualMachines');
    assert.ok(kind, 'the virtual machines node');
    const vms = ((await tree.getChildren(kind)) ?? []).filter((n) => n.type === 'resource');
    assert.ok(vms.length > 0, 'VMs are listed, not "Could not list virtual machines"');
    const gets = production.control.requests({ pathPrefix: '/api/compute' }).map((r) => `${r.path} ${r.status ?? ''}`);
    assert.equal(gets[0], `${CONTRACT_VMS} 404`);
    assert.ok(gets.slice(1).every((g) => g.startsWith(`${PRODUCTION_VMS} `)), gets.join(', '));
  });

  it('stratus_cloudAction modifies a VM (PATCH .../virtual_machines, id in the body) and creates a user (/api/iam/v2/users), each at the path its read proved', async () => {
    const secrets = new Map<string, string>([[SecretKeys.patId, production.credentials.patId], [SecretKeys.patSecret, production.credentials.patSecret]]);
    const store = new SecretStore(memorySecrets(secrets), new Redactor());
    const consoleConnection = new ConsoleConnection(store, silentLogger);
    const inference = new InferenceConnection(store, silentLogger);
    const connectionStatus = new ConnectionStatus();
    const logChannel = vscode.window.createOutputChannel('Stratus console writes test', { log: true });
    const deps: Deps = { logger: silentLogger, logChannel, redactor: new Redactor(), secrets: store, settings: readSettings, inference, console: consoleConnection, connectionStatus, chatCommands: new ChatCommandRegistry(), ...trustServices() };
    const invoke = async (input: Record<string, unknown>): Promise<string> =>
      text(await new CloudActionTool(consoleConnection, toolsContext(deps).progress).invoke({ input: input as never, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token));
    try {
      assert.equal((await consoleConnection.signIn()).kind, 'signedIn');
      const vm = (await consoleConnection.client().list('virtualMachines', { limit: 200 })).items.find((v) => v.raw.template !== true);
      assert.ok(vm, 'the sandbox seeds a VM');
      production.control.clearRequests();
      assert.match(await invoke({ kind: 'virtualMachines', action: 'modify', id: vm.id, input: { name: 'renamed-in-production', cpu: 6 } }), /Modify.*: completed/);
      const patches = production.control.requests({ pathPrefix: '/api/compute' }).filter((r) => r.method !== 'GET');
      assert.deepEqual(patches.map((r) => `${r.method} ${r.path} ${r.status ?? ''}`), [`PATCH ${PRODUCTION_VMS} 201`]);
      assert.deepEqual(patches[0]?.body?.json, { name: 'renamed-in-production', cpu: 6, id: vm.id });
      assert.equal((await consoleConnection.client().get('virtualMachines', vm.id)).name, 'renamed-in-production');

      production.control.clearRequests();
      assert.match(await invoke({ kind: 'users', action: 'create', input: { name: 'Host Test User', email: 'host.test@example.com' } }), /Create User.*: completed/);
      const iam = production.control.requests({ pathPrefix: '/api/iam/v' }).filter((r) => !r.path.includes('/auth/')).map((r) => `${r.method} ${r.path} ${r.status !== null && r.status >= 200 && r.status < 300 ? 'ok' : String(r.status)}`);
      // A one-item read of a longer list may answer 206 (partial): a path that answered all the same.
      assert.deepEqual(iam.slice(0, 3), ['GET /api/iam/v1/users 404', 'GET /api/iam/v2/users ok', 'POST /api/iam/v2/users ok'], 'the read proves the v2 path, then the user is created there');
      // The tool then reads the created user back, at the same proven path.
      assert.ok(iam.slice(3).every((r) => /^GET \/api\/iam\/v2\/users\/[^/ ]+ ok$/.test(r)), iam.join(', '));
    } finally {
      for (const d of [consoleConnection, inference, connectionStatus, logChannel]) d.dispose();
    }
  });

  it('stratus_cloudAction powers a VM off through PATCH .../virtual_machines/power with its datacenter', async () => {
    const secrets = new Map<string, string>([[SecretKeys.patId, production.credentials.patId], [SecretKeys.patSecret, production.credentials.patSecret]]);
    const store = new SecretStore(memorySecrets(secrets), new Redactor());
    const consoleConnection = new ConsoleConnection(store, silentLogger);
    const inference = new InferenceConnection(store, silentLogger);
    const connectionStatus = new ConnectionStatus();
    const logChannel = vscode.window.createOutputChannel('Stratus console paths test', { log: true });
    const deps: Deps = { logger: silentLogger, logChannel, redactor: new Redactor(), secrets: store, settings: readSettings, inference, console: consoleConnection, connectionStatus, chatCommands: new ChatCommandRegistry(), ...trustServices() };
    try {
      assert.equal((await consoleConnection.signIn()).kind, 'signedIn');
      const running = (await consoleConnection.client().list('virtualMachines', { limit: 200 })).items.find((vm) => vm.raw.powerState === 'running');
      assert.ok(running, 'the sandbox seeds a running VM');
      production.control.clearRequests();
      const tool = new CloudActionTool(consoleConnection, toolsContext(deps).progress);
      const answer = text(await tool.invoke({ input: { kind: 'virtualMachines', action: 'powerOff', id: running.id }, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token));
      assert.match(answer, /Power Off .*: completed/);
      const patches = production.control.requests({ pathPrefix: '/api/compute' }).filter((r) => r.method !== 'GET');
      assert.deepEqual(patches.map((r) => `${r.method} ${r.path}`), [`PATCH ${PRODUCTION_VMS}/power`]);
      assert.deepEqual(patches[0]?.body?.json, { powerAction: 'off', id: running.id, datacenterId: (running.raw.datacenter as { id: string }).id });
    } finally {
      for (const d of [consoleConnection, inference, connectionStatus, logChannel]) d.dispose();
    }
  });
});
