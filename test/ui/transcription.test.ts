import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toneWav } from '../unit/transcription/audio';
import { runCommand, screenshot, useWorkbench } from './workbench';

interface Recorded { seq: number; clientClosedEarly: boolean; status: number | null }

describe('UI: transcription', function () {
  this.timeout(180_000);
  const workbench = useWorkbench({ env: { STRATUS_API_KEY: 'from-sandbox' } });
  const control = async (path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${workbench().sandbox.console}/__sandbox${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return res.json();
  };
  const uploads = async (): Promise<Recorded[]> => ((await control('/requests?pathPrefix=/v1/audio/transcriptions')) as { requests: Recorded[] }).requests;

  /** Right-click a file in the Explorer and choose Transcribe Audio File…, then Enter in the options pick. */
  const transcribeFromExplorer = async (name: string): Promise<void> => {
    const { page } = workbench();
    await runCommand(page, 'View: Show Explorer');
    // The file watcher adds a new file to the Explorer.
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first();
    // A watcher event can come late on a loaded machine: refresh the Explorer as a person would.
    if (!(await row.waitFor({ timeout: 20_000 }).then(() => true, () => false))) {
      await runCommand(page, 'Refresh Explorer');
      await row.waitFor({ timeout: 40_000 });
    }
    // The menu lists extension items once the extension's contributions are registered (the
    // status bar item shows it); a menu opened earlier is reopened, as a person would.
    await page.locator('.statusbar-item', { hasText: 'Stratus' }).first().waitFor({ timeout: 60_000 });
    const item = page.locator('.monaco-menu .action-item', { hasText: 'Transcribe Audio File…' }).first();
    for (let attempt = 0; ; attempt++) {
      await row.click({ button: 'right' });
      const shown = await item.waitFor({ timeout: 5_000 }).then(() => true, () => false);
      if (shown) break;
      await page.keyboard.press('Escape');
      assert.ok(attempt < 5, 'the Explorer context menu never offered "Transcribe Audio File…"');
    }
    // A menu ignores a click that lands while it is still opening: click again if it stays open.
    const pick = page.locator('.quick-input-widget', { hasText: `Transcribe ${name} (wav, ` });
    for (let attempt = 0; ; attempt++) {
      await item.click();
      const opened = await pick.waitFor({ timeout: 5_000 }).then(() => true, () => false);
      if (opened) break;
      assert.ok(attempt < 3 && (await item.isVisible()), 'choosing "Transcribe Audio File…" opened no options pick');
    }
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Language: automatic' }).first().waitFor({ timeout: 10_000 });
  };

  it('transcribes a WAV from the Explorer context menu, shows the result document, and saves SRT from its title bar', async () => {
    const { page } = workbench();
    // The workbench was opened on ?folder=<workspace>: the same disk as this test.
    const folder = new URL(page.url()).searchParams.get('folder');
    assert.ok(folder, 'the workbench URL names its folder');
    writeFileSync(join(folder, 'standup.wav'), toneWav(12));

    await transcribeFromExplorer('standup.wav');
    await screenshot(page, 'transcription-options');
    await page.keyboard.press('Enter');

    const lines = page.locator('.editor-instance .view-lines', { hasText: 'Transcription of standup.wav' }).first();
    await lines.waitFor({ timeout: 30_000 });
    await page.locator('.editor-instance .view-lines', { hasText: 'Segment 3 of the sandbox transcription' }).first().waitFor({ timeout: 10_000 });
    await screenshot(page, 'transcription-result');

    // The rendered document next to its source.
    await runCommand(page, 'Markdown: Open Preview to the Side');
    const preview = page.frameLocator('iframe.webview.ready').frameLocator('iframe').locator('table').first();
    await preview.waitFor({ timeout: 20_000 }).catch(() => undefined);
    await screenshot(page, 'transcription-result-preview');
    await page.keyboard.press('ControlOrMeta+1'); // back to the source editor (the result's save buttons)

    const save = page.locator('.editor-actions .action-label[aria-label*="Save Transcription as SRT"]').first();
    await save.waitFor({ timeout: 10_000 });
    await save.click();
    // The simple save dialog proposes <audio>.srt next to the audio file.
    const input = page.locator('.quick-input-widget input').first();
    await input.waitFor({ timeout: 10_000 });
    // The dialog fills in the folder, then the proposed name.
    await page.waitForFunction("document.querySelector('.quick-input-widget input')?.value.endsWith('/standup.srt') === true", undefined, { timeout: 10_000 });
    await screenshot(page, 'transcription-save-srt');
    assert.match(await input.inputValue(), /standup\.srt$/);
    await page.keyboard.press('Enter');
    const srt = join(folder, 'standup.srt');
    for (let i = 0; i < 100 && !existsSync(srt); i++) await page.waitForTimeout(100);
    assert.ok(existsSync(srt), 'standup.srt was written next to the audio');
    assert.match(readFileSync(srt, 'utf8'), /^1\n00:00:00,000 --> 00:00:05,000\nSegment 1 of the sandbox transcription of\nstandup\.wav\.\n\n2\n/);
  });

  it('shows upload then waiting progress, and Cancel in the notification aborts the request', async () => {
    const { page } = workbench();
    const folder = new URL(page.url()).searchParams.get('folder') ?? '';
    writeFileSync(join(folder, 'long-call.wav'), toneWav(30));
    await control('/latency', { ms: 60_000, pathPrefix: '/v1/audio/transcriptions' });
    const before = Math.max(0, ...(await uploads()).map((r) => r.seq));
    await transcribeFromExplorer('long-call.wav');
    await page.keyboard.press('Enter');
    const toast = page.locator('.notification-toast', { hasText: 'transcribing long-call.wav: waiting for the transcription' }).first();
    await toast.waitFor({ timeout: 30_000 });
    await screenshot(page, 'transcription-waiting');
    await toast.hover();
    await toast.getByRole('button', { name: 'Cancel' }).click();
    let closed: Recorded | undefined;
    for (let i = 0; i < 100 && !closed; i++) {
      closed = (await uploads()).find((r) => r.seq > before && r.clientClosedEarly);
      if (!closed) await page.waitForTimeout(100);
    }
    assert.ok(closed, 'the sandbox saw the upload request closed early');
    await control('/latency', { ms: 0 });
  });
});
