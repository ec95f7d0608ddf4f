// Ghost text and next edit suggestions in the REAL workbench (issue 40, item 16): code-server with
// the packaged .vsix (run `node scripts/package.mjs` first), Chromium typing two functions at ~11
// keys/s into a new TypeScript editor, the sandbox counting the completion requests it receives.
// Three runs in one workbench: next edits on, next edits on with the machine loaded (two busy
// processes, 50-200 ms busy, 30-150 ms idle, for the length of the typing), next edits off.
// Heavy: hold the lock, `flock /tmp/stratus-heavy.lock node bench/completionWorkbench.mjs`.
// Not part of `npm run bench`. Figures:
//   metric workbench.requestsPer100KeysWithNextEdit        (target <= 15)
//   metric workbench.requestsPer100KeysWithNextEditLoaded  (target <= the quiet one)
//   metric workbench.requestsPer100KeysGhostOnly
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from '../test/harness/browser.mjs';
import { installVsix, repoRoot, startCodeServer } from '../test/harness/codeServer.mjs';
import { startSandboxProcess } from '../test/harness/sandbox.mjs';
import { f2, log, prng, verdict } from './lib.mjs';

const TWO_FUNCTIONS = [
  'function total(items) {',
  '  let sum = 0;',
  '  for (const item of items) sum += item.price * item.count;',
  '  return sum;',
  '}',
  '',
  'function average(items) {',
  '  if (items.length === 0) return 0;',
  '  const all = total(items);',
  '  return all / items.length;',
  '}',
  '',
].join('\n');
const KEYS_PER_SECOND = 11;
const TARGET = 15;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The gap after each key: ~11 keys/s (0.6-1.4x the mean), 0.6-1.5 s after half the line ends. */
function gaps(seed) {
  const rand = prng(seed);
  const mean = 1_000 / KEYS_PER_SECOND;
  return [...TWO_FUNCTIONS].map((ch) => (ch === '\n' && rand() < 0.5 ? 600 + rand() * 900 : mean * (0.6 + rand() * 0.8)));
}

/** Two busy processes (the machine has two CPUs), each 50-200 ms busy and 30-150 ms idle in turn. */
function loadMachine() {
  const code = 'const s=new Int32Array(new SharedArrayBuffer(4));for(;;){const e=Date.now()+50+Math.random()*150;while(Date.now()<e);Atomics.wait(s,0,0,30+Math.random()*120);}';
  const children = [0, 1].map(() => spawn(process.execPath, ['-e', code], { stdio: 'ignore' }));
  return () => children.forEach((c) => c.kill('SIGKILL'));
}

async function runCommand(page, title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input').first();
  await input.waitFor({ timeout: 10_000 });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
}

async function newTypeScriptEditor(page) {
  await runCommand(page, 'File: New Untitled Text File');
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await editor.waitFor({ timeout: 15_000 });
  await runCommand(page, 'Change Language Mode');
  await page.keyboard.type('TypeScript');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: /^TypeScript/ }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  await page.locator('.statusbar-item', { hasText: 'TypeScript' }).first().waitFor({ timeout: 10_000 });
  await page.locator('.editor-instance .monaco-editor').first().click();
}

async function completionRequests(control) {
  const answer = /** @type {{ requests: { path: string }[] }} */ (await fetch(`${control}/requests`).then((r) => r.json()));
  return answer.requests.filter((r) => /^\/v1\/(chat\/)?completions/.test(r.path)).length;
}

/** Types the two functions key by key on the clock (a late key is not made up by typing faster); returns requests per 100 keys. */
async function typeAndCount(page, control, seed) {
  await newTypeScriptEditor(page);
  await fetch(`${control}/requests`, { method: 'DELETE' });
  const wait = gaps(seed);
  let due = performance.now();
  for (const [k, ch] of [...TWO_FUNCTIONS].entries()) {
    if (ch === '\n') await page.keyboard.press('Enter');
    else await page.keyboard.type(ch);
    due += wait[k] ?? 0;
    await sleep(Math.max(0, due - performance.now()));
  }
  await sleep(3_000);
  const requests = await completionRequests(control);
  await page.keyboard.press('Escape');
  return (requests / TWO_FUNCTIONS.length) * 100;
}

async function main() {
  const sandbox = await startSandboxProcess();
  const control = `${new URL(sandbox.info.inference).origin}/__sandbox`;
  const { name, version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  const server = await startCodeServer({
    beforeStart: installVsix(join(repoRoot, `${name}-${version}.vsix`)),
    settings: {
      'stratus.inference.baseUrl': sandbox.info.inference,
      'stratus.console.baseUrl': sandbox.info.console,
      'stratus.chat.model': 'gpt-oss:120b',
      'workbench.welcomePage.walkthroughs.openOnInstall': false,
      'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' },
      'editor.suggestOnTriggerCharacters': false,
      'editor.autoClosingBrackets': 'never',
      'editor.autoClosingQuotes': 'never',
      'editor.autoIndent': 'none',
    },
    env: { STRATUS_API_KEY: sandbox.info.apiKey },
  });
  const browser = await launchBrowser();
  try {
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    await page.goto(`${server.url}/?folder=${encodeURIComponent(server.dirs.workspace)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
    const entry = page.locator('.activitybar .action-item a[aria-label="Stratus"], .activitybar .action-item[aria-label="Stratus"]').first();
    await entry.waitFor({ timeout: 60_000 });
    await entry.click();
    await sleep(3_000);
    log(`Ghost text and next edits in the workbench: ${TWO_FUNCTIONS.length} keys at ~${KEYS_PER_SECOND} keys/s`);
    // A warm-up run (the extension, the TypeScript server and the model list start), not counted.
    await typeAndCount(page, control, 1);
    const quiet = await typeAndCount(page, control, 2);
    const stopLoad = loadMachine();
    let loaded;
    try {
      loaded = await typeAndCount(page, control, 2);
    } finally {
      stopLoad();
    }
    await runCommand(page, 'Toggle Next Edit Suggestions');
    await sleep(1_000);
    const ghostOnly = await typeAndCount(page, control, 2);
    log(`metric workbench.requestsPer100KeysWithNextEdit ${f2(quiet)} (target <= ${TARGET}) ${verdict(quiet <= TARGET)}`);
    log(`metric workbench.requestsPer100KeysWithNextEditLoaded ${f2(loaded)} (target <= quiet ${f2(quiet)}) ${verdict(loaded <= quiet)}`);
    log(`metric workbench.requestsPer100KeysGhostOnly ${f2(ghostOnly)}`);
  } finally {
    await browser.close();
    await server.stop();
    await sandbox.stop();
  }
}

main().then(
  () => process.exit(),
  (error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
