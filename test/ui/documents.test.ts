import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { imagePdf, INVOICE_MARKDOWN, textPdf } from '../unit/documents/fixtures';
import { runCommand, screenshot, useWorkbench } from './workbench';

describe('UI: documents', function () {
  this.timeout(180_000);
  const workbench = useWorkbench({ env: { STRATUS_API_KEY: 'from-sandbox' } });

  /** Right-click a file in the Explorer and choose Extract Text from Document…. */
  const extractFromExplorer = async (name: string): Promise<void> => {
    const { page } = workbench();
    await runCommand(page, 'View: Show Explorer');
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first();
    if (!(await row.waitFor({ timeout: 20_000 }).then(() => true, () => false))) {
      await runCommand(page, 'Refresh Explorer');
      await row.waitFor({ timeout: 40_000 });
    }
    await page.locator('.statusbar-item', { hasText: 'Stratus' }).first().waitFor({ timeout: 60_000 });
    const item = page.locator('.monaco-menu .action-item', { hasText: 'Extract Text from Document…' }).first();
    for (let attempt = 0; ; attempt++) {
      await row.click({ button: 'right' });
      if (await item.waitFor({ timeout: 5_000 }).then(() => true, () => false)) break;
      await page.keyboard.press('Escape');
      assert.ok(attempt < 5, 'the Explorer context menu never offered "Extract Text from Document…"');
    }
    for (let attempt = 0; await item.isVisible(); attempt++) {
      await item.click();
      await item.waitFor({ state: 'hidden', timeout: 2_000 }).catch(() => undefined);
      assert.ok(attempt < 3, 'choosing "Extract Text from Document…" left the menu open');
    }
  };

  it('reads a scanned PDF from the Explorer: the document view shows the pages and the selected page\'s Markdown', async () => {
    const { page } = workbench();
    const folder = new URL(page.url()).searchParams.get('folder');
    assert.ok(folder, 'the workbench URL names its folder');
    const pages = [
      { markdown: '# Runbook: gateway restart\n\n1. Drain the node.\n2. Restart the gateway service.\n3. Check the health endpoint.', nonce: 'ui-1' },
      { markdown: INVOICE_MARKDOWN, nonce: 'ui-2' },
      { markdown: '## Contacts\n\n- On call: +33 1 23 45 67 89\n- Escalation: platform team', nonce: 'ui-3' },
    ];
    writeFileSync(join(folder, 'scanned-runbook.pdf'), await imagePdf(pages));
    await extractFromExplorer('scanned-runbook.pdf');

    const view = page.frameLocator('iframe.webview.ready').frameLocator('iframe');
    await view.locator('.page.done').nth(2).waitFor({ timeout: 60_000 });
    assert.equal(await view.locator('.page').count(), 3);
    assert.equal(await view.locator('.page img').count(), 3, 'each scanned page shows its thumbnail');
    await view.locator('.page').nth(1).click();
    const table = view.locator('.markdown table');
    await table.waitFor({ timeout: 10_000 });
    assert.deepEqual(await table.locator('th').allTextContents(), ['Item', 'Qty', 'Price']);
    assert.match((await view.locator('.detail-head').textContent()) ?? '', /Page 2.*OCR · deepseek-ocr:3b.*Done/);
    await screenshot(page, 'documents-view');

    // Open as Markdown: one Markdown document, pages under headings.
    await view.getByRole('button', { name: 'Open as Markdown' }).click();
    await page.locator('.editor-instance .view-lines', { hasText: '# scanned-runbook.pdf' }).first().waitFor({ timeout: 20_000 });
    await page.locator('.editor-instance .view-lines', { hasText: '## Page 2' }).first().waitFor({ timeout: 10_000 });
    // Closed without saving, so no "save changes?" dialog waits for the next test.
    await runCommand(page, 'View: Revert and Close Editor');
  });

  it('reads a PDF with a text layer without asking the model, saying so per page', async () => {
    const { page } = workbench();
    const folder = new URL(page.url()).searchParams.get('folder') ?? '';
    writeFileSync(join(folder, 'spec.pdf'), await textPdf(['Specification SX-200\nInput: 12 V DC', 'Appendix A\nTolerances: 5 %']));
    // One document view at a time on screen, so the frame below is this one.
    await runCommand(page, 'View: Close All Editors');
    await extractFromExplorer('spec.pdf');
    const target = page.frameLocator('iframe.webview.ready').frameLocator('iframe');
    await target.locator('.page.done').nth(1).waitFor({ timeout: 60_000 });
    assert.match((await target.locator('.detail-head').textContent()) ?? '', /Page 1.*Text layer.*Done/);
    assert.match((await target.locator('.markdown').textContent()) ?? '', /Specification SX-200/);
  });
});
