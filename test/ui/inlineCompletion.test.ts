import * as assert from 'node:assert/strict';
import { runCommand, screenshot, useWorkbench } from './workbench';

describe('UI: inline completion (ghost text)', function () {
  this.timeout(180_000);
  // The TypeScript server's suggest list, when it opens as the test types (it depends on how soon
  // the server is ready), hides ghost text that does not extend its selected item: it is turned
  // off here, since this test is about the ghost text alone.
  const workbench = useWorkbench({
    env: { STRATUS_API_KEY: 'from-sandbox' },
    settings: { 'stratus.chat.model': 'gpt-oss:120b', 'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' }, 'editor.suggestOnTriggerCharacters': false },
  });

  it('shows ghost text while typing in a TypeScript editor, and Tab inserts it', async () => {
    const { page } = workbench();
    // A new editor, in TypeScript, as a person would set it up from the command palette.
    // The palette also lists "Compare New Untitled Text Files": pick the row by its exact label.
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').first().fill('>File: New Untitled Text File');
    await page.locator('.quick-input-list .monaco-list-row[aria-label^="File: New Untitled Text File"]').first().click({ timeout: 10_000 });
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.waitFor({ timeout: 15_000 });
    await runCommand(page, 'Change Language Mode');
    await page.keyboard.type('TypeScript');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: /^TypeScript/ }).first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    await page.locator('.statusbar-item', { hasText: 'TypeScript' }).first().waitFor({ timeout: 10_000 });
    await editor.click();
    await page.keyboard.type('// Area of a rectangle\nconst width = 3;\nconst height = 4;\nconst answer = ', { delay: 40 });
    // The ghost text: the sandbox's deterministic single-line continuation.
    const ghost = page.locator('.editor-instance .ghost-text-decoration, .editor-instance .ghost-text', { hasText: /value_[0-9a-f]{6}/ }).first();
    await ghost.waitFor({ timeout: 30_000 });
    await page.locator('.statusbar-item', { hasText: 'Stratus' }).first().waitFor({ timeout: 10_000 });
    await screenshot(page, 'inline-completion');
    await page.keyboard.press('Tab');
    const lines = page.locator('.editor-instance .view-lines').first();
    let text = '';
    for (let i = 0; i < 50; i++) {
      text = (await lines.innerText()).replace(/[\u00a0\u00b7]/g, ' ');
      if (/const answer = ?value_[0-9a-f]{6}\(\)/.test(text)) break;
      await page.waitForTimeout(100);
    }
    assert.match(text, /const answer = ?value_[0-9a-f]{6}\(\)/, `Tab inserted the suggestion: ${text}`);
  });
});
