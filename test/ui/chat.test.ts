import * as assert from 'node:assert/strict';
import { openStratusView, runCommand, screenshot, sendChat, useWorkbench } from './workbench';

// Two workbenches, so no test depends on another having run: one for a user who has set nothing
// up yet, one with the API key already in place.

describe('UI: Stratus in the workbench, before set-up', function () {
  this.timeout(180_000);
  const workbench = useWorkbench();

  it('shows the Stratus view with sign-in actions', async () => {
    const { page } = workbench();
    await openStratusView(page);
    const signIn = page.getByRole('button', { name: 'Sign In to Console' });
    await signIn.waitFor({ timeout: 20_000 });
    await screenshot(page, 'stratus-view');
  });

  it('answers "@stratus hello" with the not-configured message, then the key is set through the command palette like a user', async () => {
    const { page, sandbox } = workbench();
    const response = await sendChat(page, '@stratus hello');
    const button = response.getByRole('button', { name: 'Set Inference API Key' });
    await button.waitFor({ timeout: 30_000 });
    const text = await response.innerText();
    assert.match(text, /not configured: set your API key/i);
    await screenshot(page, 'chat-not-configured');

    await runCommand(page, 'Stratus: Set Inference API Key');
    const input = page.locator('.quick-input-widget input[type="password"]').first();
    await input.waitFor({ timeout: 10_000 });
    await input.fill(sandbox.apiKey);
    await page.keyboard.press('Enter');
    // The status bar leaves its "set up" state once the key is stored and the models are listed.
    await page.locator('.statusbar-item', { hasText: 'Stratus: set up' }).waitFor({ state: 'detached', timeout: 20_000 });
  });
});

describe('UI: chatting with @stratus', function () {
  this.timeout(180_000);
  const workbench = useWorkbench({ env: { STRATUS_API_KEY: 'from-sandbox' } });
  const control = async (path: string, body: unknown): Promise<void> => {
    const res = await fetch(`${workbench().sandbox.console}/__sandbox${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.ok(res.ok, `sandbox control ${path}: ${res.status}`);
  };
  beforeEach(async () => control('/reset', {}));

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

  it('keeps an answer cut mid-stream, marks it incomplete and offers Retry', async () => {
    const { page } = workbench();
    // Spaced events, then the server drops the connection after the role chunk and 7 words.
    await control('/latency', { ms: 0, chunkDelayMs: 20, pathPrefix: '/v1/chat/completions' });
    await control('/stream-fault', { kind: 'drop', afterChunks: 8, pathPrefix: '/v1/chat/completions' });
    const response = await sendChat(page, '@stratus long 60');
    await response.getByText(/Incomplete answer: the connection was reset/).first().waitFor({ timeout: 30_000 });
    await response.getByRole('button', { name: 'Retry' }).first().waitFor({ timeout: 10_000 });
    // The error box renders after the note and the buttons: wait for it before reading the text.
    await response.getByText(/cut off: the connection was reset/).first().waitFor({ timeout: 20_000 });
    const text = (await response.innerText()).replace(/\u00a0/g, ' ');
    assert.match(text, /1 2 3/, 'the part that arrived stays');
    assert.doesNotMatch(text, /Cannot reach the service/);
    assert.match(text, /cut off: the connection was reset/, 'the error says what happened');
    await screenshot(page, 'chat-interrupted');
  });

  it('offers the Stratus tool-calling models in the Agent-mode model picker, and not a model without tool calling', async () => {
    const { page } = workbench();
    // The picker lists the models once a chat has resolved them: make sure one did, and that its
    // answer has rendered (the input moves while it streams).
    // (The chat list is virtualised: look for the answer in the view, not by its index.)
    await sendChat(page, '@stratus hello');
    await page.locator('.interactive-response', { hasText: 'Echo (gpt-oss:120b): hello' }).first().waitFor({ timeout: 30_000 });
    // A fresh profile's chat input is in Agent mode, which offers only models that declare tool calling.
    await page.locator('.interactive-input-part', { hasText: 'Agent' }).first().waitFor({ timeout: 10_000 });
    const picker = page.locator('.interactive-input-part .chat-modelPicker-item, .interactive-input-part [aria-label*="Pick Model"], .interactive-input-part .action-label[aria-label*="Model"]').first();
    const rows = page.locator('.monaco-list-row, .action-widget .monaco-list-row, .quick-input-list .monaco-list-row');
    // The picker folds some models under "Other Models"; its search box lists every match instead.
    // On a loaded machine it can open before its list is laid out: close it and open it again.
    let listed = false;
    for (let attempt = 0; attempt < 3 && !listed; attempt++) {
      await picker.waitFor({ timeout: 20_000 });
      await picker.click();
      await rows.filter({ hasText: 'gpt-oss:120b' }).first().waitFor({ timeout: 20_000 }).catch(() => undefined);
      await page.keyboard.type('qwen3');
      listed = await rows.filter({ hasText: 'qwen3:30b' }).first().waitFor({ timeout: 10_000 }).then(() => true, () => false);
      if (!listed) await page.keyboard.press('Escape');
    }
    assert.ok(listed, 'the Agent-mode picker lists qwen3:30b (a Stratus model with tool calling)');
    assert.equal(await rows.filter({ hasText: 'qwen3-vl:8b' }).count(), 0, 'the vision model declares no tool calling: not offered to agents');
    await screenshot(page, 'model-picker');
    await page.keyboard.press('Escape');
  });
});
