import * as assert from 'node:assert/strict';
import { screenshot, sendChat, useWorkbench } from './workbench';

describe('UI: @stratus as an agent with tools in the Chat view', function () {
  this.timeout(180_000);
  const workbench = useWorkbench({ env: { STRATUS_API_KEY: 'from-sandbox' }, settings: { 'stratus.chat.model': 'gpt-oss:120b' } });

  it('runs read-only tools at once, asks before a command, and answers with every result', async () => {
    const { page } = workbench();
    // Round 1: two read-only tools in parallel; round 2: a command, which asks first; then the answer.
    const response = await sendChat(page, '@stratus plan: stratus_readFile {"path": "README.md"} & stratus_listFiles {"glob": "**/*.md"} ; stratus_runCommand {"command": "workbench.actions.view.problems"}');
    const allow = page.getByRole('button', { name: /^(Allow|Continue)/ }).first();
    await allow.waitFor({ timeout: 60_000 });
    // The confirmation names exactly what will run.
    await page.getByText('Run a VS Code command?').filter({ visible: true }).first().waitFor({ timeout: 10_000 });
    await page.getByText(/Run the VS Code command\s*workbench\.actions\.view\.problems\s*with no arguments/).filter({ visible: true }).first().waitFor({ timeout: 10_000 });
    assert.match(await response.innerText(), /confirmation\s+pending/);
    await screenshot(page, 'tools-confirmation');
    await allow.click();
    await page.waitForFunction((el) => /Tool result \(stratus_runCommand\)/.test(el?.textContent ?? ''), await response.elementHandle(), { timeout: 60_000 });
    const text = await response.innerText();
    assert.match(text, /Tool result \(stratus_readFile\): File: README\.md/);
    assert.match(text, /Tool result \(stratus_listFiles\): 1 file\(s\) matching/);
    assert.match(text, /Tool result \(stratus_runCommand\): Command workbench\.actions\.view\.problems ran/);
    await screenshot(page, 'tools-multi-tool-answer');
  });

  it('a skipped edit changes nothing and the model is told so', async () => {
    const { page } = workbench();
    const response = await sendChat(page, '@stratus plan: stratus_proposeEdit {"path": "README.md", "oldText": "A throwaway folder", "newText": "EDITED"}');
    const skip = page.getByRole('button', { name: /Skip|Cancel/ }).filter({ visible: true }).first();
    await skip.waitFor({ timeout: 60_000 });
    await page.getByText('Apply an edit?').filter({ visible: true }).first().waitFor({ timeout: 10_000 });
    await skip.click();
    // The answer streams: wait for the whole sentence, not only its start.
    await page.waitForFunction((el) => /Tool result \(stratus_proposeEdit\):.*(skip|declined)/i.test(el?.textContent ?? ''), await response.elementHandle(), { timeout: 60_000 });
    const text = await response.innerText();
    assert.match(text, /Tool result \(stratus_proposeEdit\): .*(skip|declined)/i);
    assert.doesNotMatch(text, /was applied/);
    await screenshot(page, 'tools-skipped-edit');
  });
});
