// Debian's Chromium driven by playwright-core (no browser download).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const candidates = /** @type {string[]} */ ([process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean));

export async function launchBrowser() {
  const executablePath = candidates.find((p) => existsSync(p));
  if (!executablePath) throw new Error('Chromium not found: install Debian\'s `chromium` package (bash scripts/setup.sh does) or set CHROMIUM_PATH.');
  const profile = mkdtempSync(join(tmpdir(), 'stratus-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    viewport: { width: 1400, height: 900 },
    // Chromium writes ~/.config/chromium and dconf even with --user-data-dir: give it a throwaway home.
    env: { ...process.env, HOME: profile, XDG_CONFIG_HOME: join(profile, '.config'), XDG_CACHE_HOME: join(profile, '.cache') },
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
