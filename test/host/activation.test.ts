import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startupSnapshot, stratus, VENDOR } from './extension';
import { eventually } from './sandbox';

interface Manifest {
  activationEvents?: string[];
  contributes: {
    commands: { command: string; title: string }[];
    chatParticipants: { id: string; name: string; isSticky?: boolean }[];
    languageModelChatProviders: { vendor: string; managementCommand?: string }[];
    views: Record<string, { id: string; type?: string }[]>;
    viewsWelcome?: { view: string; contents: string }[];
    menus?: Record<string, { command?: string }[]>;
    keybindings?: { command: string }[];
  };
}

async function manifest(): Promise<Manifest> {
  const { extension } = await stratus();
  return extension.packageJSON as Manifest;
}

/** Every `command:<id>` link in a welcome view's markdown. */
function welcomeLinks(m: Manifest): string[] {
  return (m.contributes.viewsWelcome ?? []).flatMap((w) => [...w.contents.matchAll(/\(command:([\w.]+)/g)].map((x) => x[1] ?? ''));
}

describe('activation', () => {
  it('activates and returns its API', async () => {
    const { extension, api } = await stratus();
    assert.equal(extension.isActive, true);
    assert.equal(typeof api.activationMs, 'number'); // recorded as a metric by index.ts, not asserted
    assert.equal(typeof api.secretsStatus, 'function');
  });

  it('registers every command the manifest contributes, and every command its menus, keys and links use', async () => {
    const m = await manifest();
    const contributed = m.contributes.commands.map((c) => c.command);
    assert.ok(contributed.length >= 10, `only ${contributed.length} commands contributed`);
    for (const c of m.contributes.commands) assert.match(c.command, /^stratus\./, `${c.command} is not in the stratus namespace`);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
    // Commands referenced elsewhere in the manifest must exist too (ours contributed, others built in).
    const referenced = [
      ...Object.values(m.contributes.menus ?? {}).flatMap((items) => items.map((i) => i.command ?? '')),
      ...(m.contributes.keybindings ?? []).map((k) => k.command),
      ...m.contributes.languageModelChatProviders.map((p) => p.managementCommand ?? ''),
      ...welcomeLinks(m),
    ].filter((id) => id !== '');
    assert.ok(referenced.length > 0);
    const dangling = [...new Set(referenced)].filter((id) => (id.startsWith('stratus.') ? !contributed.includes(id) : !registered.has(id)));
    assert.deepEqual(dangling, [], `referenced but not contributed/registered: ${dangling.join(', ')}`);
  });

  it('registers the handler of every chat participant the manifest contributes (the sticky @stratus)', async () => {
    const m = await manifest();
    const { api } = await stratus();
    assert.deepEqual([...api.registeredParticipants].sort(), m.contributes.chatParticipants.map((p) => p.id).sort());
    const participant = m.contributes.chatParticipants.find((p) => p.id === 'stratus.chat');
    assert.ok(participant);
    assert.equal(participant.name, 'stratus');
    assert.equal(participant.isSticky, true);
  });

  it('gives each contributed tree view a data provider that answers, and each webview view a provider', async () => {
    const m = await manifest();
    const { api } = await stratus();
    assert.ok(api.network, 'the network activity view is in the test API');
    const providers: Record<string, vscode.TreeDataProvider<unknown>> = { 'stratus.resources': api.views.resources, 'stratus.activities': api.views.activities, 'stratus.network': api.network.tree as vscode.TreeDataProvider<unknown> };
    const contributed = Object.values(m.contributes.views).flat();
    const trees = contributed.filter((v) => v.type === undefined || v.type === 'tree').map((v) => v.id);
    assert.deepEqual([...trees].sort(), Object.keys(providers).sort(), 'every contributed tree view has a provider in the API');
    for (const [id, provider] of Object.entries(providers)) {
      assert.equal(typeof provider.getTreeItem, 'function', id);
      const roots = await provider.getChildren();
      assert.ok(Array.isArray(roots), `${id}: getChildren() answered ${String(roots)}`);
      for (const root of roots ?? []) assert.ok(await provider.getTreeItem(root), `${id}: a root without a tree item`);
    }
    // The views exist in the workbench: VS Code generates a focus command for each contributed view.
    for (const view of contributed) await vscode.commands.executeCommand(`${view.id}.focus`);
    // A webview view with no registered provider never resolves: the Usage view's handshake shows it did.
    const webviews = contributed.filter((v) => v.type === 'webview').map((v) => v.id);
    assert.deepEqual(webviews, ['stratus.usage'], 'a new webview view needs its own check here');
    await eventually(async () => (api.usage?.view.ready === true ? true : undefined), 'the Usage webview view to be resolved and ready');
  });

  it(`provides language models under the manifest's vendor "${VENDOR}"`, async () => {
    const m = await manifest();
    assert.deepEqual(m.contributes.languageModelChatProviders.map((p) => p.vendor), [VENDOR]);
    const models = await vscode.lm.selectChatModels({ vendor: VENDOR });
    assert.ok(models.length > 0, 'the provider answered with no model at all (not even the "not connected" one)');
    for (const model of models) assert.equal(model.vendor, VENDOR);
    const startup = startupSnapshot();
    assert.ok(startup.models.length > 0, 'VS Code resolved no Stratus model at startup');
  });

  it('sends no request at activation when no secret is stored, and stays signed out', function () {
    const startup = startupSnapshot();
    // The harness starts the host with no stored secret and with the sandbox: this case, always.
    assert.ok(!startup.secrets.apiKey && !startup.secrets.pat, 'the host run started with a stored secret (STRATUS_API_KEY etc. set?)');
    assert.ok(startup.requests !== null, 'no sandbox to ask (STRATUS_NO_SANDBOX set?)');
    assert.deepEqual(startup.requests, [], 'activation (model resolution included) sent requests without any credential');
    assert.deepEqual(startup.models.map((model) => model.id), ['stratus-not-connected'], 'only the placeholder that says what to set');
    assert.notEqual(startup.consoleState, 'signedIn');
  });

  it('contributes the settings with their defaults', () => {
    const config = vscode.workspace.getConfiguration('stratus');
    assert.equal(typeof config.inspect('inference.baseUrl')?.defaultValue, 'string');
    assert.equal(typeof config.inspect('console.baseUrl')?.defaultValue, 'string');
  });

  it('shows the log channel on Stratus: Show Log', async () => {
    await vscode.commands.executeCommand('stratus.showLog');
  });
});
