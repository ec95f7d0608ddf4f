import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { stratus } from './extension';
import { control, eventually, sandbox } from './sandbox';

describe('network activity view in the host (against the sandbox)', function () {
  this.timeout(60_000);

  before(async () => {
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
    await control('/reset', {});
  });
  after(async () => {
    await control('/reset', {});
    await vscode.commands.executeCommand('stratus.removeApiKey');
  });

  it('lists the sandbox host with its chat requests and bytes both ways, and no outside-host notice', async () => {
    const { api } = await stratus();
    const network = api.network;
    assert.ok(network, 'the network activity internals are exported in test mode');
    const host = new URL(sandbox().inference).host;
    const before = network.snapshot().find((h) => h.host === host)?.features.find((f) => f.feature === 'chat')?.requests ?? 0;

    const model = await eventually(async () => (await vscode.lm.selectChatModels({ vendor: 'stratus' })).find((m) => m.id === 'gpt-oss:120b'), 'the sandbox chat model');
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('hello network')], {}, new vscode.CancellationTokenSource().token);
    let text = '';
    for await (const part of response.text) text += part;
    assert.ok(text.length > 0);

    const entry = network.snapshot().find((h) => h.host === host);
    assert.ok(entry, `the sandbox host ${host} is listed: ${JSON.stringify(network.snapshot().map((h) => h.host))}`);
    assert.equal(entry.expected, true);
    const chat = entry.features.find((f) => f.feature === 'chat');
    assert.ok(chat && chat.requests > before, JSON.stringify(entry));
    assert.ok(chat.sentBytes > 0 && chat.receivedBytes > 0, JSON.stringify(chat));
    assert.ok(!network.noticed.includes(host));
    assert.ok(!JSON.stringify(network.snapshot()).includes('hello network'), 'no request text is kept');

    // The tree shows the same: the host, then its features.
    const roots = (await network.tree.getChildren()) ?? [];
    const root = roots.find((n) => n.kind === 'host' && n.traffic.host === host);
    assert.ok(root);
    const item = await network.tree.getTreeItem(root);
    assert.equal(item.label, host);
    const children = (await network.tree.getChildren(root)) ?? [];
    assert.ok(children.some((n) => n.kind === 'feature' && n.traffic.feature === 'chat'));

    await vscode.commands.executeCommand('stratus.showNetworkActivity');
  });
});
