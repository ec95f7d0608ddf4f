import * as assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../harness/codeServer.mjs';
import { runCommand, screenshot, sendChat, useWorkbench } from './workbench';

describe('UI: workspace search', function () {
  this.timeout(180_000);
  const workbench = useWorkbench({ env: { STRATUS_API_KEY: 'from-sandbox' } });

  /** The folder code-server opened (from the page address), where the fixtures are copied. */
  const workspaceDir = (): string => {
    const folder = new URL(workbench().page.url()).searchParams.get('folder');
    assert.ok(folder, 'the workbench URL names its folder');
    return folder;
  };

  it('builds the index on first search, shows lexical then reranked results in the picker, Enter opens the range', async () => {
    const { page } = workbench();
    // Nothing is indexed before a search surface is used: the first search starts the build, and the
    // picker shows what is indexed so far, then asks again once the index is complete.
    cpSync(join(repoRoot, 'test', 'fixtures', 'search', 'workspace'), workspaceDir(), { recursive: true });
    await runCommand(page, 'Stratus: Search Workspace');
    const input = page.locator('.quick-input-widget input').first();
    await input.waitFor({ timeout: 10_000 });
    await input.fill('where do we refresh the auth token before it expires');
    const first = page.locator('.quick-input-list .monaco-list-row').first();
    await first.filter({ hasText: 'src/auth/tokenRefresher.ts' }).waitFor({ timeout: 30_000 });
    // The reranked order replaces the lexical one, marked with a sparkle and the model's score.
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'reranked' }).first().waitFor({ timeout: 20_000 });
    const text = await page.locator('.quick-input-list').innerText();
    assert.match(text, /tokenRefresher\.ts/);
    assert.match(text, /lines \d+–\d+/);
    await screenshot(page, 'search-picker-reranked');

    await page.keyboard.press('Enter');
    await page.locator('.tabs-container .tab.active', { hasText: 'tokenRefresher.ts' }).waitFor({ timeout: 20_000 });
    await screenshot(page, 'search-opened-range');
    // The status bar counts the indexed files (README + 4 fixtures).
    await page.locator('.statusbar-item', { hasText: /\b5 files\b/ }).first().waitFor({ timeout: 60_000 });
    await screenshot(page, 'search-status-bar');
  });

  it('@stratus /search answers with the places as anchors', async () => {
    const { page } = workbench();
    const response = await sendChat(page, '@stratus /search how is the VAT added to the invoice total');
    // Anchors render as file widgets ("invoice.ts:1-11"), not as plain links.
    await page.waitForFunction((el) => (el?.textContent ?? '').includes('invoice.ts'), await response.elementHandle(), { timeout: 30_000 });
    const answer = await response.innerText();
    assert.match(answer, /reranked/i);
    assert.match(answer, /invoice\.ts/);
    await screenshot(page, 'search-chat-answer');
  });
});
