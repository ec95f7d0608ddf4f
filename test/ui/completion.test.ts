import * as assert from 'node:assert/strict';
import { runCommand, screenshot, useWorkbench } from './workbench';

interface Recorded { seq: number; chunksSent: number; clientClosedEarly: boolean }

describe('UI: Complete Selection', function () {
  this.timeout(180_000);
  const workbench = useWorkbench({ env: { STRATUS_API_KEY: 'from-sandbox' }, settings: { 'stratus.chat.model': 'gpt-oss:120b' } });
  const control = async (path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${workbench().sandbox.console}/__sandbox${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return res.json();
  };
  const completions = async (): Promise<Recorded[]> => ((await control('/requests?pathPrefix=/v1/completions')) as { requests: Recorded[] }).requests;

  it('streams into the editor, and Cancel in the progress notification stops the request', async () => {
    const { page } = workbench();
    await control('/latency', { ms: 0, chunkDelayMs: 60, pathPrefix: '/v1/completions' });
    await page.keyboard.press('ControlOrMeta+P');
    await page.keyboard.type('README.md');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'README.md' }).first().waitFor({ timeout: 15_000 });
    await page.keyboard.press('Enter');
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.waitFor({ timeout: 15_000 });
    await editor.click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type('\nlong 400');
    await page.keyboard.press('Shift+Home');
    await runCommand(page, 'Stratus: Complete Selection');
    await page.locator('.editor-instance .view-lines', { hasText: 'long 4001 2 3' }).first().waitFor({ timeout: 20_000 });
    // Headless Chromium never shows toasts (the window has no OS focus); the progress notification
    // with its Cancel button is in the notification center, where a person can open it too.
    await runCommand(page, 'Notifications: Show Notifications');
    const item = page.locator('.notifications-center .notification-list-item', { hasText: 'completing' }).first();
    await item.waitFor({ timeout: 20_000 });
    await screenshot(page, 'complete-selection-streaming');
    await item.hover();
    await item.getByRole('button', { name: 'Cancel' }).click();
    let closed: Recorded | undefined;
    for (let i = 0; i < 100 && !closed; i++) {
      closed = (await completions()).find((r) => r.clientClosedEarly);
      if (!closed) await page.waitForTimeout(100);
    }
    assert.ok(closed, 'the sandbox saw the completion request closed early');
    assert.ok(closed.chunksSent < 400, `stopped after ${closed.chunksSent} of 400 chunks`);
    // What arrived before the cancel is kept in the editor (the editor renders spaces as nbsp).
    const text = (await page.locator('.editor-instance .view-lines').first().innerText()).replace(/[\u00a0\u00b7]/g, ' ');
    assert.match(text, /long 4001 2 3 4 5/);
  });
});
