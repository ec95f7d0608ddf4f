import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { metrics, stratus } from './extension';

describe('activation', () => {
  it('activates and reports its activation time', async () => {
    const { extension, api } = await stratus();
    assert.equal(extension.isActive, true);
    assert.equal(typeof api.activationMs, 'number');
    assert.ok(api.activationMs >= 0);
    metrics.activationMs = api.activationMs;
  });

  it('registers every command the manifest contributes', async () => {
    const { extension } = await stratus();
    const contributed = (extension.packageJSON as { contributes: { commands: { command: string }[] } }).contributes.commands.map((c) => c.command);
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const id of ['stratus.setApiKey', 'stratus.signIn', 'stratus.signOut', 'stratus.showLog']) assert.ok(contributed.includes(id), `${id} not contributed`);
    const missing = contributed.filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  it('contributes the sticky @stratus chat participant and registers its handler', async () => {
    const { extension, api } = await stratus();
    const participants = (extension.packageJSON as { contributes: { chatParticipants: { id: string; name: string; isSticky?: boolean }[] } }).contributes.chatParticipants;
    const participant = participants.find((p) => p.id === 'stratus.chat');
    assert.ok(participant);
    assert.equal(participant.name, 'stratus');
    assert.equal(participant.isSticky, true);
    assert.deepEqual(api.registeredParticipants, ['stratus.chat']);
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
