import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { stratus } from './extension';
import { control, sandbox } from './sandbox';

interface Node { type: string; kind?: { id: string }; item?: { id: string; name: string; raw: Record<string, unknown> }; text?: string; severity?: string }
interface Outcome { status: string; activityId?: string; resultId?: string; message?: string }

function logTail(dir: string, lines = 15): string {
  const files: string[] = [];
  const walk = (p: string): void => {
    for (const name of readdirSync(p)) {
      const full = join(p, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.push(full);
    }
  };
  walk(dir);
  return files.map((f) => readFileSync(f, 'utf8')).join('\n').split('\n').slice(-lines).join('\n');
}

async function tree(): Promise<vscode.TreeDataProvider<unknown>> {
  return (await stratus()).api.views.resources;
}

async function children(node?: Node): Promise<Node[]> {
  return ((await (await tree()).getChildren(node)) ?? []) as Node[];
}

async function vmKind(): Promise<Node> {
  const kind = (await children()).find((n) => n.type === 'kind' && n.kind?.id === 'virtualMachines');
  assert.ok(kind, 'the Virtual machines node');
  return kind;
}

describe('Cloud explorer (against the sandbox)', function () {
  this.timeout(60_000);

  after(async () => {
    await control('/reset', {});
    await vscode.commands.executeCommand('stratus.signOut');
  });

  it('a rejected PAT shows a sign-in node and does not retry by itself', async () => {
    const { api } = await stratus();
    assert.equal(await vscode.commands.executeCommand('stratus.signIn', { id: 'sandbox-pat-expired-id', secret: 'sandbox-pat-expired-secret-not-real' }), false);
    assert.equal(api.views.consoleState(), 'rejected');
    const root = await children();
    assert.equal(root.length, 1);
    assert.equal(root[0]?.severity, 'signIn');
    const item = (await tree()).getTreeItem(root[0] as never) as vscode.TreeItem;
    assert.equal(item.command?.command, 'stratus.signIn');
  });

  it('signs in with the sandbox PAT and lists virtual machines with their useful fields', async () => {
    const { api } = await stratus();
    const signedIn = await vscode.commands.executeCommand('stratus.signIn', { id: sandbox().patId, secret: sandbox().patSecret });
    assert.equal(api.views.consoleState(), 'signedIn', `state ${api.views.consoleState()}; log:\n${logTail(api.logDirectory)}`);
    assert.equal(signedIn, true);
    const kinds = (await children()).map((n) => n.kind?.id);
    assert.deepEqual(kinds, ['virtualMachines', 'users', 'roles', 'virtualNetworks']);
    const vms = (await children(await vmKind())).filter((n) => n.type === 'resource');
    assert.ok(vms.length > 0);
    const item = (await tree()).getTreeItem(vms[0] as never) as vscode.TreeItem;
    assert.match(String(item.description), /vCPU/);
    assert.match(String(item.contextValue), /^stratus\.resource;kind=virtualMachines;/);
    assert.ok(item.iconPath instanceof vscode.ThemeIcon);
  });

  it('filters a collection by name on the server', async () => {
    const vms = (await children(await vmKind())).filter((n) => n.type === 'resource');
    const name = vms[0]?.item?.name ?? '';
    await vscode.commands.executeCommand('stratus.resources.filter', 'virtualMachines', name);
    const filtered = (await children(await vmKind())).filter((n) => n.type === 'resource');
    assert.ok(filtered.length >= 1 && filtered.every((n) => n.item?.name.toLowerCase().includes(name.toLowerCase())));
    await vscode.commands.executeCommand('stratus.resources.filter', 'virtualMachines', '');
  });

  it('creates a VM, follows its activity to completion and puts the new VM first in the tree', async () => {
    const outcome = await vscode.commands.executeCommand<Outcome>('stratus.resources.create', 'virtualMachines', { input: { name: 'host-test-vm', cpu: 2, memoryGiB: 4 } });
    assert.equal(outcome.status, 'completed', outcome.message);
    assert.ok(outcome.resultId);
    const first = (await children(await vmKind())).find((n) => n.type === 'resource');
    assert.equal(first?.item?.id, outcome.resultId);
    assert.equal(first?.item?.name, 'host-test-vm');
    const activities = ((await (await stratus()).api.views.activities.getChildren(undefined)) ?? []) as { id?: string }[];
    assert.ok(activities.some((a) => a.id === outcome.activityId), 'the activity is listed in the Activities view');
  });

  it('a failing activity reports its reason', async () => {
    await control('/activities/fail', { next: 1, reason: 'quota exceeded in the sandbox' });
    const outcome = await vscode.commands.executeCommand<Outcome>('stratus.resources.create', 'virtualMachines', { input: { name: 'doomed-vm', cpu: 1, memoryGiB: 1 } });
    assert.equal(outcome.status, 'failed');
    assert.equal(outcome.message, 'quota exceeded in the sandbox');
  });

  it('a token refresh after expiry (401, then a new exchange) does not reload the tree', async () => {
    const { api } = await stratus();
    const vmsBefore = (await children(await vmKind())).filter((n) => n.type === 'resource');
    let reloads = 0;
    const subscription = (await tree()).onDidChangeTreeData?.((node) => {
      if (node === undefined) reloads++;
    });
    await control('/expire-tokens', {});
    const users = (await children()).find((n) => n.kind?.id === 'users');
    assert.ok(users);
    const listed = (await children(users)).filter((n) => n.type === 'resource');
    subscription?.dispose();
    assert.ok(listed.length > 0, 'the request after expiry succeeded with a fresh token');
    assert.equal(api.views.consoleState(), 'signedIn');
    assert.equal(reloads, 0, 'no whole-tree reload');
    const vmsAfter = (await children(await vmKind())).filter((n) => n.type === 'resource');
    assert.equal(vmsAfter.length, vmsBefore.length, 'the loaded VMs were kept, not fetched again');
  });

  it('warns once per endpoint when the console marks it deprecated', async () => {
    const { api } = await stratus();
    await control('/deprecate', { pathPrefix: '/api/iam/v2/roles', sunset: 'Wed, 30 Jun 2027 00:00:00 GMT' });
    for (let i = 0; i < 3; i++) await vscode.commands.executeCommand('stratus.resources.refresh', 'roles');
    let text = '';
    for (let i = 0; i < 50 && !text.includes('is deprecated'); i++) {
      text = logTail(api.logDirectory, 400);
      await new Promise((r) => setTimeout(r, 100));
    }
    const warnings = text.split('\n').filter((line) => line.includes('/api/iam/v2/roles is deprecated'));
    assert.equal(warnings.length, 1, text);
    assert.match(warnings[0] ?? '', /30 Jun 2027/);
  });

  it('lists the console endpoints in use, with module and version', async () => {
    const endpoints = await vscode.commands.executeCommand<{ module: string; version: number; path: string }[]>('stratus.showConsoleEndpoints');
    assert.ok(endpoints.some((e) => e.module === 'iam' && e.version === 2 && e.path.includes('/roles')));
    assert.ok(endpoints.some((e) => e.path.startsWith('/api/activity/v1/activities')));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
