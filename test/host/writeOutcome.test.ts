import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { stratus } from './extension';
import { control, requests, sandbox } from './sandbox';

interface Node { type: string; kind?: { id: string }; item?: { id: string; name: string } }
interface Outcome { status: string; message?: string; matchingActivity?: { id: string; concernedItems: { id: string }[] } }

const VMS = '/api/compute/v1/virtual-machines';

async function signedIn(): Promise<void> {
  const ok = await vscode.commands.executeCommand('stratus.signIn', { id: sandbox().patId, secret: sandbox().patSecret });
  assert.equal(ok, true);
}

async function firstVm(): Promise<{ id: string; name: string }> {
  const tree = (await stratus()).api.views.resources;
  const kind = (((await tree.getChildren(undefined)) ?? []) as Node[]).find((n) => n.type === 'kind' && n.kind?.id === 'virtualMachines');
  assert.ok(kind);
  const vm = (((await tree.getChildren(kind)) ?? []) as Node[]).find((n) => n.type === 'resource')?.item;
  assert.ok(vm);
  return vm;
}

// Issue 24, item 4: a write whose outcome is unknown is never re-sent without asking.
describe('Cloud writes whose outcome is unknown', function () {
  this.timeout(60_000);
  beforeEach(() => control('/reset', {}));
  after(async () => {
    await control('/reset', {});
    await vscode.commands.executeCommand('stratus.signOutOfConsole');
  });

  it('a 503 after a create is reported as an unknown outcome, sent once, not retried', async () => {
    await signedIn();
    await control('/burst', { status: 503, count: 3, pathPrefix: '/api/compute' });
    const before = (await requests(VMS)).filter((r) => r.method === 'POST').length;
    const outcome = await vscode.commands.executeCommand<Outcome>('stratus.resources.create', 'virtualMachines', { input: { name: 'maybe-vm', cpu: 1, memoryGiB: 1 } });
    assert.equal(outcome.status, 'outcomeUnknown', outcome.message);
    assert.match(outcome.message ?? '', /HTTP 503/);
    assert.equal((await requests(VMS)).filter((r) => r.method === 'POST').length, before + 1, 'sent once');
  });

  it('a delete reset after the server applied it finds its activity, and is not sent again', async () => {
    await signedIn();
    const victim = await firstVm();
    const before = (await requests(VMS)).filter((r) => r.method === 'DELETE').length;
    await control('/reset-after-apply', { method: 'DELETE', pathPrefix: '/api/compute', count: 3 });
    const outcome = await vscode.commands.executeCommand<Outcome>('stratus.resources.delete', 'virtualMachines', victim.id, { confirmed: true });
    assert.equal(outcome.status, 'outcomeUnknown', outcome.message);
    assert.ok(outcome.matchingActivity, 'the matching recent activity');
    assert.ok(outcome.matchingActivity.concernedItems.some((i) => i.id === victim.id));
    assert.equal((await requests(VMS)).filter((r) => r.method === 'DELETE').length, before + 1, 'sent once');
  });
});
