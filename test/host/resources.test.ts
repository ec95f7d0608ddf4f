import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { startSandbox, type Sandbox } from '../sandbox/index';
import { stratus } from './extension';
import { control, eventually, requests, sandbox, type RecordedRequest } from './sandbox';

interface Node { type: string; kind?: { id: string }; item?: { id: string; name: string; raw: Record<string, unknown> }; text?: string; severity?: string; nextOffset?: number; label?: string }
interface Outcome { status: string; activityId?: string; resultId?: string; message?: string }

const VMS = '/api/compute/v1/virtual-machines';

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

async function kindNode(id: string): Promise<Node> {
  const kind = (await children()).find((n) => n.type === 'kind' && n.kind?.id === id);
  assert.ok(kind, `the ${id} node`);
  return kind;
}

const vmKind = (): Promise<Node> => kindNode('virtualMachines');

async function resources(node: Node): Promise<Node[]> {
  return (await children(node)).filter((n) => n.type === 'resource');
}

async function clearRequests(): Promise<void> {
  const res = await fetch(`${sandbox().console}/__sandbox/requests`, { method: 'DELETE' });
  assert.ok(res.ok);
}

function queryOf(request: RecordedRequest): URLSearchParams {
  return new URLSearchParams((request as RecordedRequest & { query?: string }).query ?? '');
}

/** Signed in to the harness's sandbox with its demo PAT, whatever the previous test left. */
async function signedIn(): Promise<void> {
  const { api } = await stratus();
  const ok = await vscode.commands.executeCommand('stratus.signIn', { id: sandbox().patId, secret: sandbox().patSecret });
  assert.equal(ok, true, `sign-in failed: ${api.views.consoleState()}; log:\n${logTail(api.logDirectory)}`);
  // A fresh sign-in rebuilds the tree: nothing left over from another test.
  assert.equal(api.views.consoleState(), 'signedIn');
}

