// `npm run check`: no source file under src/ over 400 lines (DESIGN.md: small files with one job).
// Tests, the sandbox and generated files are not source. A file listed in KNOWN_LARGE is a debt
// with an issue to pay it; the check fails once it is paid (so the list only shrinks).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const MAX_LINES = 400;
/** Files over the limit today, each with the issue that cuts it. */
const KNOWN_LARGE = new Map([]);

const root = join(import.meta.dirname, '..');

/** @param {string} dir @returns {string[]} */
function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mjs|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const problems = [];
for (const file of sourceFiles(join(root, 'src'))) {
  const name = relative(root, file).split('\\').join('/');
  const lines = readFileSync(file, 'utf8').split('\n').length - 1;
  const known = KNOWN_LARGE.get(name);
  if (lines > MAX_LINES && !known) problems.push(`${name}: ${lines} lines (at most ${MAX_LINES}); split it by what its parts do`);
  if (lines <= MAX_LINES && known) problems.push(`${name}: ${lines} lines now; remove it from KNOWN_LARGE in scripts/check-size.mjs`);
}
if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`check-size: no source file over ${MAX_LINES} lines (${KNOWN_LARGE.size} known, each with its issue)\n`);
