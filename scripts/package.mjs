// `npm run package`: production bundle, then a .vsix with @vscode/vsce; prints its size.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { name, version } = JSON.parse(readFileSync('package.json', 'utf8'));
const out = `${name}-${version}.vsix`;
execFileSync('node', ['scripts/build.mjs', '--production'], { stdio: 'inherit' });
// vsce keeps a device id under ~/.cache: give it a throwaway home so packaging leaves $HOME alone.
const home = mkdtempSync(join(tmpdir(), 'stratus-vsce-'));
const vsceEnv = { ...process.env, HOME: home, XDG_CACHE_HOME: join(home, '.cache') };
try {
  checkFileList(execFileSync('vsce', ['ls', '--no-dependencies'], { encoding: 'utf8', env: vsceEnv }).split('\n').map((line) => line.trim()).filter(Boolean));
  execFileSync('vsce', ['package', '--no-dependencies', '-o', out], { stdio: 'inherit', env: vsceEnv });
} finally {
  rmSync(home, { recursive: true, force: true });
}
const bytes = statSync(out).size;
console.log(`[package] ${out} ${(bytes / 1024).toFixed(1)} KB (${bytes} bytes)`);

/**
 * `.vscodeignore` is an allowlist, so a new bundle is left out unless it is named there (the search
 * index worker once was, and the extension quietly fell back to indexing in the host): every
 * bundle the build wrote must be in the package, and no source map or second copy of pdf.js.
 * @param {string[]} files the paths `vsce ls` lists
 */
function checkFileList(files) {
  const bundles = readdirSync('dist', { recursive: true, encoding: 'utf8' }).filter((f) => /\.(js|css)$/.test(f)).map((f) => `dist/${f.replaceAll('\\', '/')}`);
  const missing = bundles.filter((f) => !files.includes(f));
  const unwanted = files.filter((f) => f.endsWith('.map') || f.startsWith('node_modules/') || /(^|\/)pdf(\.worker)?(\.min)?\.mjs$/.test(f));
  if (missing.length || unwanted.length) {
    throw new Error(`[package] .vscodeignore: ${missing.length ? `built but not packaged: ${missing.join(', ')}` : ''}${missing.length && unwanted.length ? '; ' : ''}${unwanted.length ? `packaged but not wanted: ${unwanted.join(', ')}` : ''}`);
  }
}
