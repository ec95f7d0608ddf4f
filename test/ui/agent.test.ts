import * as assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { runCommand, screenshot, sendChat, useWorkbench } from './workbench';

// Issue 19 in the Chat view: an agent turn that changes files ends with Review changes (VS Code's
// multi-file diff of the turn) and Undo this turn; a conversation compacted with /compact shows
// the one-line note with its Show summary button. Both are README screenshots.

/** Allows every tool confirmation until the answer shows `done` (or the time runs out). */
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

/** The newest answer (the list drops answers scrolled far out of view: counting them is unreliable). */
function newest(page: Page): Locator {
  return page.locator('.interactive-item-container.interactive-response').last();
}

describe('UI: the @stratus agent at depth (Review changes, Undo, compaction)', function () {
  this.timeout(240_000);
  const workbench = useWorkbench({
    env: { STRATUS_API_KEY: 'from-sandbox' },
    // The edit applies on Allow (the refactor preview is the second look this test does not need).
    settings: { 'stratus.chat.model': 'gpt-oss:120b', 'stratus.tools.editPreview': false },
  });

  it('a turn that creates two files and edits one ends with Review changes: one multi-file diff of the turn', async () => {
    const { page } = workbench();
    const prompt =
      '@stratus plan: stratus_createFile {"path": "src/greeting.ts", "content": "export function greet(name: string): string {\\n  return \'Hello, \' + name + \'!\';\\n}\\n"}' +
      ' & stratus_createFile {"path": "src/main.ts", "content": "import { greet } from \'./greeting\';\\n\\nconsole.log(greet(\'Stratus\'));\\n"}' +
      ' ; stratus_proposeEdit {"path": "README.md", "oldText": "A throwaway folder opened by code-server.", "newText": "A demo workspace: run src/main.ts to be greeted."}';
    const response = await sendChat(page, prompt);
    await allowUntil(page, response, /Files @stratus changed in this turn: 3/);
    const review = response.getByRole('button', { name: 'Review changes' });
    await review.waitFor({ timeout: 30_000 });
    await response.getByRole('button', { name: 'Undo this turn' }).waitFor({ timeout: 10_000 });
    await review.click();
    // VS Code's multi-file diff editor, titled by the command, with the three files of the turn.
    const tab = page.locator('.tabs-container .tab', { hasText: /Changes of this @stratus turn/ }).first();
    await tab.waitFor({ timeout: 30_000 });
    const editor = page.locator('.multiDiffEditor, .monaco-multi-diff-editor, .multi-diff-editor').first();
    await editor.waitFor({ timeout: 30_000 });
    for (const name of ['greeting.ts', 'main.ts', 'README.md']) await editor.getByText(name).first().waitFor({ timeout: 20_000 });
    await editor.getByText('A demo workspace: run src/main.ts to be greeted.').first().waitFor({ timeout: 20_000 });
    await screenshot(page, 'agent-review-changes');
  });

  it('a conversation compacted with /compact shows "Summarised N earlier messages" and a Show summary button', async () => {
    const { page } = workbench();
    // No editor open (an earlier test may leave its diff open: the chat input would attach it).
    await runCommand(page, 'View: Close All Editors');
    // Two earlier turns, each waited for to the end of its answer.
    for (const n of [30, 40]) {
      await sendChat(page, `@stratus long ${n}`);
      await newest(page).getByText(new RegExp(`\\b${n - 1} ${n}\\b`)).first().waitFor({ timeout: 30_000 });
    }
    // A word after the command: Enter then sends (right after '/compact' it would accept the suggestion).
    await sendChat(page, '@stratus /compact the conversation so far');
    const response = newest(page);
    await response.getByText(/Summarised \d+ earlier messages/).first().waitFor({ timeout: 60_000 });
    await response.getByRole('button', { name: 'Show summary' }).waitFor({ timeout: 10_000 });
    const text = (await response.innerText()).replace(/\u00a0/g, ' ');
    const count = Number(/Summarised (\d+) earlier messages/.exec(text)?.[1]);
    assert.ok(count >= 4, `the earlier turns were summarised: ${text}`);
    await screenshot(page, 'agent-compaction-note');
  });
});
