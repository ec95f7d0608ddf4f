import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCommand, screenshot, useWorkbench } from './workbench';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Stratus Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' });

const BASE = [
  'export interface Item { price: number }',
  '',
  'export function total(items: Item[]): number {',
  '  return items.reduce((sum, item) => sum + item.price, 0);',
  '}',
  '',
].join('\n');

/** A repository with one commit, then a staged change the sandbox's reviewer finds two things in. */
function makeRepository(root: string): void {
  mkdirSync(join(root, 'src'), { recursive: true });
  git(root, 'init', '-q');
  writeFileSync(join(root, 'src', 'cart.ts'), BASE);
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'feat(cart): add the cart');
  writeFileSync(join(root, 'src', 'cart.ts'), `${BASE}export function discount(code: string): number {\n  // TODO: read the discounts from the server\n  return eval(code);\n}\n`);
  git(root, 'add', '-A');
}

describe('UI: Review Changes in the Source Control view', function () {
  this.timeout(180_000);
  const workbench = useWorkbench({ env: { STRATUS_API_KEY: 'from-sandbox' }, settings: { 'stratus.chat.model': 'gpt-oss:120b', 'git.enabled': true } });

  it('the Review Changes button shows each finding as a comment on its line, with Apply Fix and Dismiss', async () => {
    const { page } = workbench();
    const workspace = new URL(page.url()).searchParams.get('folder');
    assert.ok(workspace, `the workbench opened a folder: ${page.url()}`);
    const root = join(workspace, 'reviewed');
    makeRepository(root);
    await runCommand(page, 'Git: Open Repository');
    const input = page.locator('.quick-input-widget input').first();
    await input.waitFor({ timeout: 10_000 });
    await input.fill(`${root}/`);
    await page.locator('.quick-input-widget').getByRole('button', { name: 'Open Repository' }).click();
    await page.locator('.activitybar .action-item', { has: page.locator('a[aria-label^="Source Control"]') }).first().click();
    await page.locator('.scm-view .monaco-list-row', { hasText: 'cart.ts' }).first().waitFor({ timeout: 30_000 });
    const header = page.locator('.pane-header', { has: page.locator('a.action-label[aria-label="Review Changes"]') }).first();
    await header.waitFor({ timeout: 30_000 });
    await header.hover();
    await header.locator('a.action-label[aria-label="Review Changes"]').click();
    // The first finding's file opens with its comment threads expanded on their lines.
    const thread = page.locator('.review-widget', { hasText: 'eval runs arbitrary code from its input.' }).first();
    await thread.waitFor({ timeout: 30_000 });
    await page.locator('.review-widget', { hasText: 'Unfinished work left in the change.' }).first().waitFor({ timeout: 10_000 });
    const text = (await thread.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /security · error/);
    assert.match(text, /rename eval to safeEval/, 'the suggested fix is shown');
    // The thread's title actions: Apply Fix and Dismiss.
    await thread.hover();
    await thread.locator('a.action-label[aria-label="Apply Fix"]').first().waitFor({ timeout: 10_000 });
    await thread.locator('a.action-label[aria-label="Dismiss"]').first().waitFor({ timeout: 10_000 });
    await screenshot(page, 'review-comments');
  });
});
