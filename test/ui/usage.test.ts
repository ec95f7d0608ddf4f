// The Usage view in a real workbench: dark and light themes, the status bar warning, `/usage` in
// chat, no CSP violation in the webview's console. Measures the webview's time to first paint and
// its bundle size (reported, not asserted).
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConsoleMessage, FrameLocator, Page } from 'playwright-core';
import { launchBrowser } from '../harness/browser.mjs';
import { installVsix, repoRoot, startCodeServer } from '../harness/codeServer.mjs';
import { startSandboxProcess } from '../harness/sandbox.mjs';
import { openStratusView, runCommand, screenshot, screenshotsDir, sendChat } from './workbench';

const HOUR_CAP = 150_000;

/** Usage another window "wrote" before this one started: 121 000 output tokens this hour (81 %), and some history. */
function seedUsage(userData: string): void {
  const dir = join(userData, 'User', 'globalStorage', 'stratus-cloud.stratus', 'usage');
  mkdirSync(dir, { recursive: true });
  const now = Date.now();
  const lines: string[] = [];
  let seq = 0;
  const chat = (at: number, model: string, prompt: number, completion: number, reasoning = 0): void => {
    lines.push(JSON.stringify({ w: 'seed', s: ++seq, e: { kind: 'chat', at, model, promptTokens: prompt, completionTokens: completion, reasoningTokens: reasoning, estimated: false } }));
  };
  chat(now, 'gpt-oss:120b', 40_000, 121_000, 9_000);
  for (let h = 1; h < 24; h++) chat(now - h * 3_600_000, h % 3 === 0 ? 'qwen3:30b' : 'gpt-oss:120b', 8_000 + h * 300, 4_000 + ((h * 7919) % 9_000));
  for (let d = 2; d < 30; d++) chat(now - d * 86_400_000, 'gpt-oss:120b', 200_000, 60_000 + ((d * 104_729) % 90_000));
  lines.push(JSON.stringify({ w: 'seed', s: ++seq, e: { kind: 'rerank', at: now - 600_000, model: 'qwen3-reranker:4b', searchUnits: 3, rerankedTokens: 48_000, estimated: true } }));
  lines.push(JSON.stringify({ w: 'seed', s: ++seq, e: { kind: 'transcription', at: now - 900_000, model: 'whisper-large-v3', audioSeconds: 185 } }));
  writeFileSync(join(dir, 'events-seed.0.jsonl'), lines.join('\n') + '\n');
}

