// `npm run package`: production bundle, then a .vsix with @vscode/vsce; prints its size.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { name, version } = JSON.parse(readFileSync('package.json', 'utf8'));
const out = `${name}-${version}.vsix`;
execFileSync('node', ['scripts/build.mjs', '--production'], { stdio: 'inherit' });
// vsce keeps a device id under ~/.cache: give it a throwaway home so packaging leaves $HOME alone.
const home = mkdtempSync(join(tmpdir(), 'stratus-vsce-'));
try {
  execFileSync('vsce', ['package', '--no-dependencies', '-o', out], { stdio: 'inherit', env: { ...process.env, HOME: home, XDG_CACHE_HOME: join(home, '.cache') } });
} finally {
  rmSync(home, { recursive: true, force: true });
}
const bytes = statSync(out).size;
console.log(`[package] ${out} ${(bytes / 1024).toFixed(1)} KB (${bytes} bytes)`);
