import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { runCommand, screenshot, useWorkbench } from './workbench';

/** The editor's text as shown (non-breaking spaces and whitespace markers as plain spaces). */
async function shownText(page: Page): Promise<string> {
  return (await page.locator('.editor-instance .view-lines').first().innerText()).replace(/[\u00a0\u00b7]/g, ' ');
}

async function until(page: Page, test: (text: string) => boolean, what: string, polls = 100): Promise<string> {
  let text = '';
  for (let i = 0; i < polls; i++) {
    text = await shownText(page);
    if (test(text)) return text;
    await page.waitForTimeout(100);
  }
  assert.fail(`timed out waiting for ${what}: ${text}`);
}

describe('UI: next edit suggestions', function () {
  this.timeout(180_000);
  // VS Code's own ghost text is off here (its Tab would come first): this test is about the diff
  // shown away from the cursor. No suggest list, no auto-closing or auto-indent while typing.
  const workbench = useWorkbench({
    env: { STRATUS_API_KEY: 'from-sandbox' },
    settings: {
      'stratus.chat.model': 'gpt-oss:120b',
      'editor.inlineSuggest.enabled': false,
      'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' },
      'editor.suggestOnTriggerCharacters': false,
      'editor.autoClosingBrackets': 'never',
      'editor.autoClosingQuotes': 'never',
      'editor.autoIndent': 'none',
      'editor.insertSpaces': true,
      'editor.tabSize': 2,
      'editor.detectIndentation': false,
    },
  });

  it('after a rename, shows the next use as a diff below the cursor; Tab goes there, Tab applies it', async () => {
    const { page } = workbench();
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
    // Tab indents the body: nothing is suggested, so Tab keeps its meaning.
    await page.keyboard.type('// Scale a value.\nfunction scale(count: number): number {\n', { delay: 20 });
    await page.keyboard.press('Tab');
    await page.keyboard.type('const doubled = count * 2;\n', { delay: 20 });
    await page.keyboard.press('Tab');
    await page.keyboard.type('return doubled + count;\n}\n', { delay: 20 });
    await until(page, (t) => t.includes('  const doubled = count * 2;') && t.includes('  return doubled + count;'), 'Tab to indent');
    // Rename the parameter: select the word, then type the new name.
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Home');
    for (let i = 0; i < 'function scale('.length; i++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+Control+ArrowRight');
    await page.keyboard.type('total', { delay: 60 });
    // The suggestion: `count` struck through on the line below the cursor.
    // (A page expression as text: this project's types have no DOM.)
    await page.waitForFunction(`[...document.querySelectorAll('.editor-instance .view-lines span')].some((el) => el.textContent === 'count' && getComputedStyle(el).textDecorationLine.includes('line-through'))`, undefined, { timeout: 30_000 });
    await screenshot(page, 'next-edit');
    // Tab: the cursor goes to the suggestion (the status bar's position says line 3).
    await page.keyboard.press('Tab');
    await page.locator('.statusbar-item', { hasText: /Ln 3, Col/ }).first().waitFor({ timeout: 10_000 });
    // Tab again applies it (the context key that says the cursor is there may land a moment later: Tab again then).
    let applied = false;
    for (let attempt = 0; attempt < 3 && !applied; attempt++) {
      await page.keyboard.press('Tab');
      applied = await until(page, (t) => t.includes('const doubled = total * 2;'), 'Tab again to apply the suggestion', 30).then(() => true, () => false);
    }
    const text = await until(page, (t) => t.includes('const doubled = total * 2;'), 'Tab, Tab to apply the suggestion');
    assert.match(text, /function scale\(total: number\)/);
  });
});