describe('Cloud explorer (against the sandbox)', function () {
  this.timeout(60_000);

  beforeEach(async () => {
    await control('/reset', {});
  });

  after(async () => {
    await control('/reset', {});
    await vscode.commands.executeCommand('stratus.signOutOfConsole');
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
    await signedIn();
    const kinds = (await children()).map((n) => n.kind?.id);
    assert.deepEqual(kinds, ['virtualMachines', 'users', 'roles', 'virtualNetworks']);
    const vms = await resources(await vmKind());
    assert.ok(vms.length > 0);
    const item = (await tree()).getTreeItem(vms[0] as never) as vscode.TreeItem;
    assert.match(String(item.description), /vCPU/);
    assert.match(String(item.contextValue), /^stratus\.resource;kind=virtualMachines;/);
    assert.ok(item.iconPath instanceof vscode.ThemeIcon);
  });

  it('filters a collection by name on the server', async () => {
    await signedIn();
    const vms = await resources(await vmKind());
    const name = vms[0]?.item?.name ?? '';
    try {
      await vscode.commands.executeCommand('stratus.resources.filter', 'virtualMachines', name);
      const filtered = await resources(await vmKind());
      assert.ok(filtered.length >= 1 && filtered.every((n) => n.item?.name.toLowerCase().includes(name.toLowerCase())));
    } finally {
      await vscode.commands.executeCommand('stratus.resources.filter', 'virtualMachines', '');
    }
  });

  it('creates a VM, follows its activity to completion and puts the new VM first in the tree', async () => {
    await signedIn();
    await resources(await vmKind());
    const outcome = await vscode.commands.executeCommand<Outcome>('stratus.resources.create', 'virtualMachines', { input: { name: 'host-test-vm', cpu: 2, memoryGiB: 4 } });
    assert.equal(outcome.status, 'completed', outcome.message);
    assert.ok(outcome.resultId);
    const first = (await children(await vmKind())).find((n) => n.type === 'resource');
    assert.equal(first?.item?.id, outcome.resultId);
    assert.equal(first?.item?.name, 'host-test-vm');
    const activities = ((await (await stratus()).api.views.activities.getChildren(undefined)) ?? []) as { id?: string }[];
    assert.ok(activities.some((a) => a.id === outcome.activityId), 'the activity is listed in the Activities view');
    // Open Details from the context menu gets the tree node, from a click the id: both open it.
    const node = activities.find((a) => a.id === outcome.activityId);
    for (const target of [node, outcome.activityId]) {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.commands.executeCommand('stratus.activities.openDetails', target);
      const shown = vscode.window.activeTextEditor?.document;
      assert.ok(shown?.uri.path.endsWith(`/activities/${encodeURIComponent(outcome.activityId ?? '')}.json`), `details opened for ${typeof target}: ${shown?.uri.toString()}`);
      assert.match(shown?.getText() ?? '', new RegExp(outcome.activityId ?? 'no id'));
    }
  });

  it('a confirmed delete (test-mode argument) deletes the VM and removes it from the tree', async () => {
    await signedIn();
    const victim = (await resources(await vmKind()))[0]?.item;
    assert.ok(victim);
    const outcome = await vscode.commands.executeCommand<Outcome>('stratus.resources.delete', 'virtualMachines', victim.id, { confirmed: true });
    assert.equal(outcome.status, 'completed', outcome.message);
    assert.ok(!(await resources(await vmKind())).some((n) => n.item?.id === victim.id));
    const deletes = (await requests(VMS)).filter((r) => r.method === 'DELETE');
    assert.equal(deletes.length, 1, 'sent once');
  });

  it('a failing activity reports its reason', async () => {
    await signedIn();
    await control('/activities/fail', { next: 1, reason: 'quota exceeded in the sandbox' });
    const outcome = await vscode.commands.executeCommand<Outcome>('stratus.resources.create', 'virtualMachines', { input: { name: 'doomed-vm', cpu: 1, memoryGiB: 1 } });
    assert.equal(outcome.status, 'failed');
    assert.equal(outcome.message, 'quota exceeded in the sandbox');
  });

  it('a follow past its deadline says "still running on the server" and Show in Activities reveals it there', async () => {
    await signedIn();
    await control('/activities/slow', { factor: 100 });
    const outcome = await vscode.commands.executeCommand<Outcome>('stratus.resources.create', 'virtualNetworks', { input: { name: 'slow-net' }, followTimeoutMs: 1_000 });
    assert.equal(outcome.status, 'stillRunning', outcome.message);
    assert.equal(outcome.message, 'still running on the server');
    assert.ok(outcome.activityId);
    const reads = (await requests('/api/activity')).length;
    assert.equal(await vscode.commands.executeCommand('stratus.activities.show', outcome.activityId), true, 'revealed in the Activities view');
    assert.ok((await requests('/api/activity')).length > reads, 'and read again from the server');
    const listed = ((await (await stratus()).api.views.activities.getChildren(undefined)) ?? []) as { id?: string }[];
    assert.ok(listed.some((a) => a.id === outcome.activityId));
  });

  it('a token refresh after expiry (401, then a new exchange) does not reload the tree', async () => {
    await signedIn();
    const { api } = await stratus();
    const vmsBefore = await resources(await vmKind());
    let reloads = 0;
    const subscription = (await tree()).onDidChangeTreeData?.((node) => {
      if (node === undefined) reloads++;
    });
    await clearRequests();
    await control('/expire-tokens', {});
    const listed = await resources(await kindNode('users'));
    subscription?.dispose();
    assert.ok(listed.length > 0, 'the request after expiry succeeded with a fresh token');
    assert.equal(api.views.consoleState(), 'signedIn');
    assert.equal(reloads, 0, 'no whole-tree reload');
    const vmsAfter = await resources(await vmKind());
    assert.equal(vmsAfter.length, vmsBefore.length, 'the loaded VMs were kept');
    assert.equal((await requests(VMS)).length, 0, 'and not fetched again');
  });

  it('refresh during a slow load aborts the first request (the sandbox sees the client leave); repeated expands send one request per page', async () => {
    await signedIn();
    const vms = await vmKind();
    await clearRequests();
    await control('/latency', { ms: 1_500, pathPrefix: VMS });
    try {
      // Two expands of the same node (VS Code asks again on a re-render): one request between them.
      const first = children(vms);
      const again = children(vms);
      await eventually(async () => ((await requests(VMS)).length >= 1 ? true : undefined), 'the first page request');
      // The person presses Refresh on the collection while it loads.
      const refreshed = vscode.commands.executeCommand('stratus.resources.refresh', 'virtualMachines');
      await Promise.all([first, again, refreshed]);
      const after = await resources(await vmKind());
      assert.equal(after.length, 25);
      assert.equal(new Set(after.map((n) => n.item?.id)).size, 25, 'no VM twice');
      const seen = await requests(VMS);
      assert.equal(seen.length, 2, `one request per load, the aborted one and the refresh: ${seen.map((r) => queryOf(r).toString()).join(' | ')}`);
      await eventually(async () => ((await requests(VMS))[0]?.clientClosedEarly ? true : undefined), 'the sandbox to see the first request aborted');
      assert.equal((await requests(VMS))[1]?.status, 200);
    } finally {
      await control('/latency', { ms: 0 });
    }
  });

  it('Activities: an expand during a slow read joins it; Refresh aborts it (the sandbox sees the client leave)', async () => {
    await signedIn();
    const { api } = await stratus();
    const LIST = '/api/activity/v1/activities';
    const lists = async (): Promise<RecordedRequest[]> => (await requests(LIST)).filter((r) => r.path === LIST);
    // Settled first: the view (if VS Code shows it) read the list after the sign-in.
    await api.views.activities.getChildren(undefined);
    await clearRequests();
    await control('/latency', { ms: 1_500, pathPrefix: LIST });
    try {
      const slow = vscode.commands.executeCommand('stratus.activities.refresh');
      await eventually(async () => ((await lists()).length >= 1 ? true : undefined), 'the list request');
      // Expands while it loads (the person, or VS Code re-rendering the view) join the read in flight.
      const expands = [api.views.activities.getChildren(undefined), api.views.activities.getChildren(undefined)];
      const refreshed = vscode.commands.executeCommand('stratus.activities.refresh');
      await Promise.all([slow, ...expands, refreshed]);
      assert.equal((await lists()).length, 2, `the aborted read and the refresh, nothing else: ${JSON.stringify(await lists())}`);
      await eventually(async () => ((await lists())[0]?.clientClosedEarly ? true : undefined), 'the sandbox to see the first read aborted');
      assert.equal((await lists())[1]?.status, 200);
    } finally {
      await control('/latency', { ms: 0 });
    }
  });

  it('"Load more…" clicked twice while loading sends the page request once', async () => {
    await signedIn();
    await control('/seed', { vms: 150 });
    await vscode.commands.executeCommand('stratus.resources.refresh', 'virtualMachines');
    const page = await children(await vmKind());
    assert.equal(page.filter((n) => n.type === 'resource').length, 100);
    assert.ok(page.some((n) => n.type === 'more'));
    await clearRequests();
    // Slow, so the second click certainly lands while the first page is on its way.
    await control('/latency', { ms: 800, pathPrefix: VMS });
    try {
      const firstClick = vscode.commands.executeCommand('stratus.resources.loadMore', 'virtualMachines');
      await eventually(async () => ((await requests(VMS)).length >= 1 ? true : undefined), 'the page request');
      await Promise.all([firstClick, vscode.commands.executeCommand('stratus.resources.loadMore', 'virtualMachines')]);
    } finally {
      await control('/latency', { ms: 0 });
    }
    assert.deepEqual((await requests(VMS)).map((r) => queryOf(r).get('offset')), ['100']);
    const all = await children(await vmKind());
    assert.equal(all.filter((n) => n.type === 'resource').length, 150);
    assert.ok(!all.some((n) => n.type === 'more'));
  });

  it('warns once per endpoint when the console marks it deprecated', async () => {
    await signedIn();
    const { api } = await stratus();
    await control('/deprecate', { pathPrefix: '/api/iam/v2/roles', sunset: 'Wed, 30 Jun 2027 00:00:00 GMT' });
    for (let i = 0; i < 3; i++) await vscode.commands.executeCommand('stratus.resources.refresh', 'roles');
    const text = await eventually(async () => {
      const current = logTail(api.logDirectory, 400);
      return current.includes('is deprecated') ? current : undefined;
    }, 'the deprecation warning in the log');
    const warnings = text.split('\n').filter((line) => line.includes('/api/iam/v2/roles is deprecated'));
    assert.equal(warnings.length, 1, text);
    assert.match(warnings[0] ?? '', /30 Jun 2027/);
  });

  it('lists the console endpoints in use, with module and version', async () => {
    await signedIn();
    const endpoints = await vscode.commands.executeCommand<{ module: string; version: number; path: string }[]>('stratus.showConsoleEndpoints');
    assert.ok(endpoints.some((e) => e.module === 'iam' && e.version === 2 && e.path.includes('/roles')));
    assert.ok(endpoints.some((e) => e.path.startsWith('/api/activity/v1/activities')));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});

describe('Cloud explorer against a production-shaped console (bare 200 arrays, no total, name ignored)', function () {
  this.timeout(120_000);
  let production: Sandbox;
  let previousUrl: string | undefined;

  before(async () => {
    production = await startSandbox({ profile: 'production', productionLists: 'plain', vmCount: 1_000, activityStepMs: 100 });
    const config = vscode.workspace.getConfiguration('stratus');
    previousUrl = config.inspect<string>('console.baseUrl')?.globalValue;
    await config.update('console.baseUrl', production.consoleUrl, vscode.ConfigurationTarget.Global);
    const { api } = await stratus();
    assert.equal(await vscode.commands.executeCommand('stratus.signIn', { id: production.credentials.patId, secret: production.credentials.patSecret }), true, api.views.consoleState());
  });

  after(async () => {
    await vscode.commands.executeCommand('stratus.signOutOfConsole');
    await vscode.workspace.getConfiguration('stratus').update('console.baseUrl', previousUrl, vscode.ConfigurationTarget.Global);
    await production.close();
  });

  it('walks 1,000 VMs by "Load more…" to the end: a full page offers more, the empty page after the last one removes it', async () => {
    const node = await vmKind();
    let shown = await children(node);
    let clicks = 0;
    while (shown.some((n) => n.type === 'more')) {
      assert.equal(shown.filter((n) => n.type === 'resource').length, (clicks + 1) * 100);
      await vscode.commands.executeCommand('stratus.resources.loadMore', 'virtualMachines');
      shown = await children(node);
      assert.ok(++clicks <= 10, 'the walk ends');
    }
    assert.equal(clicks, 10, 'nine full pages after the first, then the empty page');
    const all = shown.filter((n) => n.type === 'resource');
    assert.equal(all.length, 1_000);
    assert.equal(new Set(all.map((n) => n.item?.id)).size, 1_000);
    const pages = production.control.requests({ pathPrefix: VMS }).filter((r) => r.method === 'GET');
    assert.ok(pages.every((r) => r.status === 200), 'production answered 200 each time');
  });

  it('a filter for the LAST VM reads on through the pages the server did not filter, and finds it', async () => {
    const client = production.control;
    client.clearRequests();
    const lastName = await lastVmName();
    client.clearRequests();
    await vscode.commands.executeCommand('stratus.resources.filter', 'virtualMachines', lastName);
    try {
      const found = await resources(await vmKind());
      assert.deepEqual(found.map((n) => n.item?.name), [lastName]);
      const sent = client.requests({ pathPrefix: VMS });
      assert.equal(sent.length, 10, 'one request per page up to the match');
      assert.ok(sent.every((r) => new URLSearchParams(r.query).get('name') === lastName));
    } finally {
      await vscode.commands.executeCommand('stratus.resources.filter', 'virtualMachines', '');
    }
  });

  async function lastVmName(): Promise<string> {
    const token = await (await fetch(`${production.consoleUrl}/api/iam/v2/auth/personal_access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: production.credentials.patId, secret: production.credentials.patSecret }),
    })).text();
    const res = await fetch(`${production.consoleUrl}${VMS}?limit=1&offset=999`, { headers: { authorization: `Bearer ${token.trim()}` } });
    const [vm] = (await res.json()) as Array<{ name: string }>;
    assert.ok(vm);
    return vm.name;
  }
});
