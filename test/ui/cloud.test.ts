import * as assert from 'node:assert/strict';
import { openStratusView, runCommand, screenshot, useWorkbench } from './workbench';

describe('UI: Cloud explorer and activities', function () {
  this.timeout(180_000);
  const workbench = useWorkbench({ sandboxArgs: ['--activity-step-ms', '1500'] });

  it('signs in from the view with a PAT ID and secret, and lists virtual machines', async () => {
    const { page, sandbox } = workbench();
    await openStratusView(page);
    await page.getByRole('button', { name: 'Sign In to Console' }).click();
    const input = page.locator('.quick-input-widget input').first();
    await input.waitFor({ timeout: 10_000 });
    await input.fill(sandbox.patId);
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget input[type="password"]').first().waitFor({ timeout: 10_000 });
    await page.locator('.quick-input-widget input[type="password"]').first().fill(sandbox.patSecret);
    await page.keyboard.press('Enter');
    const vms = page.locator('.monaco-list-row', { hasText: 'Virtual machines' }).first();
    await vms.waitFor({ timeout: 20_000 });
    await page.locator('.pane-header', { hasText: 'tenant' }).first().waitFor({ timeout: 10_000 });
    await vms.click();
    await page.locator('.monaco-list-row', { hasText: 'vCPU' }).first().waitFor({ timeout: 20_000 });
    const rows = await page.locator('.monaco-list-row', { hasText: 'vCPU' }).count();
    assert.ok(rows > 3, `expected several VMs, saw ${rows}`);
    await screenshot(page, 'cloud-tree-vms');
  });

  it('creates a VM through the command palette and shows the activity progress notification mid-way', async () => {
    const { page } = workbench();
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

  it('lists the activity with its state in the Activities view', async () => {
    const { page } = workbench();
    const header = page.locator('.pane-header', { hasText: 'Activities' }).first();
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    const row = page.locator('.monaco-list-row', { hasText: 'completed' }).first();
    await row.waitFor({ timeout: 20_000 });
    await screenshot(page, 'activities-view');
  });
});
