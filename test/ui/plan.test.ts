import type { Locator, Page } from 'playwright-core';
import * as assert from 'node:assert/strict';
import { screenshot, sendChat, useWorkbench } from './workbench';

// Issue 35, item 4 in the Chat view: `@stratus /plan` answers with a plan and its to-do list (kept
// with stratus_todo, shown once at the end), then the Implement and Save Plan buttons. A README screenshot.

/** Allows any tool confirmation until the answer shows `done` (or the time runs out). */
async function allowUntil(page: Page, response: Locator, done: RegExp): Promise<void> {
  const allow = page.getByRole('button', { name: /^(Allow|Continue)/ }).filter({ visible: true }).first();
  // Polled at 200 ms for up to a minute: the answer goes on as soon as a confirmation is allowed.
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    if (done.test((await response.innerText()).replace(/\u00a0/g, ' '))) return;
    if (await allow.isVisible().catch(() => false)) await allow.click().catch(() => undefined);
    await page.waitForTimeout(200);
  }
  assert.fail(`the answer never showed ${done}: ${await response.innerText()}`);
}

describe('UI: plan mode with its to-do list', function () {
  this.timeout(240_000);
  const workbench = useWorkbench({ env: { STRATUS_API_KEY: 'from-sandbox' }, settings: { 'stratus.chat.model': 'gpt-oss:120b' } });

  it('/plan answers with the plan, its to-do list and the Implement and Save Plan buttons', async () => {
    const { page } = workbench();
    const prompt =
      '@stratus /plan plan: stratus_todo {"action": "add", "titles": ["Read the README", "Write a greeting module", "Document it in the README"]}' +
      ' ; stratus_todo {"action": "start", "id": 1} ; stratus_readFile {"path": "README.md"} ; stratus_todo {"action": "complete", "id": 1}';
    const response = await sendChat(page, prompt);
    await allowUntil(page, response, /To-do list \(1 of 3 done\)/);
    await response.getByRole('button', { name: 'Implement' }).waitFor({ timeout: 30_000 });
    await response.getByRole('button', { name: 'Save Plan' }).waitFor({ timeout: 10_000 });
    const text = (await response.innerText()).replace(/\u00a0/g, ' ');
    for (const title of ['Read the README', 'Write a greeting module', 'Document it in the README']) assert.ok(text.includes(title), `${title} in: ${text}`);
    assert.equal(text.split('To-do list (1 of 3 done)').length - 1, 1, 'the list is shown once');
    await screenshot(page, 'plan-with-todo-list');
  });
});
