import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as vscode from 'vscode';
import { Redactor } from '../../src/core/http/redact';
import { GatewaySecrets } from '../../src/platform/gatewaySecrets';
import { SecretKeys, SecretStore } from '../../src/platform/secrets';
import { MCP_PROVIDER_ID, StratusMcpProvider } from '../../src/features/mcp/provider';
import { stratus } from './extension';
import { memorySecrets } from './fakes';
import { sandbox } from './sandbox';

/** The resolved definition started as VS Code starts it (its command, arguments and environment over the host's), listed with the SDK's client. */
async function startAndList(definition: vscode.McpStdioServerDefinition): Promise<{ tools: string[]; client: Client }> {
  const env: Record<string, string> = { ...getDefaultEnvironment() };
  for (const [name, value] of Object.entries(definition.env)) if (value !== null) env[name] = String(value);
  const transport = new StdioClientTransport({ command: definition.command, args: definition.args, env, stderr: 'pipe' });
  const client = new Client({ name: 'stratus-host-test', version: '1.0.0' });
  await client.connect(transport);
  return { tools: (await client.listTools()).tools.map((t) => t.name).sort(), client };
}

describe('MCP server in VS Code: the provider, its settings and the started server', function () {
  this.timeout(60_000);
  const config = () => vscode.workspace.getConfiguration('stratus');
  const disposables: vscode.Disposable[] = [];
  const clients: Client[] = [];

  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    for (const d of disposables.splice(0)) d.dispose();
    await config().update('mcp.enabled', undefined, vscode.ConfigurationTarget.Global);
    await config().update('mcp.allowWrites', undefined, vscode.ConfigurationTarget.Global);
  });

  it('is contributed and registered, and offers no server until the user turns it on', async () => {
    const { extension, api } = await stratus();
    const contributed = (extension.packageJSON as { contributes: { mcpServerDefinitionProviders?: Array<{ id: string }> } }).contributes.mcpServerDefinitionProviders;
    assert.deepEqual(contributed?.map((p) => p.id), [MCP_PROVIDER_ID]);
    assert.ok(api.mcp, 'the test API exposes the MCP feature');
    assert.equal(api.mcp.registered, true, 'vscode.lm.registerMcpServerDefinitionProvider accepted the provider');
    assert.ok(existsSync(api.mcp.serverPath), `${api.mcp.serverPath} is built`);
    assert.deepEqual(api.mcp.provider.provideMcpServerDefinitions(), []);
  });

  it('turned on: the definition carries no secret, resolving adds the PAT to the environment only, and the started server lists its tools', async () => {
    const { api } = await stratus();
    assert.ok(api.mcp);
    const changed = new Promise<void>((resolve) => disposables.push(api.mcp!.provider.onDidChangeMcpServerDefinitions(() => resolve())));
    await config().update('mcp.enabled', true, vscode.ConfigurationTarget.Global);
    await changed;
    // The extension's own provider, over a secret store holding the sandbox's PAT (as after Sign In to Console).
    const secrets = new SecretStore(memorySecrets(new Map([[SecretKeys.patId, sandbox().patId], [SecretKeys.patSecret, sandbox().patSecret]])), new Redactor());
    const provider = new StratusMcpProvider({ secrets, gatewaySecrets: new GatewaySecrets(secrets, new Redactor()), serverPath: api.mcp.serverPath, usageDir: '', version: 'test', onCannotStart: (m) => assert.fail(m) });
    disposables.push(provider);
    const [definition] = provider.provideMcpServerDefinitions();
    assert.ok(definition);
    assert.deepEqual(definition.args, [api.mcp.serverPath]);
    assert.equal(definition.env.STRATUS_CONSOLE_BASE_URL, sandbox().console);
    const shown = JSON.stringify({ args: definition.args, env: definition.env });
    assert.ok(!shown.includes(sandbox().patSecret) && !shown.includes('STRATUS_PAT'), 'no PAT before resolve');
    const resolved = await provider.resolveMcpServerDefinition(definition);
    assert.ok(resolved);
    assert.equal(resolved.env.STRATUS_PAT_SECRET, sandbox().patSecret);
    assert.ok(!resolved.args.join(' ').includes(sandbox().patSecret), 'never in the arguments');
    const { tools, client } = await startAndList(resolved);
    clients.push(client);
    assert.deepEqual(tools, ['get_activity', 'get_resource', 'get_usage', 'list_activities', 'list_resource_kinds', 'list_resources']);
    const listed = await client.callTool({ name: 'list_resources', arguments: { kind: 'virtualMachines', limit: 2 } });
    assert.notEqual(listed.isError, true, JSON.stringify(listed.content));
  });

  it('writes only with the user setting; a workspace value neither starts the server nor allows writes', async () => {
    const { api } = await stratus();
    assert.ok(api.mcp);
    // An application-scoped setting cannot be written to the workspace (VS Code refuses), and a value there would be ignored.
    await config().update('mcp.enabled', true, vscode.ConfigurationTarget.Workspace).then(() => undefined, () => undefined);
    assert.deepEqual(api.mcp.provider.provideMcpServerDefinitions(), []);
    await config().update('mcp.enabled', undefined, vscode.ConfigurationTarget.Workspace).then(() => undefined, () => undefined);
    await config().update('mcp.enabled', true, vscode.ConfigurationTarget.Global);
    await config().update('mcp.allowWrites', true, vscode.ConfigurationTarget.Global);
    const [definition] = (api.mcp.provider.provideMcpServerDefinitions()) ?? [];
    assert.ok(definition);
    assert.deepEqual(definition.args.slice(1), ['--allow-writes']);
    assert.match(definition.version ?? '', /\+writes$/);
  });

  it('the setup text for other agents names the server file and never holds the PAT', async () => {
    const { api } = await stratus();
    assert.ok(api.mcp);
    const text = api.mcp.setupText('all');
    for (const agent of ['Claude Code', 'Codex CLI', 'Cline', 'Zed']) assert.ok(text.includes(`## ${agent}`), agent);
    assert.ok(text.includes(api.mcp.serverPath));
    assert.ok(text.includes('<your PAT secret>'));
    assert.ok(!text.includes(sandbox().patSecret));
    assert.ok((await vscode.commands.getCommands(true)).includes('stratus.mcp.setUpOtherAgents'));
  });
});
