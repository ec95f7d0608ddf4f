import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCommand, screenshot, useWorkbench } from './workbench';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Stratus Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' });

/** A repository in Conventional Commits style with one staged change, in `root`. */
function makeRepository(root: string): void {
  mkdirSync(join(root, 'src'), { recursive: true });
  git(root, 'init', '-q');
  writeFileSync(join(root, 'src', 'cart.ts'), 'export const items: string[] = [];\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'feat(cart): add the cart');
  writeFileSync(join(root, 'README.md'), '# shop\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'docs: add a readme');
  writeFileSync(join(root, 'src', 'cart.ts'), 'export const items: string[] = [];\nexport const coupons = new Map<string, number>();\n');
  git(root, 'add', '-A');
}

describe('UI: Write Commit Message in the Source Control view', function () {
  this.timeout(180_000);
  // The test workbench starts with git off (test/harness/settings.mjs); this suite needs it.
  const workbench = useWorkbench({ env: { STRATUS_API_KEY: 'from-sandbox' }, settings: { 'stratus.chat.model': 'gpt-oss:120b', 'git.enabled': true } });

  it('the sparkle button in the view title streams the message of the staged changes into the commit box', async () => {
    const { page } = workbench();
    // A repository in a folder of the opened workspace (the workbench's address names it).
    const workspace = new URL(page.url()).searchParams.get('folder');
    assert.ok(workspace, `the workbench opened a folder: ${page.url()}`);
    const root = join(workspace, 'shop');
    makeRepository(root);
    // Open it as a person would: Git: Open Repository, then its path in the folder picker.
    await runCommand(page, 'Git: Open Repository');
    const input = page.locator('.quick-input-widget input').first();
    await input.waitFor({ timeout: 10_000 });
    await input.fill(`${root}/`);
    await page.locator('.quick-input-widget').getByRole('button', { name: 'Open Repository' }).click();
    // The icon's item, not its link: once git counts the changes, their badge lies over the link
    // and takes the click (a person clicking the badge opens the view too: the item handles it).
    await page.locator('.activitybar .action-item', { has: page.locator('a[aria-label^="Source Control"]') }).first().click();
    await page.locator('.scm-view .monaco-list-row', { hasText: 'cart.ts' }).first().waitFor({ timeout: 30_000 });
    // The view's title actions show while the pointer is over its header, as for a person.
    const header = page.locator('.pane-header', { has: page.locator('a.action-label[aria-label="Write Commit Message with Stratus"]') }).first();
    await header.waitFor({ timeout: 30_000 });
    await header.hover();
    const button = header.locator('a.action-label[aria-label="Write Commit Message with Stratus"]');
    await button.click();
    const box = page.locator('.scm-editor .view-lines').first();
    // The editor renders only the lines in view, and follows the end as the message streams in.
    await box.filter({ hasText: 'coupons' }).waitFor({ timeout: 30_000 });
    await page.locator('.scm-editor .monaco-editor').first().click();
    await page.keyboard.press('ControlOrMeta+Home');
    await box.filter({ hasText: 'Echo (gpt-oss:120b): Write the' }).waitFor({ timeout: 10_000 });
    const text = (await box.innerText()).replace(/[\u00a0\u00b7]/g, ' ').replace(/\s+/g, ' ');
    assert.match(text, /staged changes of the repository "shop"/);
    assert.match(text, /docs: add a readme/, 'the recent subjects were sent to follow the style');
    await button.hover();
    await page.locator('.monaco-hover, .custom-hover', { hasText: 'Write Commit Message with Stratus' }).first().waitFor({ timeout: 5_000 }).catch(() => undefined);
    await screenshot(page, 'commit-message');
  });
});
