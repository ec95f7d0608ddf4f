import * as assert from 'node:assert/strict';
import { openStratusView, runCommand, screenshot, sendChat, useWorkbench } from './workbench';

describe('UI: Stratus in the workbench', function () {
  this.timeout(180_000);
  const workbench = useWorkbench();

  it('shows the Stratus view with sign-in actions', async () => {
    const { page } = workbench();
    await openStratusView(page);
    const signIn = page.getByRole('button', { name: 'Sign In to Console' });
    await signIn.waitFor({ timeout: 20_000 });
    await screenshot(page, 'stratus-view');
  });

  it('answers "@stratus hello" in the Chat view with the not-configured message and its action', async () => {
    const { page } = workbench();
    const response = await sendChat(page, '@stratus hello');
    const button = response.getByRole('button', { name: 'Set Inference API Key' });
    await button.waitFor({ timeout: 30_000 });
    const text = await response.innerText();
    assert.match(text, /not configured: set your API key/i);
    await screenshot(page, 'chat-not-configured');
  });

  it('sets the API key through the command palette like a user', async () => {
    const { page, sandbox } = workbench();
    await runCommand(page, 'Stratus: Set Inference API Key');
    const input = page.locator('.quick-input-widget input[type="password"]').first();
    await input.waitFor({ timeout: 10_000 });
    await input.fill(sandbox.apiKey);
    await page.keyboard.press('Enter');
    // The status bar leaves its "set up" state once the key is stored and the models are listed.
    await page.locator('.statusbar-item', { hasText: 'Stratus: set up' }).waitFor({ state: 'detached', timeout: 20_000 });
  });

  it('streams a multi-paragraph answer with a code block into the Chat view', async () => {
    const { page } = workbench();
    const response = await sendChat(page, '@stratus markdown demo');
    const code = response.locator('.interactive-result-code-block, .monaco-editor, pre').first();
    await code.waitFor({ timeout: 30_000 });
    // The scripted model's markdown demo has several paragraphs and a fenced block.
    await page.waitForFunction((el) => (el?.textContent ?? '').length > 200, await response.elementHandle(), { timeout: 20_000 });
    const text = await response.innerText();
    assert.ok(text.split('\n').filter((line) => line.trim()).length >= 3, `expected several paragraphs, got: ${text}`);
    assert.doesNotMatch(text, /not configured/i);
    await screenshot(page, 'chat-markdown-answer');
  });

  it('shows the Stratus models in the model picker', async () => {
    const { page } = workbench();
    const picker = page.locator('.interactive-input-part .chat-modelPicker-item, .interactive-input-part [aria-label*="Pick Model"], .interactive-input-part .action-label[aria-label*="Model"]').first();
    await picker.waitFor({ timeout: 20_000 });
    await picker.click();
    const entry = page.locator('.monaco-list-row, .action-widget .monaco-list-row, .quick-input-list .monaco-list-row', { hasText: 'gpt-oss:120b' }).first();
    await entry.waitFor({ timeout: 20_000 });
    // The picker folds the rest under "Other Models": unfold it to show every Stratus chat model.
    const others = page.locator('.monaco-list-row, .action-widget .monaco-list-row', { hasText: 'Other Models' }).first();
    if (await others.isVisible().catch(() => false)) await others.click();
    await page.locator('.monaco-list-row, .action-widget .monaco-list-row', { hasText: 'qwen3-vl:8b' }).first().waitFor({ timeout: 10_000 });
    await screenshot(page, 'model-picker');
    await page.keyboard.press('Escape');
  });
});
