// A real workbench in Chromium: code-server with the packaged .vsix installed (as a user installs
// it) and the sandbox behind it. Page helpers address VS Code's DOM by stable roles and aria labels.
// Not development mode: its smoke-test driver switch also turns notification toasts off.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Dialog, Page } from 'playwright-core';
import { launchBrowser } from '../harness/browser.mjs';
import { installVsix, repoRoot, startCodeServer, workspaceReadme } from '../harness/codeServer.mjs';
import { startSandboxProcess } from '../harness/sandbox.mjs';
import { groupTogether, orderSuites, parseOrder, stableKey } from '../shared/order';

export const screenshotsDir = join(repoRoot, 'test-results', 'ui');

// STRATUS_UI_ORDER=reverse|shuffle[:seed] runs the UI suites (one workbench each) in another order.
// A root hook (this module is imported by every UI test file): mocha reads the root's suites only
// after its before-all hooks, so reordering them here takes effect.
// The suites that share a workbench (useWorkbench below) are then grouped, each group where its
// first suite is, so that one workbench is open at a time.
before(function () {
  const root = this.test?.parent;
  if (!root) return;
  const order = parseOrder(process.env.STRATUS_UI_ORDER);
  if (order.kind !== 'forward') orderSuites(root, order);
  groupByProfile(root.suites);
  if (order.kind !== 'forward') console.log(`  UI test order: ${order.spec} (STRATUS_UI_ORDER=${order.spec} runs it again): ${root.suites.map((s) => s.title).join(' | ')}`);
});
// A profile whose last suite never ran (left out by --grep) closes here.
after(async () => {
  for (const profile of profiles.values()) await closeProfile(profile);
});

export interface Workbench {
  readonly page: Page;
  readonly sandbox: { inference: string; console: string; apiKey: string; patId: string; patSecret: string };
  /** The workspace folder the workbench opened first (each later suite of its profile gets a sibling). */
  readonly workspace: string;
  close(): Promise<void>;
}

export async function openWorkbench(options: { settings?: Record<string, unknown>; env?: Record<string, string>; sandboxArgs?: string[] } = {}): Promise<Workbench> {
  mkdirSync(screenshotsDir, { recursive: true });
  const cleanups: (() => Promise<void>)[] = [];
  const close = async (): Promise<void> => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  };
  try {
    const sandbox = await startSandboxProcess({ extraArgs: options.sandboxArgs ?? [] });
    cleanups.push(sandbox.stop);
    const { name, version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string };
    const vsix = join(repoRoot, `${name}-${version}.vsix`);
    const server = await startCodeServer({
      beforeStart: installVsix(vsix),
      // The first-run walkthrough is the subject of screenshots.test.ts only (it turns this back on).
      settings: { 'stratus.inference.baseUrl': sandbox.info.inference, 'stratus.console.baseUrl': sandbox.info.console, 'workbench.welcomePage.walkthroughs.openOnInstall': false, ...options.settings },
      // 'from-sandbox' stands for the sandbox's fake key, known only once it has started.
      env: Object.fromEntries(Object.entries(options.env ?? {}).map(([k, v]) => [k, v === 'from-sandbox' ? sandbox.info.apiKey : v])),
    });
    cleanups.push(server.stop);
    const browser = await launchBrowser();
    cleanups.push(browser.close);
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    await showWorkbench(page, `${server.url}/?folder=${encodeURIComponent(server.dirs.workspace)}`);
    return { page, sandbox: sandbox.info, workspace: server.dirs.workspace, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Opens the workbench at `url` in `page` (a window that was open there shuts down as on a reload:
 * a "leave the page?" question is answered yes), then activates Stratus as a user would.
 */
async function showWorkbench(page: Page, url: string): Promise<void> {
  const leave = (dialog: Dialog): void => void (dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss()).catch(() => undefined);
  page.on('dialog', leave);
  try {
    await page.goto(url);
  } finally {
    page.off('dialog', leave);
  }
  await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
  // Stratus activates only when used (no start-up activation): open its views once, as a user
  // starting with it would, then go back to the Explorer the suites start from.
  await openStratusView(page);
  await page.locator('.activitybar .action-item a[aria-label^="Explorer"], .activitybar .action-item[aria-label^="Explorer"]').first().click();
}

export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(screenshotsDir, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** Clicks the Stratus activity-bar entry and waits for its Cloud view. */
export async function openStratusView(page: Page): Promise<void> {
  const entry = page.locator('.activitybar .action-item a[aria-label="Stratus"], .activitybar .action-item[aria-label="Stratus"]').first();
  await entry.waitFor({ timeout: 60_000 });
  await entry.click();
  await page.locator('.pane-header[aria-label*="Cloud"], .composite.title >> text=/Stratus/').first().waitFor({ timeout: 20_000 });
}

/**
 * Runs a command through the command palette, the way a keyboard user would. A palette that
 * something closed or covered while it opened (a webview taking focus, a dialog) is opened once
 * more, as a user would; what was in the way is logged.
 */
export async function runCommand(page: Page, title: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input').first();
      await input.waitFor({ timeout: 10_000 });
      await input.fill(`>${title}`, { timeout: 10_000 });
      await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 10_000 });
      await page.keyboard.press('Enter');
      return;
    } catch (error) {
      if (attempt >= 1) throw error;
      const dialog = page.locator('.monaco-dialog-box').first();
      const inTheWay = (await dialog.isVisible().catch(() => false)) ? await dialog.innerText().catch(() => '') : 'nothing visible';
      console.log(`runCommand("${title}"): the palette could not be used (${inTheWay.replace(/\s+/g, ' ')}); trying once more`);
      await page.keyboard.press('Escape');
    }
  }
}

