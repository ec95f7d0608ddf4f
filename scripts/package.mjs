// `npm run package`: production bundle, then a .vsix with @vscode/vsce; prints its size.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';

const { name, version } = JSON.parse(readFileSync('package.json', 'utf8'));
const out = `${name}-${version}.vsix`;
execFileSync('node', ['scripts/build.mjs', '--production'], { stdio: 'inherit' });
execFileSync('vsce', ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', out], { stdio: 'inherit' });
const bytes = statSync(out).size;
console.log(`[package] ${out} ${(bytes / 1024).toFixed(1)} KB (${bytes} bytes)`);
