// Installs a corpus of bench/searchQuality.mjs into its own gitignored folder, never at the root
// of the repository nor system-wide. Two kinds:
// - npm (package.json + lock in bench/corpora/<name>/): `npm ci --ignore-scripts`;
// - Debian Go sources (`debian` in questions.json): each `package=version` fetched with
//   `apt-get download` at that exact version and unpacked with `dpkg-deb -x` (never installed);
//   the main package's /usr/share/gocode/src/<importPath> becomes the tree, and every other
//   package's Go sources go under its `vendor/`, as `go mod vendor` lays them out.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { log } from './lib.mjs';

/**
 * @param {string} dir the corpus folder (bench/corpora/<name>)
 * @param {{ root: string, installed?: string, debian?: { importPath: string, main: string, vendor: string[] } }} corpus
 */
export function installCorpus(dir, corpus) {
  if (existsSync(join(dir, corpus.root, corpus.installed ?? 'package.json'))) return;
  if (corpus.debian) return installDebianGo(dir, corpus.root, corpus.debian);
  log(`installing corpus ${dir} (npm ci --ignore-scripts) ...`);
  execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
}

/**
 * @param {string} dir
 * @param {string} root
 * @param {{ importPath: string, main: string, vendor: string[] }} spec
 */
function installDebianGo(dir, root, spec) {
  log(`installing corpus ${dir} (apt-get download + dpkg-deb -x of ${1 + spec.vendor.length} Debian packages) ...`);
  const debs = join(dir, 'debs');
  mkdirSync(debs, { recursive: true });
  const unpacked = (pkg) => {
    const [name] = pkg.split('=');
    const out = join(debs, `${name}.d`);
    if (!existsSync(out)) {
      const before = new Set(readdirSync(debs));
      execFileSync('apt-get', ['download', pkg], { cwd: debs, stdio: ['ignore', 'inherit', 'inherit'] });
      const deb = readdirSync(debs).find((f) => !before.has(f) && f.endsWith('.deb'));
      if (!deb) throw new Error(`apt-get download ${pkg}: no .deb`);
      execFileSync('dpkg-deb', ['-x', join(debs, deb), out]);
    }
    return join(out, 'usr', 'share', 'gocode', 'src');
  };
  const tree = join(dir, root);
  rmSync(tree, { recursive: true, force: true });
  cpSync(join(unpacked(spec.main), spec.importPath), tree, { recursive: true, verbatimSymlinks: true });
  for (const pkg of spec.vendor) {
    cpSync(unpacked(pkg), join(tree, 'vendor'), { recursive: true, verbatimSymlinks: true, force: false, errorOnExist: false });
  }
}