/** Types a message into the Chat view's input and sends it; returns the newest response element. */
export async function sendChat(page: Page, text: string) {
  const editor = page.locator('.interactive-input-part .monaco-editor').first();
  if (!(await editor.isVisible().catch(() => false))) await runCommand(page, 'Chat: Open Chat');
  await editor.waitFor({ timeout: 30_000 });
  // VS Code resolves an extension's models a moment after activation; until the picker shows one,
  // a request has no model. A person sees the picker fill; the test waits for the same.
  await page.locator('.interactive-input-part .chat-input-toolbars', { hasText: /Stratus|:/ }).first().waitFor({ timeout: 30_000 });
  // The chat list is virtualised: rows scrolled out of view leave the DOM, so the new answer is the
  // response row whose list index is past every one before, not the n-th response element.
  const before = await lastResponseIndex(page);
  await typeIntoChatInput(page, text);
  await page.keyboard.press('Enter');
  // The first message of a window also activates the participant and resolves the models: slow on a loaded machine.
  const row = page.locator('.monaco-list-row:has(.interactive-item-container.interactive-response)');
  for (const deadline = Date.now() + 60_000; ; ) {
    const index = await lastResponseIndex(page);
    if (index > before) return row.and(page.locator(`[data-index="${index}"]`)).locator('.interactive-item-container.interactive-response').first();
    if (Date.now() > deadline) throw new Error(`no answer to ${JSON.stringify(text)} appeared in the Chat view within 60 s`);
    await page.waitForTimeout(200);
  }
}

/** The list index of the last response row the Chat view has rendered (-1: none). */
async function lastResponseIndex(page: Page): Promise<number> {
  const indexes = await page.locator('.monaco-list-row:has(.interactive-item-container.interactive-response)').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-index') ?? '-1')));
  return Math.max(-1, ...indexes);
}

/**
 * The Chat view's input text as the editor shows it: its line elements in their on-screen order
 * (Monaco reuses them, so their order in the DOM is not the text's), no-break spaces as spaces.
 */
async function chatInputText(page: Page): Promise<string> {
  const lines = page.locator('.interactive-input-part .monaco-editor .view-lines').first();
  const text = await lines
    .evaluate((el) => [...el.querySelectorAll('.view-line')].map((line) => ({ top: parseFloat(line.getAttribute('style')?.match(/top:\s*(-?[\d.]+)px/)?.[1] ?? '0'), text: line.textContent ?? '' })).sort((a, b) => a.top - b.top).map((line) => line.text).join(''))
    .catch(() => '');
  return text.replace(/\u00a0/g, ' ').trim();
}

