// The first run as a user meets it (the walkthrough opens once), and the README's screenshots:
// with STRATUS_UPDATE_SCREENSHOTS=1 the shots the UI tests took in THIS run are copied to
// media/screenshots/ after every suite ran (a root after-all hook), to be committed.
import * as assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../harness/codeServer.mjs';
import { screenshot, screenshotsDir, useWorkbench } from './workbench';

/** README image (media/screenshots/<key>.png) <- the UI test shot it is copied from (test-results/ui/<value>.png). */
export const README_SCREENSHOTS: Readonly<Record<string, string>> = {
  'chat': 'chat-markdown-answer',
  'model-picker': 'model-picker',
  'cloud-view': 'cloud-tree-vms',
  'activity-in-progress': 'activity-progress',
  'walkthrough': 'walkthrough-first-run',
  'inline-completion': 'inline-completion',
  'agent-review-changes': 'agent-review-changes',
  'agent-compaction-note': 'agent-compaction-note',
  'edit-diff': 'edit-diff-in-progress',
  'documents': 'documents-view',
  'commit-message': 'commit-message',
  'next-edit': 'next-edit',
  'review-comments': 'review-comments',
  'plan-with-todo-list': 'plan-with-todo-list',
  'batch-activities': 'batch-activities',
  'batch-review': 'batch-review',
};

const runStarted = Date.now();
const mediaDir = join(repoRoot, 'media', 'screenshots');

after(function () {
  if (process.env.STRATUS_UPDATE_SCREENSHOTS !== '1') return;
  mkdirSync(mediaDir, { recursive: true });
  const stale: string[] = [];
  for (const [target, source] of Object.entries(README_SCREENSHOTS)) {
    const from = join(screenshotsDir, `${source}.png`);
    // Only a shot taken by this run: a failed or skipped test leaves the committed image as it was.
    if (!existsSync(from) || statSync(from).mtimeMs < runStarted) {
      stale.push(source);
      continue;
    }
    copyFileSync(from, join(mediaDir, `${target}.png`));
  }
  console.log(`  README screenshots updated in media/screenshots/${stale.length ? ` (not taken this run, left as they were: ${stale.join(', ')})` : ''}`);
});

describe('UI: first run and README screenshots', function () {
  this.timeout(180_000);
  const workbench = useWorkbench({ settings: { 'workbench.welcomePage.walkthroughs.openOnInstall': true } });

  it('opens the Stratus walkthrough on its own when a fresh profile starts (nothing clicked)', async () => {
    const { page } = workbench();
    // Stratus activates once the window has started (onStartupFinished) and opens its walkthrough once.
    const title = page.getByText('Get Started with Stratus').first();
    await title.waitFor({ timeout: 30_000 });
    await page.getByText('Set the inference endpoint').first().waitFor({ timeout: 10_000 });
    await screenshot(page, 'walkthrough-first-run');
  });

  it('the README shows every screenshot it names, from media/screenshots/', () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const images = [...readme.matchAll(/\]\((media\/screenshots\/[\w-]+\.png)\)/g)].map((m) => m[1] ?? '');
    assert.deepEqual(images.map((i) => i.replace(/^media\/screenshots\/|\.png$/g, '')).sort(), Object.keys(README_SCREENSHOTS).sort(), 'README images and README_SCREENSHOTS agree');
    const updating = process.env.STRATUS_UPDATE_SCREENSHOTS === '1';
    for (const image of images) {
      const source = README_SCREENSHOTS[image.replace(/^media\/screenshots\/|\.png$/g, '')] ?? '';
      // With STRATUS_UPDATE_SCREENSHOTS=1 a shot taken by this run is copied there after the last suite.
      const takenNow = updating && existsSync(join(screenshotsDir, `${source}.png`)) && statSync(join(screenshotsDir, `${source}.png`)).mtimeMs >= runStarted;
      assert.ok(existsSync(join(repoRoot, image)) || takenNow, `${image} is not committed (STRATUS_UPDATE_SCREENSHOTS=1 npm run test:ui takes it)`);
    }
  });
});