describe('UI: the Usage view', function () {
  this.timeout(240_000);
  let page: Page;
  let baseSettings: Record<string, unknown>;
  const consoleMessages: { type: string; text: string; url: string }[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  const figures: Record<string, number> = {};

  before(async () => {
    const sandbox = await startSandboxProcess({ profile: 'production' });
    cleanups.push(sandbox.stop);
    const { name, version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string };
    baseSettings = {
      'stratus.inference.baseUrl': sandbox.info.inference,
      'stratus.console.baseUrl': sandbox.info.console,
      'stratus.chat.model': 'gpt-oss:120b',
      'workbench.colorTheme': 'Default Dark Modern',
    };
    const server = await startCodeServer({
      settings: baseSettings,
      env: { STRATUS_API_KEY: sandbox.info.apiKey },
      beforeStart: (dirs) => {
        installVsix(join(repoRoot, `${name}-${version}.vsix`))(dirs);
        seedUsage(dirs.userData);
      },
    });
    cleanups.push(server.stop);
    const browser = await launchBrowser();
    cleanups.push(browser.close);
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.on('console', (m: ConsoleMessage) => consoleMessages.push({ type: m.type(), text: m.text(), url: m.location().url }));
    await page.goto(`${server.url}/?folder=${encodeURIComponent(server.dirs.workspace)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page) await screenshot(page, `failed-usage-${this.currentTest.title.replace(/[^a-z0-9]+/gi, '-').slice(0, 50)}`).catch(() => undefined);
  });
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    mkdirSync(screenshotsDir, { recursive: true });
    writeFileSync(join(screenshotsDir, 'usage-metrics.json'), JSON.stringify(figures, null, 2));
    process.stdout.write(`      usage metrics: ${JSON.stringify(figures)}\n`);
  });

  /** Collapses the Cloud and Activities views so the Usage view gets the sidebar's height. */
  async function roomForUsage(): Promise<void> {
    for (const name of ['Cloud', 'Activities']) {
      const header = page.locator('.pane-header[aria-expanded="true"]', { hasText: name }).first();
      if (await header.isVisible().catch(() => false)) await header.click();
    }
  }

  /** The Usage view's content: the visible webview (VS Code may keep a hidden one, e.g. the walkthrough's or a released view's). */
  function webview(): FrameLocator {
    return page.frameLocator('iframe.webview.ready >> visible=true').frameLocator('iframe#active-frame');
  }

  it('opens with Stratus: Show Usage and draws the gauges, the charts and the tables (dark theme)', async () => {
    const bundle = statSync(join(repoRoot, 'dist', 'webview', 'usage.js')).size;
    figures.webviewBundleKB = Math.round((bundle / 1024) * 10) / 10;
    figures.webviewCssKB = Math.round((statSync(join(repoRoot, 'dist', 'webview', 'usage.css')).size / 1024) * 10) / 10;
    // Let the extension activate (status bar item) before timing the view itself: it activates
    // only when used, here when its views first show.
    await openStratusView(page);
    await page.locator('.statusbar-item', { hasText: '/150k' }).first().waitFor({ timeout: 60_000 });
    const started = performance.now();
    await runCommand(page, 'Stratus: Show Usage');
    const view = webview();
    await view.getByText('Output tokens this hour').waitFor({ timeout: 30_000 });
    figures.showUsageToFirstPaintMs = Math.round(performance.now() - started);
    figures.webviewSelfReportedPaintMs = Math.round(Number(await view.locator('body').evaluate('performance.getEntriesByType("paint").find((e) => e.name === "first-contentful-paint")?.startTime ?? -1')));
    await view.locator('.chart canvas').nth(1).waitFor({ timeout: 10_000 });
    await roomForUsage();
    const hour = view.getByRole('meter', { name: 'Output tokens this hour' });
    assert.equal(Number(await hour.getAttribute('aria-valuenow')), 121_000);
    assert.equal(Number(await hour.getAttribute('aria-valuemax')), HOUR_CAP);
    assert.match((await view.locator('#tier').textContent()) ?? '', /Tier 1 · standard use/);
    assert.match(await view.locator('body').innerText(), /Audio minutes\s+4 min/, '185 s: four started minutes');
    assert.match(await view.locator('body').innerText(), /qwen3-reranker:4b/);
    await screenshot(page, 'usage-view-dark');
    // Keyboard: the footer buttons are reachable and labelled.
    await view.getByRole('button', { name: 'Export CSV' }).focus();
    assert.equal(await view.locator(':focus').textContent(), 'Export CSV');
    await page.keyboard.press('Tab');
    assert.equal(await view.locator(':focus').textContent(), 'Reset statistics…');
  });

  it('shows the status bar warning above 80 % of the hourly cap, with the day and month in its tooltip', async () => {
    const item = page.locator('.statusbar-item', { hasText: '/150k' }).first();
    assert.match((await item.innerText()).trim(), /121k\/150k/);
    assert.match((await item.getAttribute('class')) ?? '', /warning-kind/);
    await screenshot(page, 'usage-statusbar-warning');
    await item.hover();
    await page.locator('.monaco-hover, .workbench-hover', { hasText: 'output tokens today' }).first().waitFor({ timeout: 10_000 });
    await screenshot(page, 'usage-statusbar-tooltip');
    await page.mouse.move(700, 300);
  });

  it('re-draws in the light theme', async () => {
    // Focus back on the workbench (the previous test left it on a button inside the webview).
    await page.locator('.part.editor').first().click();
    // "Browse Color Themes in Marketplace" sorts first: pick the exact entry.
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').first().fill('>Preferences: Color Theme');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: /^Preferences: Color Theme/ }).first().click();
    // The palette turns into the theme picker: type into it as a user does.
    await page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'Dark Modern' }).first().waitFor({ timeout: 10_000 });
    await page.keyboard.type('Light Modern');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Light Modern' }).first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    await page.locator('.monaco-workbench.vs').waitFor({ timeout: 20_000 });
    const view = webview();
    await view.getByText('Output tokens this hour').scrollIntoViewIfNeeded();
    await view.locator('body.vscode-light').waitFor({ timeout: 20_000 });
    await view.locator('.chart canvas').nth(1).waitFor({ timeout: 10_000 });
    await screenshot(page, 'usage-view-light');
  });

  it('keeps its figures when the view is hidden and shown again', async () => {
    const header = page.locator('.pane-header', { hasText: 'Usage' }).first();
    await header.click();
    await page.locator('.pane-header[aria-expanded="false"]', { hasText: 'Usage' }).first().waitFor({ timeout: 10_000 });
    await header.click();
    const hour = webview().getByRole('meter', { name: 'Output tokens this hour' });
    await hour.waitFor({ timeout: 20_000 });
    assert.equal(Number(await hour.getAttribute('aria-valuenow')), 121_000);
  });

  it('answers @stratus /usage with the same figures in Markdown', async () => {
    // Words after the command close the completion list, so Enter sends.
    const response = await sendChat(page, '@stratus /usage where do I stand');
    // The Chat view renders an answer progressively: its table's first cells show before its figures.
    await response.filter({ hasText: /121 000 \/ 150 000/ }).waitFor({ timeout: 30_000 });
    const text = await response.innerText();
    assert.match(text, /121 000 \/ 150 000/);
    await screenshot(page, 'usage-chat');
  });

  it('logs no Content-Security-Policy violation in the webview', () => {
    const violations = consoleMessages.filter((m) => /Content Security Policy|Refused to (load|execute|apply|connect|evaluate)/i.test(m.text));
    assert.deepEqual(violations, []);
  });
});
