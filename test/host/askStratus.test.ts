import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AskOutcome } from '../../src/features/resources/askStratus';
import { stratus } from './extension';
import { control, eventually, requests, sandbox } from './sandbox';

interface Node { type: string; id?: string; kind?: { id: string }; item?: { id: string; name: string } }

async function lastSeq(): Promise<number> {
  return Math.max(0, ...(await requests('/v1/chat/completions')).map((r) => r.seq));
}

/** The JSON block of a query (the item as the model reads it). */
function blockOf(query: string): Record<string, unknown> {
  const match = /```json\n([\s\S]*)\n```$/.exec(query);
  assert.ok(match, `a JSON block at the end of:\n${query}`);
  return JSON.parse(match[1] ?? '') as Record<string, unknown>;
}

/** The last user message of the first chat request after `before` that @stratus answered. */
async function askedAfter(before: number): Promise<string> {
  const answered = await eventually(async () => (await requests('/v1/chat/completions')).find((r) => r.seq > before && r.status === 200), '@stratus to send the question');
  const body = answered.body?.json as { messages?: { role: string; content: unknown }[] } | undefined;
  return String(body?.messages?.filter((m) => m.role === 'user').at(-1)?.content);
}

describe('Ask @stratus from the Cloud and Activities views (against the sandbox)', function () {
  this.timeout(60_000);

  beforeEach(async () => {
    await control('/reset', {});
    // The request log keeps whole messages (it shortens long strings by default).
    await control('/recorded-strings', { maxChars: 100_000 });
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
    assert.equal(await vscode.commands.executeCommand('stratus.signIn', { id: sandbox().patId, secret: sandbox().patSecret }), true);
  });
  after(async () => {
    await control('/reset', {});
    await vscode.commands.executeCommand('stratus.signOutOfConsole');
    await vscode.commands.executeCommand('stratus.removeApiKey');
  });

  it('on a virtual machine: opens @stratus with its id, kind and fields, and the model receives them', async () => {
    const { api } = await stratus();
    const kinds = ((await api.views.resources.getChildren(undefined)) ?? []) as Node[];
    const vmKind = kinds.find((n) => n.kind?.id === 'virtualMachines');
    const vm = (((await api.views.resources.getChildren(vmKind)) ?? []) as Node[]).find((n) => n.type === 'resource');
    assert.ok(vm?.item, 'a virtual machine in the tree');
    const before = await lastSeq();
    const outcome = await vscode.commands.executeCommand<AskOutcome>('stratus.resources.askStratus', vm);
    assert.match(outcome.query ?? '', /^@stratus Tell me about this virtual machine\.\n\n```json\n/);
    const block = blockOf(outcome.query ?? '');
    assert.equal(block.kind, 'virtualMachines');
    assert.equal(block.id, vm.item.id);
    assert.equal(block.name, vm.item.name);
    assert.equal(typeof block.fields, 'object');
    const asked = await askedAfter(before);
    assert.ok(asked.includes(`"id":"${vm.item.id}"`), `the model received the item:\n${asked}`);
  });

  it('on a failed activity: asks why it failed, with its reason, and the model receives it', async () => {
    await control('/activities/fail', { next: 1, reason: 'quota exceeded in the sandbox' });
    const failed = await vscode.commands.executeCommand<{ status: string; activityId?: string }>('stratus.resources.create', 'virtualMachines', { input: { name: 'doomed-vm', cpu: 1, memoryGiB: 1 } });
    assert.equal(failed.status, 'failed');
    const { api } = await stratus();
    const node = (((await api.views.activities.getChildren(undefined)) ?? []) as Node[]).find((n) => n.type === 'activity' && n.id === failed.activityId);
    assert.ok(node, 'the failed activity in the Activities view');
    const item = api.views.activities.getTreeItem(node as never) as vscode.TreeItem;
    assert.match(String(item.contextValue), /^stratus\.activity;failed;/, 'the menus\' viewItem');
    const before = await lastSeq();
    const outcome = await vscode.commands.executeCommand<AskOutcome>('stratus.resources.askStratus', node);
    assert.match(outcome.query ?? '', /^@stratus Why did this activity fail, and what should I do now\?\n\n```json\n/);
    const block = blockOf(outcome.query ?? '');
    assert.deepEqual([block.kind, block.id, block.state, block.reason], ['activity', failed.activityId, 'failed', 'quota exceeded in the sandbox']);
    const asked = await askedAfter(before);
    assert.ok(asked.includes('"reason":"quota exceeded in the sandbox"'), `the model received the reason:\n${asked}`);
  });

  it('without an item (the palette), says what to pick and opens nothing', async () => {
    const before = await lastSeq();
    const outcome = await vscode.commands.executeCommand<AskOutcome>('stratus.resources.askStratus');
    assert.equal(outcome.query, undefined);
    assert.match(outcome.error ?? '', /pick a resource in the Cloud view or an activity/);
    assert.equal(await lastSeq(), before);
  });
});
