import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { openStratusView, runCommand, screenshot, useWorkbench, type Workbench } from './workbench';

/** One step of the sandbox's batches (its default batchStepMs): four steps from validating to completed. */
const STEP_MS = 60_000;

const FILES: Record<string, string> = {
  'alpha.md': '# Alpha\n\nThe gateway restarts nightly.\n',
  'beta.md': '# Beta\n\nBackups run every hour.\n',
  'gamma.md': '# Gamma\n\nLogs are kept for thirty days.\n',
};

/** Waits until `probe` holds, polling (no fixed sleep stands for the condition). */
async function until(page: Page, probe: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !probe(); ) {
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs / 1000} s`);
    await page.waitForTimeout(200);
  }
}

/** The Activities view open and expanded in the Stratus side bar. */
async function showActivities(page: Page): Promise<void> {
  const header = page.locator('.pane-header', { hasText: 'Activities' }).first();
  if (!(await header.isVisible().catch(() => false))) await openStratusView(page);
  await header.waitFor({ timeout: 20_000 });
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
}

async function advanceSandboxClock(sandbox: Workbench['sandbox'], advanceMs: number): Promise<void> {
  const res = await fetch(`${sandbox.console}/__sandbox/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advanceMs }) });
  assert.ok(res.ok, `the sandbox clock moved: ${res.status}`);
}

describe('UI: bulk work at half price (batch)', function () {
  this.timeout(180_000);
  // The inference key's workbench (documents, search, transcription): no workbench of its own.
  const workbench = useWorkbench({ env: { STRATUS_API_KEY: 'from-sandbox' } });

  it('runs a prompt over files as a batch, follows it in the Activities view, and applies one reviewed file of its multi-file diff', async () => {
    const { page, sandbox } = workbench();
    const folder = new URL(page.url()).searchParams.get('folder');
    assert.ok(folder, 'the workbench URL names its folder');
    mkdirSync(join(folder, 'notes'), { recursive: true });
    for (const [name, text] of Object.entries(FILES)) writeFileSync(join(folder, 'notes', name), text);

    // Stratus: Run Prompt over Files…: the instruction, the files, then the price.
    await runCommand(page, 'Stratus: Run Prompt over Files…');
    const input = page.locator('.quick-input-widget input').first();
    await page.locator('.quick-input-widget', { hasText: 'the instruction' }).first().waitFor({ timeout: 20_000 });
    await input.fill('Add a summary line');
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget', { hasText: 'the files' }).first().waitFor({ timeout: 10_000 });
    await input.fill('notes/*.md');
    await page.keyboard.press('Enter');
    const batch = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Batch (half price' }).first();
    await batch.waitFor({ timeout: 30_000 });
    assert.match(await page.locator('.quick-input-list').first().innerText(), /Now \(standard price\)/, 'both prices are offered');
    await batch.click();
    await page.locator('.notification-toast', { hasText: 'Batch sent: 3 files' }).first().waitFor({ timeout: 30_000 });

    // The batch in the Activities view, waiting on the provider.
    await showActivities(page);
    const row = page.locator('.monaco-list-row', { hasText: 'Batch: Add a summary line' }).first();
    await row.waitFor({ timeout: 20_000 });
    assert.match(await row.innerText(), /validating · 0\/3/);
    // Its tooltip: the state, the requests, both prices, and the hourly cap it does not count against.
    await page.locator('.notification-toast', { hasText: 'sending the batch' }).first().waitFor({ state: 'hidden', timeout: 20_000 });
    await row.locator('.label-name, .monaco-icon-label').first().hover();
    const tooltip = page.locator('.monaco-hover, .workbench-hover', { hasText: 'Not counted against the hourly cap' }).first();
    await tooltip.waitFor({ timeout: 15_000 });
    assert.match(await tooltip.innerText(), /State: validating/);
    await screenshot(page, 'batch-activities');

    // The provider finishes it (the sandbox's clock); Refresh reads its state now.
    await advanceSandboxClock(sandbox, 4 * STEP_MS + 1000);
    const header = page.locator('.pane-header', { hasText: 'Activities' }).first();
    await header.hover();
    await header.locator('a.action-label[aria-label="Refresh Activities"]').click();
    const completed = page.locator('.monaco-list-row', { hasText: 'Batch: Add a summary line' }).filter({ hasText: 'completed · 3/3' }).first();
    await completed.waitFor({ timeout: 20_000 });

    // Its results: one multi-file diff, and the files to accept.
    await completed.click();
    const pick = page.locator('.quick-input-widget', { hasText: 'Review the batch results' }).first();
    await pick.waitFor({ timeout: 30_000 });
    await page.locator('.editor-group-container .tab', { hasText: 'Batch results' }).first().waitFor({ timeout: 20_000 });
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'notes/gamma.md' }).first().waitFor({ timeout: 10_000 });
    await screenshot(page, 'batch-review');

    // Accept alpha only: untick the other two, then OK.
    for (const name of ['beta.md', 'gamma.md']) {
      const other = page.locator('.quick-input-list .monaco-list-row', { hasText: `notes/${name}` }).first();
      await other.click();
      await page.locator('.quick-input-list .monaco-list-row[aria-checked="false"]', { hasText: `notes/${name}` }).first().waitFor({ timeout: 5_000 });
    }
    await page.locator('.quick-input-list .monaco-list-row[aria-checked="true"]', { hasText: 'notes/alpha.md' }).first().waitFor({ timeout: 5_000 });
    await page.keyboard.press('Enter');
    await pick.waitFor({ state: 'hidden', timeout: 10_000 });

    const read = (name: string): string => readFileSync(join(folder, 'notes', name), 'utf8');
    await until(page, () => read('alpha.md') !== FILES['alpha.md'], 'alpha.md was not changed on disk');
    assert.match(read('alpha.md'), /^Echo \(/, 'the batch result was written');
    assert.equal(read('beta.md'), FILES['beta.md'], 'a file not accepted is left as it was');
    assert.equal(read('gamma.md'), FILES['gamma.md'], 'a file not accepted is left as it was');
  });
});