type Shown = 'all' | 'start' | 'end';

/**
 * Resolves true when the Chat view's input shows `expected`: all of it, or for a message longer
 * than the input (its editor renders only the wrapped lines in view) the part in view, which is
 * its start or its end. Compared without whitespace (Monaco renders spaces as no-break spaces and
 * splits wrapped lines). False after `timeoutMs`.
 */
async function inputShows(page: Page, expected: string, shown: readonly Shown[], timeoutMs: number): Promise<boolean> {
  const want = expected.replace(/\s+/g, '');
  for (const deadline = Date.now() + timeoutMs; ; ) {
    const seen = (await chatInputText(page)).replace(/\s+/g, '');
    if (seen === want || (seen !== '' && ((shown.includes('start') && want.startsWith(seen)) || (shown.includes('end') && want.endsWith(seen))))) return true;
    if (Date.now() >= deadline) return false;
    // Polls at the page's pace: the next animation frame, when Monaco may have rendered again.
    await page.evaluate(() => new Promise((resolve) => (globalThis as unknown as { requestAnimationFrame(callback: () => void): void }).requestAnimationFrame(() => resolve(undefined))));
  }
}

/** Whether the input holds `expected`, scrolling a long message to its start and back to its end. */
async function inputHolds(page: Page, expected: string): Promise<boolean> {
  if (!(await inputShows(page, expected, ['end'], 5_000))) return false;
  if ((await chatInputText(page)).replace(/\s+/g, '') === expected.replace(/\s+/g, '')) return true;
  await page.keyboard.press('ControlOrMeta+Home');
  const start = await inputShows(page, expected, ['start'], 5_000);
  await page.keyboard.press('ControlOrMeta+End');
  return start && (await inputShows(page, expected, ['end'], 5_000));
}

/** Closes the suggest widget when it shows: an Enter or a space must not accept a suggestion. */
async function closeSuggestions(page: Page, appearWithinMs: number): Promise<void> {
  const widget = page.locator('.suggest-widget.visible').first();
  const shown = await widget.waitFor({ timeout: appearWithinMs }).then(() => true, () => false);
  if (!shown) return;
  await page.keyboard.press('Escape');
  await widget.waitFor({ state: 'hidden', timeout: 5_000 });
}

/**
 * Types `text` into the Chat view's input and confirms the input holds exactly it, before anything
 * is sent: typing again (cleared first) when it does not, never sending twice.
 * Seen in CI: the input held "@stratus" alone and the test waited for an answer that never came.
 * Typing now starts once the input's editor has focus, and the participant is typed on its own
 * and its suggestion closed before the rest: typed straight on, the rest raced VS Code's
 * participant completion (accepting it replaces the word with "@stratus " and runs a command that
 * can switch the chat mode; a slash command's suggestion is accepted by a space).
 */
export async function typeIntoChatInput(page: Page, text: string): Promise<void> {
  const editor = page.locator('.interactive-input-part .monaco-editor').first();
  const participant = /^@\S+/.exec(text)?.[0];
  let seen = '';
  for (let attempt = 1; attempt <= 3; attempt++) {
    // The input's decorations intercept pointer events; focusing by a forced click is what a user's click does.
    await editor.click({ force: true });
    await page.locator('.interactive-input-part .monaco-editor.focused').first().waitFor({ timeout: 10_000 });
    // A sticky participant leaves "@stratus " in the input: start from an empty one.
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    if (!(await inputShows(page, '', [], 10_000))) throw new Error(`The chat input still shows ${JSON.stringify(await chatInputText(page))} after it was cleared.`);
    let rest = text;
    if (participant) {
      await page.keyboard.type(participant);
      // The participant's suggestion shows a moment after the "@": wait for it and close it.
      await closeSuggestions(page, 3_000);
      rest = text.slice(participant.length);
    }
    await page.keyboard.type(rest);
    await closeSuggestions(page, 500);
    if (await inputHolds(page, text)) return;
    seen = await chatInputText(page);
    console.log(`typeIntoChatInput: the chat input shows ${JSON.stringify(seen)}, not ${JSON.stringify(text)} (attempt ${attempt}); typing it again`);
  }
  throw new Error(`The chat input shows ${JSON.stringify(seen)} after typing ${JSON.stringify(text)} three times.`);
}

