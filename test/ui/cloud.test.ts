import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { openStratusView, runCommand, screenshot, useWorkbench, type Workbench } from './workbench';

/** Signs in from the view's welcome button unless the Cloud view already lists resource kinds. */
async function ensureSignedIn(page: Page, sandbox: Workbench['sandbox']): Promise<void> {
  // Clicking the activity-bar entry of a view that is already open would close it.
  const cloud = page.locator('.pane-header', { hasText: 'Cloud' }).first();
  if (!(await cloud.isVisible().catch(() => false))) await openStratusView(page);
  const vms = page.locator('.monaco-list-row', { hasText: 'Virtual machines' }).first();
  if (await vms.isVisible().catch(() => false)) return;
  await page.getByRole('button', { name: 'Sign In to Console' }).click();
  const input = page.locator('.quick-input-widget input').first();
  await input.waitFor({ timeout: 10_000 });
  await input.fill(sandbox.patId);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget input[type="password"]').first().waitFor({ timeout: 10_000 });
  await page.locator('.quick-input-widget input[type="password"]').first().fill(sandbox.patSecret);
  await page.keyboard.press('Enter');
  await vms.waitFor({ timeout: 20_000 });
}

/** Expands "Virtual machines" (if collapsed) and waits for its VMs. */
async function showVms(page: Page): Promise<void> {
  const vms = page.locator('.monaco-list-row', { hasText: 'Virtual machines' }).first();
  if ((await vms.getAttribute('aria-expanded')) !== 'true') await vms.click();
  await page.locator('.monaco-list-row', { hasText: 'vCPU' }).first().waitFor({ timeout: 20_000 });
}

async function consoleRequests(sandbox: Workbench['sandbox'], pathPrefix: string): Promise<Array<{ method: string; path: string }>> {
  const res = await fetch(`${sandbox.console}/__sandbox/requests?pathPrefix=${encodeURIComponent(pathPrefix)}`);
  return ((await res.json()) as { requests: Array<{ method: string; path: string }> }).requests;
}

describe('UI: Cloud explorer and activities', function () {
  this.timeout(180_000);
  const workbench = useWorkbench({ sandboxArgs: ['--activity-step-ms', '1500'] });

  it('signs in from the view with a PAT ID and secret, and lists virtual machines', async () => {
    const { page, sandbox } = workbench();
    await ensureSignedIn(page, sandbox);
    await page.locator('.pane-header', { hasText: 'tenant' }).first().waitFor({ timeout: 10_000 });
    await showVms(page);
    const rows = await page.locator('.monaco-list-row', { hasText: 'vCPU' }).count();
    assert.ok(rows > 3, `expected several VMs, saw ${rows}`);
    await screenshot(page, 'cloud-tree-vms');
  });

  it('Delete… from the context menu always asks first (the installed extension is not in test mode); Cancel sends nothing', async () => {
    const { page, sandbox } = workbench();
    await ensureSignedIn(page, sandbox);
    await showVms(page);
    const row = page.locator('.monaco-list-row', { hasText: 'vCPU' }).first();
    await row.click({ button: 'right' });
    const item = page.locator('.context-view .action-item', { hasText: 'Delete…' }).first();
    await item.waitFor({ timeout: 10_000 });
    // VS Code's menus act on the keyboard as people use them: move to the entry, then Enter.
    await item.hover();
    await page.keyboard.press('Enter');
    const dialog = page.locator('.monaco-dialog-box').first();
    try {
      await dialog.waitFor({ timeout: 10_000 });
      assert.match(await dialog.innerText(), /Delete virtual machine '.+'\? This cannot be undone\./);
      await screenshot(page, 'delete-confirmation');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached', timeout: 10_000 });
    } finally {
      // Never leave a menu or a modal over the workbench for the next test.
      await page.keyboard.press('Escape');
    }
    const deletes = (await consoleRequests(sandbox, '/api/compute')).filter((r) => r.method === 'DELETE');
    assert.equal(deletes.length, 0, 'nothing was deleted');
  });

  it('creates a VM through the command palette and shows the activity progress notification mid-way', async () => {
    const { page, sandbox } = workbench();
    await ensureSignedIn(page, sandbox);
    await runCommand(page, 'Stratus: Create Resource…');
    const kindPick = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Virtual machines' }).first();
    await kindPick.waitFor({ timeout: 10_000 });
    await kindPick.click();
    // Name, then accept the defaults of the other fields (vCPU, memory, OS, power on).
    const input = page.locator('.quick-input-widget input').first();
    await page.locator('.quick-input-widget', { hasText: '(1/' }).waitFor({ timeout: 10_000 });
    await input.fill('ui-demo-vm');
    await page.keyboard.press('Enter');
    for (const step of ['(2/', '(3/', '(4/']) {
      await page.locator('.quick-input-widget', { hasText: step }).waitFor({ timeout: 10_000 });
      await page.keyboard.press('Enter');
    }
    await page.locator('.quick-input-widget', { hasText: '(5/' }).waitFor({ timeout: 10_000 });
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'No' }).first().click();
    const toast = page.locator('.notification-toast', { hasText: 'Create Virtual Machine' }).first();
    await toast.waitFor({ timeout: 20_000 });
    await page.locator('.notification-toast', { hasText: 'running' }).first().waitFor({ timeout: 20_000 });
    await screenshot(page, 'activity-progress');
    await page.locator('.monaco-list-row.selected', { hasText: 'ui-demo-vm' }).first().waitFor({ timeout: 30_000 });
  });

  it('lists activities with their state in the Activities view', async () => {
    const { page, sandbox } = workbench();
    await ensureSignedIn(page, sandbox);
    // An activity of its own, so this test does not depend on the one before.
    await runCommand(page, 'Stratus: Create Resource…');
    const kindPick = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Virtual networks' }).first();
    await kindPick.waitFor({ timeout: 10_000 });
    await kindPick.click();
    await page.locator('.quick-input-widget', { hasText: '(1/' }).waitFor({ timeout: 10_000 });
    await page.locator('.quick-input-widget input').first().fill('ui-demo-net');
    await page.keyboard.press('Enter');
    for (let step = 2; step <= 6; step++) {
      const next = page.locator('.quick-input-widget', { hasText: `(${step}/` });
      if (!(await next.isVisible({ timeout: 2_000 }).catch(() => false))) break;
      await page.keyboard.press('Enter');
    }
    const header = page.locator('.pane-header', { hasText: 'Activities' }).first();
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    const row = page.locator('.monaco-list-row', { hasText: 'completed' }).first();
    await row.waitFor({ timeout: 30_000 });
    await screenshot(page, 'activities-view');
  });
});