/**
 * The workbench of a suite (mocha before/after): screenshots any failed test, and returns a getter.
 *
 * Suites that ask for the same options share one sandbox, code-server and browser (a profile):
 * starting them is most of a UI suite's set-up. Each suite still starts from what a fresh one
 * would give it: its own new workspace folder (with the same README) in a new window, on a
 * sandbox reset to its start-up state. The root hook above runs the suites of a profile one
 * after the other (in any STRATUS_UI_ORDER), and the profile closes after its last suite.
 */
export function useWorkbench(options: WorkbenchOptions = {}): () => Workbench {
  const key = stableKey(options ?? {});
  const profile = profiles.get(key) ?? { key, options, left: 0, suites: 0 };
  profiles.set(key, profile);
  profile.left += 1;
  let workbench: Workbench | undefined;
  // mocha returns the hook it registered; its parent is this suite (the root hook groups by it).
  const hook = before(async () => {
    workbench = await profileWindow(profile);
  }) as unknown as { parent?: object } | undefined;
  if (hook?.parent) suiteProfiles.set(hook.parent, key);
  afterEach(async function () {
    const test = this.currentTest;
    if (test?.state === 'failed' && workbench) {
      await screenshot(workbench.page, `failed-${test.title.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}`).catch(() => undefined);
    }
  });
  after(async () => {
    profile.left -= 1;
    if (profile.left === 0) await closeProfile(profile);
  });
  return () => {
    if (!workbench) throw new Error('The workbench did not open (see the before hook error).');
    return workbench;
  };
}

type WorkbenchOptions = Parameters<typeof openWorkbench>[0];

interface Profile {
  readonly key: string;
  readonly options: WorkbenchOptions;
  /** Suites registered with this profile that have not finished. */
  left: number;
  /** Suites that have opened a window in it (the first gets the workspace the server started on). */
  suites: number;
  opened?: Promise<Workbench>;
}

const profiles = new Map<string, Profile>();
/** A suite (mocha's object) -> the key of its profile. */
const suiteProfiles = new WeakMap<object, string>();

async function closeProfile(profile: Profile): Promise<void> {
  const opened = profile.opened;
  profile.opened = undefined;
  await (await opened?.catch(() => undefined))?.close();
}

/**
 * Reorders `suites` in place so that those of one profile run one after the other, each group
 * where its first suite was: at most one profile is open at a time.
 */
export function groupByProfile<S extends object>(suites: S[]): void {
  suites.splice(0, suites.length, ...groupTogether(suites, (suite, index) => suiteProfiles.get(suite) ?? `own:${index}`));
}

/**
 * A window of the profile for one suite: the first suite gets the one the profile opened with; a
 * later one gets a new workspace folder, opened in the same tab (VS Code shuts the previous window
 * down as it does on reload), on a sandbox reset to its start-up state.
 */
async function profileWindow(profile: Profile): Promise<Workbench> {
  profile.opened ??= openWorkbench(profile.options);
  const workbench = await profile.opened;
  profile.suites += 1;
  if (profile.suites === 1) return workbench;
  const reset = await fetch(`${workbench.sandbox.console}/__sandbox/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  if (!reset.ok) throw new Error(`The sandbox did not reset between suites: ${reset.status}`);
  const folder = `${workbench.workspace}-${profile.suites}`;
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'README.md'), workspaceReadme);
  await showWorkbench(workbench.page, new URL(`/?folder=${encodeURIComponent(folder)}`, workbench.page.url()).toString());
  return workbench;
}
